#version 450
// Flat integer inputs, the fragment's position, its facing and discard.
layout(location = 0) in vec4 vColor;
layout(location = 1) flat in uint vVertex;
layout(location = 0) out vec4 outColor;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  if ((p.x * 3 + p.y) % 11 == 0) discard;
  float facing = gl_FrontFacing ? 1.0 : 0.25;
  outColor = vec4(vColor.rg * facing, float(vVertex % 8u) / 7.0, fract(gl_FragCoord.z * 4.0));
}
