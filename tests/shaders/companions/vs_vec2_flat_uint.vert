// companions/vs_vec2_flat_uint.vert — calibration companion: a vec2 at location 0 and a flat uint at
// location 1 (alpha_test.frag's inputs), from the attribute and gl_VertexIndex. Not part of the measured corpus.
#version 450
layout(location = 0) in vec4 in_position;
layout(location = 0) out vec2 out_a;
layout(location = 1) flat out uint out_b;

void main() {
    out_a = in_position.yx;
    out_b = uint(gl_VertexIndex);
    gl_Position = in_position;
}
