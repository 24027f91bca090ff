// specialized_shared.comp — workgroup memory whose size comes from a specialisation constant, so a test can ask
// for more than maxComputeSharedMemorySize (1 GiB) without a huge module.
#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint kWords = 64;
shared float scratch[kWords];
layout(set = 0, binding = 0) buffer Data { float values[]; } data;
void main() {
  scratch[gl_LocalInvocationIndex % kWords] = data.values[gl_GlobalInvocationID.x];
  barrier();
  data.values[gl_GlobalInvocationID.x] = scratch[(gl_LocalInvocationIndex + 1u) % kWords];
}
