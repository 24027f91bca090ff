#version 450
// The texture repeated 8 times across the target: at 1920 pixels over 8 × 256 texels the footprint is just above
// one texel per pixel, so trilinear filtering blends levels 0 and 1 as a game's surfaces do.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 colour;
layout(set = 0, binding = 0) uniform sampler2D albedo;
void main() {
  colour = texture(albedo, uv * 8.0);
}
