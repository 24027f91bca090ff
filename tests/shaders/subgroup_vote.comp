// subgroup_vote.comp — uniformity tests that choose between a fast and a slow path.
// Exercises: GL_KHR_shader_subgroup_basic (subgroupElect, subgroupBarrier, subgroupMemoryBarrier*,
// gl_SubgroupEqMask), GL_KHR_shader_subgroup_vote (subgroupAll, subgroupAny, subgroupAllEqual), branches on
// subgroup-uniform conditions.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer Data { int values[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Flags { uvec4 flags[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    int v = values[i];
    bool all_positive = subgroupAll(v > 0);
    bool any_negative = subgroupAny(v < 0);
    bool uniform_value = subgroupAllEqual(v);
    int result;
    if (uniform_value) {
        result = v * 2;                      // one value for the whole subgroup
    } else if (all_positive) {
        result = v + 1;
    } else {
        result = any_negative ? abs(v) : v;
    }
    subgroupMemoryBarrierBuffer();
    subgroupBarrier();
    values[i] = result;
    if (subgroupElect()) {
        flags[i / gl_SubgroupSize] = uvec4(all_positive, any_negative, uniform_value, gl_SubgroupEqMask.x != 0u);
    }
}
