// subgroup_arithmetic.comp — every subgroup arithmetic/bitwise reduction and scan on int, uint and float.
// Exercises: subgroupMin/Max/Mul/And/Or/Xor, subgroupInclusive*/Exclusive* variants, clustered min/max,
// vector operands (ivec2/vec4), boolean reductions (subgroupAnd on bool via uint).
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 32) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { ivec4 ints[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output { ivec4 r_int[]; };
layout(set = 0, binding = 2, std430) writeonly buffer OutputF { vec4 r_float[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = ints[i];
    uvec4 u = uvec4(x);
    vec4 f = vec4(x) * 0.5;
    int a = subgroupMin(x.x) + subgroupMax(x.y);
    uint b = subgroupAnd(u.x) ^ subgroupOr(u.y) ^ subgroupXor(u.z);
    int c = subgroupMul(x.w & 3);
    ivec2 d = subgroupInclusiveMin(x.xy) + subgroupExclusiveMax(x.zw);
    uint e = subgroupInclusiveXor(u.x) + subgroupExclusiveOr(u.y) + subgroupInclusiveAnd(u.z);
    vec4 g = subgroupInclusiveMul(f) + subgroupExclusiveAdd(f) + subgroupAdd(f);
    int h = subgroupClusteredMin(x.x, 8u) - subgroupClusteredMax(x.y, 2u);
    uint k = subgroupClusteredOr(u.w, 16u);
    r_int[i] = ivec4(a, int(b) + c, d.x + d.y + h, int(e + k));
    r_float[i] = g + subgroupMin(f) - subgroupMax(f);
}
