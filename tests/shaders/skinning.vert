// skinning.vert — linear-blend skinning with four weights from a bone-matrix storage buffer.
// Exercises: integer vertex attributes (uvec4), storage buffer reads in a vertex shader, weighted mat4 sums,
// a loop over influences, gl_VertexIndex, flat integer output.
#version 450
layout(location = 0) in vec3 in_position;
layout(location = 1) in uvec4 in_joints;
layout(location = 2) in vec4 in_weights;

layout(location = 0) out vec3 out_colour;
layout(location = 1) flat out uint out_vertex_id;

layout(set = 0, binding = 0, std430) readonly buffer Bones { mat4 bones[]; };
layout(set = 0, binding = 1, std140) uniform Camera { mat4 view_projection; } camera;

void main() {
    mat4 skin = mat4(0.0);
    for (int i = 0; i < 4; ++i) {
        skin += in_weights[i] * bones[in_joints[i]];
    }
    vec4 p = skin * vec4(in_position, 1.0);
    out_colour = in_weights.xyz;
    out_vertex_id = uint(gl_VertexIndex);
    gl_Position = camera.view_projection * p;
}
