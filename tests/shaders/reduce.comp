// reduce.comp — workgroup sum reduction (one partial sum per workgroup).
// Exercises: storage buffers (runtime arrays), workgroup/shared memory, barrier(), a tree-reduction loop with a
// halving induction variable, bounds check with if, gl_LocalInvocationID/gl_WorkGroupID/gl_NumWorkGroups.
#version 450
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { float values[]; } src;
layout(set = 0, binding = 1, std430) writeonly buffer Output { float partial[]; } dst;
layout(push_constant) uniform Push { uint count; } pc;

shared float scratch[256];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint gid = gl_GlobalInvocationID.x;
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    float sum = 0.0;
    // Grid-stride accumulation so any element count fits any dispatch size.
    for (uint i = gid; i < pc.count; i += stride) {
        sum += src.values[i];
    }
    scratch[lid] = sum;
    barrier();
    for (uint offset = gl_WorkGroupSize.x / 2u; offset > 0u; offset >>= 1u) {
        if (lid < offset) {
            scratch[lid] += scratch[lid + offset];
        }
        barrier();
    }
    if (lid == 0u) {
        dst.partial[gl_WorkGroupID.x] = scratch[0];
    }
}
