// companions/fs_wireframe.frag — calibration companion: reads wireframe.geom's outputs (vec3, noperspective
// vec3) into one colour output. Not part of the measured corpus.
#version 450
layout(location = 0) in vec3 in_a;
layout(location = 1) noperspective in vec3 in_b;
layout(location = 0) out vec4 out_colour;

void main() {
    out_colour = vec4(in_a * in_b, 1.0);
}
