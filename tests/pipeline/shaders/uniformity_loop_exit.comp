// uniformity_loop_exit.comp — a loop that invocations leave at different iterations (its exit compares with a
// per-invocation value): inside the loop the counter is uniform among the invocations still running; after it,
// each invocation holds the iteration it left at (temporal divergence).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Limits { uint limits[]; } data;
layout(set = 0, binding = 1) buffer Results { uint results[]; } out_;
void main() {
  uint gid = gl_GlobalInvocationID.x;
  uint i = 0u;
  uint limit = data.limits[gid];
  while (i < limit) {
    out_.results[i] = 1u;
    i += 1u;
  }
  out_.results[gid] = i;
}
