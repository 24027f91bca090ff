// companions/fs_vec2.frag — calibration companion: reads a vec2 at location 0 (so the previous stage keeps
// that output) into one colour output. Not part of the measured corpus.
#version 450
layout(location = 0) in vec2 in_a;
layout(location = 0) out vec4 out_colour;

void main() {
    out_colour = vec4(in_a, 0.0, 1.0);
}
