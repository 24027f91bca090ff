#version 450
// A full-screen quad from the vertex index alone (two triangles, no vertex buffer), texture coordinates 0..1.
layout(location = 0) out vec2 uv;
const vec2 corners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(-1, 1), vec2(1, -1), vec2(1, 1));
void main() {
  uv = corners[gl_VertexIndex] * 0.5 + 0.5;
  gl_Position = vec4(corners[gl_VertexIndex], 0.0, 1.0);
}
