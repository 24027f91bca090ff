// companions/vs_vec2.vert — calibration companion: gl_Position and a vec2 at location 0, both from the vertex
// attribute, so the next stage's input cannot be folded to a constant. Not part of the measured corpus.
#version 450
layout(location = 0) in vec4 in_position;
layout(location = 0) out vec2 out_a;

void main() {
    out_a = in_position.yx;
    gl_Position = in_position;
}
