// prefix_sum.comp — work-efficient (Blelloch) exclusive scan of 512 elements per workgroup in shared memory.
// Exercises: shared arrays, up-sweep and down-sweep loops with barriers inside, integer shifts, uint
// arithmetic, a block-sums output for a multi-pass scan, writeonly/readonly qualifiers.
#version 450
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { uint data_in[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output { uint data_out[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Blocks { uint block_sums[]; };

const uint N = 512u;
shared uint temp[N];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * N;
    temp[2u * lid] = data_in[base + 2u * lid];
    temp[2u * lid + 1u] = data_in[base + 2u * lid + 1u];

    uint offset = 1u;
    for (uint d = N >> 1u; d > 0u; d >>= 1u) {
        barrier();
        if (lid < d) {
            uint ai = offset * (2u * lid + 1u) - 1u;
            uint bi = offset * (2u * lid + 2u) - 1u;
            temp[bi] += temp[ai];
        }
        offset <<= 1u;
    }
    if (lid == 0u) {
        block_sums[gl_WorkGroupID.x] = temp[N - 1u];
        temp[N - 1u] = 0u;
    }
    for (uint d = 1u; d < N; d <<= 1u) {
        offset >>= 1u;
        barrier();
        if (lid < d) {
            uint ai = offset * (2u * lid + 1u) - 1u;
            uint bi = offset * (2u * lid + 2u) - 1u;
            uint t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier();
    data_out[base + 2u * lid] = temp[2u * lid];
    data_out[base + 2u * lid + 1u] = temp[2u * lid + 1u];
}
