#version 450
// Counts the fragments shaded at each pixel (64 wide); with early fragment tests, fragments that fail the depth
// test are never shaded.
layout(early_fragment_tests) in;
layout(location = 0) in vec4 vColor;
layout(location = 0) out vec4 outColor;
layout(set = 0, binding = 1) buffer Counts { uint n[]; } counts;
void main() {
  atomicAdd(counts.n[uint(gl_FragCoord.y) * 64u + uint(gl_FragCoord.x)], 1u);
  outColor = vColor;
}
