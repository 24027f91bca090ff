// uniformity_loop_chain.comp — divergence that reaches a loop's phis only around its back edge, one link per
// iteration: `c` takes the invocation's id in the body, `b` the previous `c`, `a` the previous `b`. The analysis
// sweeps the blocks in order and sees each header phi before the body defines the value it reads along the back
// edge, so each link is found by another sweep; the counter (over a push constant) stays uniform.
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; } pc;
layout(set = 0, binding = 0) buffer Results { uint results[]; } out_;
void main() {
  uint a = 0u, b = 0u, c = 0u;
  for (uint i = 0u; i < pc.count; ++i) {
    a = b;
    b = c;
    c = gl_LocalInvocationID.x;
  }
  out_.results[gl_WorkGroupID.x] = a;
}
