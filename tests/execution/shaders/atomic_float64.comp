// 64-bit float atomics (shaderBufferFloat64AtomicAdd/MinMax, shaderSharedFloat64AtomicAdd/MinMax), checked by the
// interpreter's unit tests against a scalar reference (lavapipe has no 64-bit float atomics). Inputs are multiples
// of 1/16, so the sums are exact in any order.
#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer Totals {
    double sum;
    double low;
    double high;
    double groupSums[];
} totals;
layout(set = 0, binding = 1, std430) readonly buffer Values { float values[]; };

shared double groupSum;
shared double groupHigh;

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        groupSum = 0.0;
        groupHigh = -1e300;
    }
    barrier();
    double x = double(values[gl_GlobalInvocationID.x]);
    atomicAdd(totals.sum, x);
    atomicMin(totals.low, x);
    atomicMax(totals.high, x);
    atomicAdd(groupSum, x);
    atomicMax(groupHigh, x);
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        totals.groupSums[2u * gl_WorkGroupID.x] = groupSum;
        totals.groupSums[2u * gl_WorkGroupID.x + 1u] = groupHigh;
    }
}
