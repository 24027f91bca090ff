// subgroup_shuffle.comp — butterfly reduction and neighbour exchange without shared memory.
// Exercises: GL_KHR_shader_subgroup_shuffle (subgroupShuffle, subgroupShuffleXor),
// GL_KHR_shader_subgroup_shuffle_relative (subgroupShuffleUp/Down), GL_KHR_shader_subgroup_clustered
// (subgroupClusteredAdd), GL_KHR_shader_subgroup_quad (subgroupQuadBroadcast, subgroupQuadSwapHorizontal/
// Vertical/Diagonal), ballot (subgroupBroadcast, subgroupInverseBallot, subgroupBallotFindLSB/MSB).
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { float values[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output { vec4 out_a[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Output2 { vec4 out_b[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint lane = gl_SubgroupInvocationID;
    float v = values[i];
    float sum = v;
    for (uint mask = 1u; mask < gl_SubgroupSize; mask <<= 1u) {
        sum += subgroupShuffleXor(sum, mask);
    }
    float reversed = subgroupShuffle(v, gl_SubgroupSize - 1u - lane);
    float left = subgroupShuffleUp(v, 1u);
    float right = subgroupShuffleDown(v, 1u);
    float cluster4 = subgroupClusteredAdd(v, 4u);
    float q0 = subgroupQuadBroadcast(v, 0u);
    float qh = subgroupQuadSwapHorizontal(v);
    float qv = subgroupQuadSwapVertical(v);
    float qd = subgroupQuadSwapDiagonal(v);
    uvec4 ballot = subgroupBallot(v > 0.5);
    bool mine = subgroupInverseBallot(ballot);
    uint lsb = subgroupBallotFindLSB(ballot);
    uint msb = subgroupBallotFindMSB(ballot);
    float first_positive = subgroupBroadcast(v, 0u);
    out_a[i] = vec4(sum, reversed, lane > 0u ? left : 0.0, lane + 1u < gl_SubgroupSize ? right : 0.0);
    out_b[i] = vec4(cluster4 + q0, qh * qv - qd, mine ? float(lsb) : float(msb), first_positive);
}
