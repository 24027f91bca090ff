// reduce_subgroup.comp — two-level reduction: subgroupAdd inside each subgroup, then shared memory across them.
// Exercises: GL_KHR_shader_subgroup_basic/arithmetic (subgroupAdd, subgroupMax, subgroupElect,
// gl_SubgroupID, gl_NumSubgroups, gl_SubgroupInvocationID), shared memory, barriers, a second subgroup pass.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { float values[]; } src;
layout(set = 0, binding = 1, std430) writeonly buffer Result { vec2 sum_max[]; } dst;

shared vec2 per_subgroup[128];

void main() {
    uint gid = gl_GlobalInvocationID.x;
    float v = src.values[gid];
    float s = subgroupAdd(v);
    float m = subgroupMax(v);
    if (subgroupElect()) {
        per_subgroup[gl_SubgroupID] = vec2(s, m);
    }
    barrier();
    if (gl_SubgroupID == 0u) {
        vec2 p = gl_SubgroupInvocationID < gl_NumSubgroups ? per_subgroup[gl_SubgroupInvocationID]
                                                          : vec2(0.0, -3.402823e38);
        float total = subgroupAdd(p.x);
        float top = subgroupMax(p.y);
        if (subgroupElect()) {
            dst.sum_max[gl_WorkGroupID.x] = vec2(total, top);
        }
    }
}
