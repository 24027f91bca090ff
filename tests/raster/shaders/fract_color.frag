#version 450
// sample_input.frag without the Sample decoration: interpolated once per pixel.
layout(location = 0) in vec4 vColor;
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(fract(vColor.rgb), 1.0); }
