#version 450
// Position and colour attributes, as a typical mesh vertex shader takes them.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 colour;
layout(location = 0) out vec4 v_colour;
layout(set = 0, binding = 0) uniform Camera { mat4 view_projection; } camera;
void main() {
  v_colour = colour;
  gl_Position = camera.view_projection * vec4(position, 1.0);
}
