#version 450
// Two clip planes (a slanted one and y <= 0.7) and one cull distance (triangles whose every vertex has z < 0.25
// are discarded).
layout(location = 0) in vec4 inPosition;
layout(location = 1) in vec4 inColor;
layout(location = 0) out vec4 vColor;
out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[2];
  float gl_CullDistance[1];
};
void main() {
  gl_Position = inPosition;
  vColor = inColor;
  gl_ClipDistance[0] = inPosition.x + 0.3 * inPosition.y + 0.2;
  gl_ClipDistance[1] = 0.7 - inPosition.y;
  gl_CullDistance[0] = inPosition.z - 0.25;
}
