// prefix_sum_subgroup.comp — inclusive scan of a workgroup using subgroup scans plus a shared-memory carry.
// Exercises: GL_KHR_shader_subgroup_arithmetic (subgroupInclusiveAdd, subgroupExclusiveAdd),
// GL_KHR_shader_subgroup_ballot (subgroupBroadcast, subgroupBallot, subgroupBallotBitCount), shared memory,
// gl_SubgroupSize, barriers.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;

layout(set = 0, binding = 0, std430) buffer Data { uint values[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Counts { uint nonzero_per_group[]; };

shared uint subgroup_totals[128];

void main() {
    uint gid = gl_GlobalInvocationID.x;
    uint v = values[gid];
    uint inclusive = subgroupInclusiveAdd(v);
    uint exclusive = subgroupExclusiveAdd(v);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) {
        subgroup_totals[gl_SubgroupID] = inclusive;
    }
    uvec4 nz = subgroupBallot(v != 0u);
    uint nonzero = subgroupBallotBitCount(nz);
    barrier();
    if (gl_SubgroupID == 0u) {
        uint t = gl_SubgroupInvocationID < gl_NumSubgroups ? subgroup_totals[gl_SubgroupInvocationID] : 0u;
        subgroup_totals[gl_SubgroupInvocationID] = subgroupExclusiveAdd(t);
    }
    barrier();
    uint carry = subgroup_totals[gl_SubgroupID];
    values[gid] = inclusive + carry;
    // The exclusive value must equal inclusive - v; keep it observable.
    if (exclusive + v != inclusive) {
        values[gid] = 0xffffffffu;
    }
    if (subgroupBroadcast(gl_SubgroupInvocationID, 0u) == gl_SubgroupInvocationID) {
        atomicAdd(nonzero_per_group[gl_WorkGroupID.x], nonzero);
    }
}
