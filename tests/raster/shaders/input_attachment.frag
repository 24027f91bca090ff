#version 450
// The second subpass: the first subpass's colour at this pixel, read as an input attachment, inverted and tinted.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput previous;
layout(location = 0) out vec4 outColor;
void main() {
  vec4 c = subpassLoad(previous);
  outColor = vec4(1.0 - c.r, 0.5 * c.g + 0.25, 1.0 - c.b, 1.0);
}
