// companions/fs_vec3.frag — calibration companion: reads a vec3 at location 0 into one colour output. Not part
// of the measured corpus.
#version 450
layout(location = 0) in vec3 in_a;
layout(location = 0) out vec4 out_colour;

void main() {
    out_colour = vec4(in_a, 1.0);
}
