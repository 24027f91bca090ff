#version 450
#extension GL_EXT_multiview : require
// Each view sees the geometry moved right by half the viewport per view index, and tinted by it.
layout(location = 0) in vec4 inPosition;
layout(location = 1) in vec4 inColor;
layout(location = 0) out vec4 vColor;
void main() {
  gl_Position = inPosition + vec4(0.5 * float(gl_ViewIndex), 0.0, 0.0, 0.0);
  vColor = inColor * (gl_ViewIndex == 0 ? 1.0 : 0.5);
}
