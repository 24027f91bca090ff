// radix_count.comp — per-workgroup digit counts for one 4-bit pass of an LSD radix sort.
// Exercises: shared-memory atomics on a small counter array, bit shifts selected by a push constant,
// subgroup ballot-based match counting (subgroupBallot, subgroupBallotBitCount) for the common digit,
// global atomicAdd into a digit-major table, nested loop over keys per invocation.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;

layout(set = 0, binding = 0, std430) readonly buffer Keys { uint keys[]; };
layout(set = 0, binding = 1, std430) buffer Counts { uint digit_counts[]; };   // [16][workgroups]
layout(push_constant) uniform Push { uint shift; uint key_count; uint keys_per_invocation; } pc;

shared uint counts[16];

void main() {
    uint lid = gl_LocalInvocationID.x;
    if (lid < 16u) {
        counts[lid] = 0u;
    }
    barrier();
    uint first = gl_GlobalInvocationID.x * pc.keys_per_invocation;
    for (uint k = 0u; k < pc.keys_per_invocation; ++k) {
        uint index = first + k;
        bool valid = index < pc.key_count;
        uint digit = valid ? (keys[index] >> pc.shift) & 15u : 16u;
        // Lanes holding digit 0 are very common in sorted data: count them with one atomic per subgroup.
        uint zeros = subgroupBallotBitCount(subgroupBallot(digit == 0u));
        if (digit == 0u) {
            if (subgroupElect()) {
                atomicAdd(counts[0], zeros);
            }
        } else if (valid) {
            atomicAdd(counts[digit], 1u);
        }
    }
    barrier();
    if (lid < 16u) {
        atomicAdd(digit_counts[lid * gl_NumWorkGroups.x + gl_WorkGroupID.x], counts[lid]);
    }
}
