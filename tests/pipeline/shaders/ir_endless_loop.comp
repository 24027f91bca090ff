// ir_endless_loop.comp — a loop whose exit condition becomes the constant `true` only after the SSA passes: once
// dead-branch elimination removes the exit, the loop's merge block is unreachable but still named by the live
// loop header, so it must stay (as a lone OpUnreachable block).
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint u[]; } data;
void main() {
  bool forever = true;
  while (forever) {
    data.u[0] += 1u;
  }
  data.u[1] = 7u;  // after the loop: unreachable
}
