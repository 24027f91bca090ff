// point_to_quad.geom — expands each point into a camera-facing quad (triangle strip of four vertices).
// Exercises: Geometry execution model (points in, triangle_strip out, max_vertices), gl_in[] input array,
// EmitVertex/EndPrimitive, per-vertex outputs written before each emit, gl_PrimitiveIDIn, a loop of emits.
#version 450
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;

layout(location = 0) in float in_size[];
layout(location = 0) out vec2 out_uv;
layout(location = 1) flat out int out_primitive;

layout(set = 0, binding = 0, std140) uniform Camera { mat4 projection; } camera;

void main() {
    vec4 centre = gl_in[0].gl_Position;
    for (int i = 0; i < 4; ++i) {
        vec2 corner = vec2(i & 1, i >> 1);
        out_uv = corner;
        out_primitive = gl_PrimitiveIDIn;
        gl_Position = camera.projection * (centre + vec4((corner - 0.5) * in_size[0], 0.0, 0.0));
        EmitVertex();
    }
    EndPrimitive();
}
