// companions/fs_vec3_flat_uint.frag — calibration companion: reads skinning.vert's outputs (vec3, flat uint)
// into one colour output. Not part of the measured corpus.
#version 450
layout(location = 0) in vec3 in_a;
layout(location = 1) flat in uint in_b;
layout(location = 0) out vec4 out_colour;

void main() {
    out_colour = vec4(in_a, float(in_b));
}
