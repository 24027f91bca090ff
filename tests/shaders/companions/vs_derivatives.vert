// companions/vs_derivatives.vert — calibration companion: derivatives.frag's inputs (vec3; noperspective,
// centroid and sample vec2/vec2/float) from the vertex attribute. Not part of the measured corpus.
#version 450
layout(location = 0) in vec4 in_position;
layout(location = 0) out vec3 out_a;
layout(location = 1) noperspective out vec2 out_b;
layout(location = 2) centroid out vec2 out_c;
layout(location = 3) sample out float out_d;

void main() {
    out_a = in_position.zyx;
    out_b = in_position.xy;
    out_c = in_position.wz;
    out_d = in_position.w;
    gl_Position = in_position;
}
