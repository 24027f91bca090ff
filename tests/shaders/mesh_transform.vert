// mesh_transform.vert — the standard lit-mesh vertex shader.
// Exercises: Input/Output storage classes (location-qualified attributes and varyings), a std140 UBO with
// matrices, push-constant model matrix, gl_Position via the gl_PerVertex output block, mat3 normal transform.
#version 450
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec4 in_tangent;

layout(location = 0) out vec3 out_world_position;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec2 out_uv;
layout(location = 3) out vec3 out_tangent;

layout(set = 0, binding = 0, std140) uniform Frame { mat4 view; mat4 projection; vec4 camera_position; } frame;
layout(push_constant) uniform Push { mat4 model; } pc;

void main() {
    vec4 world = pc.model * vec4(in_position, 1.0);
    mat3 normal_matrix = transpose(inverse(mat3(pc.model)));
    out_world_position = world.xyz;
    out_normal = normalize(normal_matrix * in_normal);
    out_tangent = normalize(mat3(pc.model) * in_tangent.xyz) * in_tangent.w;
    out_uv = in_uv;
    gl_Position = frame.projection * frame.view * world;
}
