// companions/vs_vec3_vec4.vert — calibration companion: texture_ops.frag's inputs (vec3 at location 0, vec4
// at location 1) from the vertex attribute. Not part of the measured corpus.
#version 450
layout(location = 0) in vec4 in_position;
layout(location = 0) out vec3 out_a;
layout(location = 1) out vec4 out_b;

void main() {
    out_a = in_position.zyx;
    out_b = in_position.wzyx;
    gl_Position = in_position;
}
