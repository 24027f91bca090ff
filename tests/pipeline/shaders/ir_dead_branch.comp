// ir_dead_branch.comp — branches decided by values that become constant only after the SSA passes: an if/else,
// a short-circuit && feeding a phi, a switch and a break that never happens; for the IR dead-branch test.
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint u[16]; } data;
shared uint scratch[64];
void main() {
  bool flag = false;
  int selector = 2;
  if (flag) {
    data.u[0] = 111u;
  } else {
    data.u[1] = 222u;
  }
  if (flag && data.u[2] > 3u) {
    scratch[gl_LocalInvocationIndex] = 333u;  // the only use of the shared array: dead
    data.u[3] = scratch[0];
  }
  switch (selector) {
    case 1: data.u[4] = 444u; break;
    case 2: data.u[5] = 555u; break;
    default: data.u[6] = 666u; break;
  }
  for (uint i = 0u; i < data.u[7]; ++i) {
    if (flag) break;
    data.u[8 + (i & 7u)] = i;
  }
}
