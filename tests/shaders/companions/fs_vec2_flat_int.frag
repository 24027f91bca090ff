// companions/fs_vec2_flat_int.frag — calibration companion: reads point_to_quad.geom's outputs (vec2, flat
// int) into one colour output. Not part of the measured corpus.
#version 450
layout(location = 0) in vec2 in_a;
layout(location = 1) flat in int in_b;
layout(location = 0) out vec4 out_colour;

void main() {
    out_colour = vec4(in_a, float(in_b), 1.0);
}
