#version 450
// Memory-to-register promotion keeps a dynamically indexed array in memory; the scalar `total` beside it is still
// promoted.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float values[]; };
layout(push_constant) uniform Push { int pick; };

void main() {
  float table[8];
  float total = 0.0;
  for (int i = 0; i < 8; ++i) {
    table[i] = values[i] * float(i);
    total += table[i];
  }
  values[gl_GlobalInvocationID.x] = table[pick] + total;
}
