// ir_cse_dce.comp — repeated address arithmetic within a block and across a dominated block (CSE), an unused
// computation and a Function array that is only written (DCE); for the IR CSE and DCE tests.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint u[]; } data;
void main() {
  uint i = gl_GlobalInvocationID.x;
  data.u[i * 4u + 1u] = data.u[i * 4u + 2u] + data.u[i * 4u + 3u];
  uint unused = data.u[i] * 9u;  // never read: the load and the multiply go
  uint scratch[8];
  scratch[i & 7u] = i;           // dynamically indexed, never read: stays in memory until DCE
  if (data.u[0] > 5u) {
    data.u[i * 4u + 2u] = 7u;    // i * 4u + 2u again, dominated by the first computation
  }
}
