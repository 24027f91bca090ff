#version 450
// A workgroup tree reduction: shared memory, barriers and a loop.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Input { float values[]; } in_buffer;
layout(set = 0, binding = 1) buffer Result { float sums[]; } out_buffer;
shared float partial[256];
void main() {
  uint local = gl_LocalInvocationID.x;
  partial[local] = in_buffer.values[gl_GlobalInvocationID.x];
  barrier();
  for (uint stride = 128u; stride > 0u; stride >>= 1u) {
    if (local < stride) partial[local] += partial[local + stride];
    barrier();
  }
  if (local == 0u) out_buffer.sums[gl_WorkGroupID.x] = partial[0];
}
