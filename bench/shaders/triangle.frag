#version 450
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 colour;
void main() {
  colour = v_colour * 0.5 + 0.25;
}
