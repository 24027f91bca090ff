#version 450
// One triangle covering the whole target, from the vertex index alone.
void main() {
  const vec2 corners[3] = vec2[](vec2(-1, -1), vec2(3, -1), vec2(-1, 3));
  gl_Position = vec4(corners[gl_VertexIndex], 0.5, 1.0);
}
