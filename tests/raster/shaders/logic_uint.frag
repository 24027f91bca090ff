#version 450
// The interpolated colour as 8-bit integers, for the logic-op scene on an integer attachment.
layout(location = 0) in vec4 vColor;
layout(location = 0) out uvec4 outColor;
void main() { outColor = uvec4(round(clamp(vColor, 0.0, 1.0) * 255.0)); }
