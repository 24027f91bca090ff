// pn_triangles.tese — evaluates the cubic PN-triangle patch at the barycentric tessellation coordinate.
// Exercises: triangles domain with equal_spacing and point_mode, barycentric gl_TessCoord.xyz, patch input
// arrays, many multiply-adds of vec3, quadratic normal interpolation.
#version 450
layout(triangles, equal_spacing, cw, point_mode) in;

layout(location = 0) in vec3 in_normal[];
layout(location = 1) patch in vec3 in_b[7];
layout(location = 0) out vec3 out_normal;

layout(set = 0, binding = 0, std140) uniform Camera { mat4 view_projection; } camera;

void main() {
    vec3 w = gl_TessCoord;
    vec3 b300 = gl_in[0].gl_Position.xyz;
    vec3 b030 = gl_in[1].gl_Position.xyz;
    vec3 b003 = gl_in[2].gl_Position.xyz;
    float u = w.x, v = w.y, t = w.z;
    vec3 p = b300 * u * u * u + b030 * v * v * v + b003 * t * t * t
           + in_b[0] * 3.0 * u * u * v + in_b[1] * 3.0 * u * v * v + in_b[2] * 3.0 * v * v * t
           + in_b[3] * 3.0 * v * t * t + in_b[4] * 3.0 * t * t * u + in_b[5] * 3.0 * u * u * t
           + in_b[6] * 6.0 * u * v * t;
    out_normal = normalize(in_normal[0] * u + in_normal[1] * v + in_normal[2] * t);
    gl_Position = camera.view_projection * vec4(p, 1.0);
}
