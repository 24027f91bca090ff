// companions/vs_gbuffer.vert — calibration companion: gbuffer.frag's inputs (vec3, vec2, flat uint) from the
// vertex attribute and gl_VertexIndex. Not part of the measured corpus.
#version 450
layout(location = 0) in vec4 in_position;
layout(location = 0) out vec3 out_a;
layout(location = 1) out vec2 out_b;
layout(location = 2) flat out uint out_c;

void main() {
    out_a = in_position.zyx;
    out_b = in_position.yx;
    out_c = uint(gl_VertexIndex);
    gl_Position = in_position;
}
