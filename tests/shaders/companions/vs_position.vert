// companions/vs_position.vert — calibration companion: a vertex shader that writes only gl_Position.
// Feeds fragment shaders without inputs (tonemap_subpass.frag). Not part of the measured corpus.
#version 450
layout(location = 0) in vec4 in_position;

void main() {
    gl_Position = in_position;
}
