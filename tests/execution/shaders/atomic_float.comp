// Float atomics (VK_EXT_shader_atomic_float, and float2's min/max): add, min and max on 32-bit floats in a storage
// buffer, in workgroup memory and on an r32f storage image (lavapipe has no 64-bit float atomics; the interpreter's
// unit tests cover those). The inputs are multiples of 1/16, so every sum
// is exact whatever order the atomics run in.
#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer Totals {
    float sum;
    float low;
    float high;
    float unused;
    float perGroup[];
} totals;
layout(set = 0, binding = 1, std430) readonly buffer Values { float values[]; };
layout(set = 0, binding = 2, r32f) uniform image2D grid;

shared float groupSum;
shared float groupLow;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (gl_LocalInvocationIndex == 0u) {
        groupSum = 0.0;
        groupLow = 1e30;
    }
    barrier();
    float x = values[i];
    atomicAdd(totals.sum, x);
    atomicMin(totals.low, x);
    atomicMax(totals.high, x);
    atomicAdd(groupSum, x);
    atomicMin(groupLow, x);
    imageAtomicAdd(grid, ivec2(i % 8u, 0), x);
    imageAtomicMax(grid, ivec2(i % 8u, 1), x);
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        totals.perGroup[2u * gl_WorkGroupID.x] = groupSum;
        totals.perGroup[2u * gl_WorkGroupID.x + 1u] = groupLow;
    }
}
