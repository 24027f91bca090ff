// companions/vs_vec3.vert — calibration companion: gl_Position and a vec3 at location 0 from the vertex
// attribute. Not part of the measured corpus.
#version 450
layout(location = 0) in vec4 in_position;
layout(location = 0) out vec3 out_a;

void main() {
    out_a = in_position.zyx;
    gl_Position = in_position;
}
