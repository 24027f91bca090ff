// stream_compaction.comp — keeps elements above a threshold, appending them through an atomic counter.
// Exercises: subgroup ballot to aggregate atomics (one atomicAdd per subgroup: subgroupBallot,
// subgroupBallotBitCount, subgroupBallotExclusiveBitCount, subgroupBroadcastFirst), storage-buffer atomics,
// structs with a counter followed by a runtime array.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { vec2 items[]; };
layout(set = 0, binding = 1, std430) buffer Output { uint count; uint pad0; vec2 kept[]; } result;
layout(push_constant) uniform Push { float threshold; uint n; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    bool keep = false;
    vec2 item = vec2(0.0);
    if (i < pc.n) {
        item = items[i];
        keep = length(item) > pc.threshold;
    }
    uvec4 mask = subgroupBallot(keep);
    uint total = subgroupBallotBitCount(mask);
    uint offset_in_subgroup = subgroupBallotExclusiveBitCount(mask);
    uint base = 0u;
    if (subgroupElect() && total > 0u) {
        base = atomicAdd(result.count, total);
    }
    base = subgroupBroadcastFirst(base);
    if (keep) {
        result.kept[base + offset_in_subgroup] = item;
    }
}
