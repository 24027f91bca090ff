// ir_fold.comp — constants that reach arithmetic only after the SSA passes (glslang does not propagate through
// local variables), for the IR constant-folding test. Each result lands in its own buffer slot.
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint u[16]; int s[16]; float f[16]; } data;
void main() {
  uint a = 6u, b = 7u, zero = 0u, wide = 32u, one = 1u;
  int minInt = -2147483647 - 1, minusOne = -1, seven = 7, minusTwo = -2;
  float x = 0.5, y = 0.25;
  data.u[0] = a * b;                  // 42
  data.u[1] = a - b;                  // wraps: 0xffffffff
  data.s[0] = minInt / minusOne;      // undefined (overflow): stays
  data.u[2] = data.u[3] / zero;       // undefined (division by zero): stays
  data.u[4] = data.u[5] << wide;      // undefined (shift by the width): stays
  data.s[1] = seven % minusTwo;       // SRem? glslang emits OpSMod for %: 7 smod -2 = -1
  data.s[2] = minusTwo >> 1;          // arithmetic shift: -1
  data.f[0] = x + y;                  // 0.75
  data.u[6] = data.u[7] * one + zero; // identities: the load itself
  data.u[8] = uint(x * 8.0);          // conversion: 4
  data.s[3] = int(uvec2(a, b).y);     // composite extract of a construct: 7
  data.u[9] = data.u[10] + a - one;   // reassociated: one IAdd of 5
}
