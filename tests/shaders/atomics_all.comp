// atomics_all.comp — every GLSL atomic function on storage-buffer and shared memory, int and uint.
// Exercises: atomicAdd/Min/Max/And/Or/Xor/Exchange/CompSwap on uint and int, on StorageBuffer and Workgroup
// storage classes, a compare-and-swap retry loop (float max via CAS), atomic results feeding later code.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer Counters {
    uint u_add;
    uint u_min;
    uint u_max;
    uint u_and;
    uint u_or;
    uint u_xor;
    int i_add;
    int i_min;
    int i_max;
    uint exchanged;
    uint float_max_bits;
    uint slots[];
} counters;
layout(set = 0, binding = 1, std430) readonly buffer Input { float samples[]; };

shared uint s_count;
shared int s_min;

void main() {
    uint gid = gl_GlobalInvocationID.x;
    uint lid = gl_LocalInvocationID.x;
    if (lid == 0u) {
        s_count = 0u;
        s_min = 0x7fffffff;
    }
    barrier();
    float f = samples[gid];
    int fi = int(f * 100.0);
    uint mine = atomicAdd(s_count, 1u);
    atomicMin(s_min, fi);

    atomicAdd(counters.u_add, 1u);
    atomicMin(counters.u_min, gid);
    atomicMax(counters.u_max, gid);
    atomicAnd(counters.u_and, ~(1u << (gid & 31u)));
    atomicOr(counters.u_or, 1u << (gid & 31u));
    atomicXor(counters.u_xor, gid);
    atomicAdd(counters.i_add, fi);
    atomicMin(counters.i_min, fi);
    atomicMax(counters.i_max, fi);
    uint previous = atomicExchange(counters.exchanged, gid);
    counters.slots[gid] = previous + mine;

    // Float max through a CAS loop on the bit pattern (valid for non-negative floats).
    uint desired = floatBitsToUint(abs(f));
    uint seen = counters.float_max_bits;
    while (uintBitsToFloat(seen) < abs(f)) {
        uint got = atomicCompSwap(counters.float_max_bits, seen, desired);
        if (got == seen) {
            break;
        }
        seen = got;
    }
    barrier();
    if (lid == 0u) {
        atomicMin(counters.i_min, s_min);
        atomicMax(counters.u_max, s_count);
    }
}
