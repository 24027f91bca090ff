// ir_readonly_loads.comp — repeated loads of push constants, a uniform block and a built-in input (read-only while
// the shader runs: CSE merges them) next to repeated loads of a storage buffer the shader writes (kept). Compiled
// for Vulkan 1.1 so the storage buffer is in the StorageBuffer class, not a Uniform BufferBlock.
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint scale; } pc;
layout(set = 0, binding = 0) buffer Data { uint u[]; } data;
layout(set = 0, binding = 1) uniform Params { uint offset; } params;
void main() {
  uint i = gl_GlobalInvocationID.x;
  data.u[i] = data.u[i] * pc.scale + pc.scale + params.offset * params.offset;
  data.u[i + 64u] = data.u[i] + gl_GlobalInvocationID.x;
}
