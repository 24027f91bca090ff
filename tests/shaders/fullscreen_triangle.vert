// fullscreen_triangle.vert — the attribute-less fullscreen triangle used by post-processing passes.
// Exercises: bit operations on gl_VertexIndex to generate coordinates, int->float conversion, no inputs and
// no descriptors at all (an empty pipeline layout).
#version 450
layout(location = 0) out vec2 out_uv;

void main() {
    out_uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(out_uv * 2.0 - 1.0, 0.0, 1.0);
}
