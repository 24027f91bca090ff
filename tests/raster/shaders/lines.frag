#version 450
// Interpolated colour and a flat integer from the provoking vertex.
layout(location = 0) in vec4 vColor;
layout(location = 1) flat in uint vIndex;
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(vColor.rg, float(vIndex % 4u) * 0.25, vColor.a); }
