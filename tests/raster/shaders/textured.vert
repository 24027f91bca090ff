#version 450
layout(location = 0) in vec4 inPosition;
layout(location = 1) in vec2 inUv;
layout(location = 0) out vec2 vUv;
void main() {
  gl_Position = inPosition;
  vUv = inUv;
}
