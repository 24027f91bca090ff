#version 450
// Position and colour per vertex, moved by a push-constant offset (one value per draw).
layout(location = 0) in vec4 inPosition;
layout(location = 1) in vec4 inColor;
layout(location = 0) out vec4 vColor;
layout(push_constant) uniform Push { vec4 offset; } push;
void main() {
  gl_Position = inPosition + push.offset;
  vColor = inColor;
}
