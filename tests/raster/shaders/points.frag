#version 450
// Interpolated colour, a flat integer from the provoking vertex, and gl_PointCoord (0 for lines).
layout(location = 0) in vec4 vColor;
layout(location = 1) flat in uint vIndex;
layout(location = 0) out vec4 outColor;
void main() {
  outColor = vec4(vColor.rg, float(vIndex % 4u) * 0.25 + gl_PointCoord.x * 0.1, vColor.a * (0.5 + 0.5 * gl_PointCoord.y));
}
