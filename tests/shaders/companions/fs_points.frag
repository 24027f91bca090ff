// companions/fs_points.frag — calibration companion: reads instanced_points.vert's outputs (noperspective vec2,
// flat uint) into one colour output. Not part of the measured corpus.
#version 450
layout(location = 0) noperspective in vec2 in_a;
layout(location = 1) flat in uint in_b;
layout(location = 0) out vec4 out_colour;

void main() {
    out_colour = vec4(in_a, float(in_b), 1.0);
}
