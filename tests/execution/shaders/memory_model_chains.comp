#version 450
// Availability and visibility chains of more than one element (vulkanMemoryModelAvailabilityVisibilityChains,
// tests/execution/differential_test.cpp): each invocation's store is made available at workgroup scope by the
// store itself (workgroupcoherent: MakePointerAvailable, Workgroup), then at queue-family scope by the barrier's
// MakeAvailable (the chain's second element); on the reading side the barrier's MakeVisible at queue-family scope
// and the load's own MakePointerVisible at workgroup scope (coherent reads through a workgroupcoherent view) form
// the visibility chain. Each invocation then reads another invocation's value.
#extension GL_KHR_memory_scope_semantics : require
#pragma use_vulkan_memory_model
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) workgroupcoherent buffer Data { uint v[]; } data;
layout(set = 0, binding = 1) buffer Out { uint v[]; } outp;

void main() {
  const uint i = gl_LocalInvocationID.x;
  const uint base = gl_WorkGroupID.x * 64u;
  data.v[base + i] = data.v[base + i] * 7u + gl_WorkGroupID.x;
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeQueueFamily, gl_StorageSemanticsBuffer,
                 gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
  const uint j = (i * 5u + 3u) & 63u;
  outp.v[base + i] = data.v[base + j] + atomicLoad(data.v[base + (63u - i)], gl_ScopeWorkgroup,
                                                   gl_StorageSemanticsBuffer, gl_SemanticsAcquire |
                                                   gl_SemanticsMakeVisible);
}
