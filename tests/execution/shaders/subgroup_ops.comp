// Subgroup operations, each result written per invocation, for the interpreter's unit test: it runs this shader at
// subgroup sizes 4 to 64 and checks every value against a scalar reference.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 128) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    uint b = i * 20u;
    o[b + 0u] = subgroupAdd(x);
    o[b + 1u] = subgroupInclusiveAdd(x);
    o[b + 2u] = subgroupExclusiveAdd(x);
    o[b + 3u] = subgroupMin(x);
    o[b + 4u] = subgroupMax(x);
    o[b + 5u] = subgroupXor(x);
    o[b + 6u] = subgroupBroadcastFirst(x);
    o[b + 7u] = subgroupShuffle(x, (gl_SubgroupInvocationID * 3u) % gl_SubgroupSize);
    o[b + 8u] = subgroupShuffleXor(x, 1u);
    o[b + 9u] = subgroupBallotBitCount(subgroupBallot((x & 1u) == 1u));
    o[b + 10u] = subgroupElect() ? 1u : 0u;
    o[b + 11u] = uint(subgroupAll(x < 1000u)) | (uint(subgroupAny(x == 5u)) << 1);
    o[b + 12u] = subgroupClusteredAdd(x, 4u);
    o[b + 13u] = subgroupQuadSwapHorizontal(x);
    o[b + 14u] = subgroupShuffleDown(x, 1u);
    o[b + 15u] = gl_SubgroupInvocationID + gl_SubgroupSize * 1000u + gl_SubgroupID * 100000u;
    o[b + 16u] = subgroupBroadcast(x, 2u);
    // Divergent: only invocations with an even value take part.
    if ((x & 1u) == 0u) {
        o[b + 17u] = subgroupAdd(x);
        o[b + 18u] = subgroupExclusiveAdd(x);
        o[b + 19u] = subgroupBallotBitCount(subgroupBallot(true));
    }
}
