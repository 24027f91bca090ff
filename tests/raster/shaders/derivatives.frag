#version 450
// Explicit derivatives of a perspective-interpolated value, scaled into colour.
layout(location = 0) in vec4 vColor;
layout(location = 0) out vec4 outColor;
void main() {
  vec2 d = vec2(dFdxCoarse(vColor.x), dFdyCoarse(vColor.y));
  outColor = vec4(abs(d) * 16.0, fwidthCoarse(vColor.z) * 16.0, 1.0);
}
