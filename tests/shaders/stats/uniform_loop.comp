// stats/uniform_loop.comp — uniform_none.comp plus a loop over push constants (family 'uniform').
// The loop counter, its bound and the sum depend only on push constants: uniform across the subgroup, so they
// take scalar registers and the loop's arithmetic runs on the scalar unit; the vector registers are the base's.
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; uint stride; uint bias; uint pad; } pc;
layout(set = 0, binding = 0, std430) buffer Data { uint data[]; };

void main() {
    uint gid = gl_GlobalInvocationID.x;
    uint x = data[gid];
    uint sum = pc.bias;
    for (uint i = 0u; i < pc.count; ++i) sum = sum * pc.stride + (i ^ pc.pad);
    data[gid + 4096u] = x * 3u + sum;
}
