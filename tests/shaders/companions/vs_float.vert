// companions/vs_float.vert — calibration companion: gl_Position and a float at location 0 from the vertex
// attribute. Not part of the measured corpus.
#version 450
layout(location = 0) in vec4 in_position;
layout(location = 0) out float out_a;

void main() {
    out_a = in_position.w;
    gl_Position = in_position;
}
