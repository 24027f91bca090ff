#version 450
// color.vert for points: the point size comes from the position's w slot of a second attribute-free constant.
layout(location = 0) in vec4 inPosition;
layout(location = 1) in vec4 inColor;
layout(location = 0) out vec4 vColor;
layout(location = 1) flat out uint vIndex;
layout(push_constant) uniform Push { float pointSize; } push;
void main() {
  gl_Position = inPosition;
  gl_PointSize = push.pointSize;
  vColor = inColor;
  vIndex = uint(gl_VertexIndex);
}
