// companions/fs_vec2_float.frag — calibration companion: reads terrain.tese's outputs (vec2, float) into one
// colour output. Not part of the measured corpus.
#version 450
layout(location = 0) in vec2 in_a;
layout(location = 1) in float in_b;
layout(location = 0) out vec4 out_colour;

void main() {
    out_colour = vec4(in_a, in_b, 1.0);
}
