// The pre-1.1 subgroup extensions (VK_EXT_shader_subgroup_ballot, VK_EXT_shader_subgroup_vote: GL_ARB_shader_ballot
// and GL_ARB_shader_group_vote, SPIR-V's OpSubgroup*KHR instructions), each result written per invocation.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_shader_group_vote : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uvec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    uint64_t ballot = ballotARB((x & 1u) == 1u);
    uint lane = gl_SubGroupInvocationARB;
    uint first = readFirstInvocationARB(x);
    uint other = readInvocationARB(x, (gl_SubGroupSizeARB - 1u) ^ 1u);
    uint votes = uint(allInvocationsARB(x < 90u)) | (uint(anyInvocationARB(x == 7u)) << 1) |
                 (uint(allInvocationsEqualARB((x & 4u) != 0u)) << 2);
    uint masks = uint(gl_SubGroupEqMaskARB == (1ul << lane)) | (uint(gl_SubGroupLtMaskARB == (1ul << lane) - 1ul) << 1) |
                 (uint(bitCount(uvec2(unpackUint2x32(gl_SubGroupGeMaskARB))) == uvec2(0)) << 2);
    o[i] = uvec4(uint(ballot), uint(ballot >> 32) + gl_SubGroupSizeARB * 16u + lane, first + (other << 8), votes | (masks << 4));
    // Divergent: only odd values take part.
    if ((x & 1u) == 1u) o[i].w += readFirstInvocationARB(x) << 16 | uint(allInvocationsARB(x > 0u)) << 12;
}
