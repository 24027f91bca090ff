// uniformity_loop_chain.frag — divergence that reaches a loop's phis only around its back edge, one link per
// iteration: `c` takes the invocation's own input in the body, `b` the previous `c`, `a` the previous `b`. The
// analysis sweeps the blocks in order and sees each header phi before the body defines the value it reads along
// the back edge, so each link is found by another sweep; the counter (over a push constant) stays uniform.
// A fragment shader, so that the RADV calibration's hold-out (every compute shader of the other suites) does not
// take it as a sample.
#version 450
layout(push_constant) uniform Push { uint count; } pc;
layout(location = 0) flat in uint id;  // per invocation, flat or not: a wave mixes primitives
layout(location = 0) out uint result;
void main() {
  uint a = 0u, b = 0u, c = 0u;
  for (uint i = 0u; i < pc.count; ++i) {
    a = b;
    b = c;
    c = id;
  }
  result = a;
}
