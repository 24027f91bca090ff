// bitonic_sort_shared.comp — full bitonic sort of 1024 keys inside one workgroup's shared memory.
// Exercises: doubly nested loops (k doubling, j halving) with a barrier in the inner body, shared arrays,
// min/max selection instead of branches, each invocation handling two elements.
#version 450
layout(local_size_x = 512) in;

layout(set = 0, binding = 0, std430) buffer Keys { float keys[]; };

shared float s[1024];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 1024u;
    s[lid] = keys[base + lid];
    s[lid + 512u] = keys[base + lid + 512u];
    barrier();
    for (uint k = 2u; k <= 1024u; k <<= 1u) {
        for (uint j = k >> 1u; j > 0u; j >>= 1u) {
            uint i = 2u * lid - (lid & (j - 1u));
            uint p = i + j;
            float x = s[i];
            float y = s[p];
            bool up = (i & k) == 0u;
            float lo = min(x, y);
            float hi = max(x, y);
            s[i] = up ? lo : hi;
            s[p] = up ? hi : lo;
            barrier();
        }
    }
    keys[base + lid] = s[lid];
    keys[base + lid + 512u] = s[lid + 512u];
}
