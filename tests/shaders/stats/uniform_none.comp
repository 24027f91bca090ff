// stats/uniform_none.comp — the base of the 'uniform' family: a per-invocation load, scaled, stored elsewhere.
// Statistics family 'uniform': uniform_loop.comp is this shader plus an integer loop over push constants. On a
// model with scalar registers (amd-rdna2, nvidia-hopper) the loop's values are the same for the whole subgroup,
// so it adds scalar registers and scalar instructions but no vector registers (docs/statistics.md, Uniformity).
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; uint stride; uint bias; uint pad; } pc;
layout(set = 0, binding = 0, std430) buffer Data { uint data[]; };

void main() {
    uint gid = gl_GlobalInvocationID.x;
    uint x = data[gid];
    data[gid + 4096u] = x * 3u + pc.bias;
}
