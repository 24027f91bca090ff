// stats/identical_a.comp and stats/identical_b.comp are byte-for-byte identical files (a gather/scale
// kernel), so their SPIR-V is identical and every statistic, hash and representation must be identical too.
// Statistics family 'identical'. Keep the two files identical: the shader-corpus test checks it.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Index { uint index[]; };
layout(set = 0, binding = 1, std430) readonly buffer Source { vec4 source[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Dest { vec4 dest[]; };
layout(push_constant) uniform Push { vec4 scale; uint count; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) {
        return;
    }
    vec4 v = source[index[i] % pc.count];
    dest[i] = v * pc.scale + vec4(length(v.xyz));
}
