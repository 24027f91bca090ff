#version 450
// A lit mesh: position and normal attributes, the transform in push constants.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec3 v_normal;
layout(push_constant) uniform Transform { mat4 mvp; } transform;
void main() {
  v_normal = normal;
  gl_Position = transform.mvp * vec4(position, 1.0);
}
