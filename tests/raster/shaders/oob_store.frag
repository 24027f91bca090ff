#version 450
// Records each covered pixel's coverage in a storage buffer of one word per pixel, indexed by gl_FragCoord. The
// test binds a buffer one row short: the last row's fragments write past its end.
layout(location = 0) in vec4 vColor;
layout(location = 0) out vec4 outColor;
layout(set = 0, binding = 1) buffer Coverage { uint pixels[]; } coverage;
void main() {
  uint index = uint(gl_FragCoord.y) * 16u + uint(gl_FragCoord.x);
  coverage.pixels[index] = 1u;
  outColor = vColor;
}
