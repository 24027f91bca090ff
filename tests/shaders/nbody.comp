// nbody.comp — all-pairs gravitational n-body step, positions staged through shared-memory tiles.
// Exercises: shared vec4 tiles, a tile loop containing an inner loop over the tile, barriers, inversesqrt,
// fma-heavy vector arithmetic, separate read/write buffers (ping-pong), push constants.
#version 450
layout(local_size_x = 128) in;

layout(set = 0, binding = 0, std430) readonly buffer PosIn { vec4 pos_in[]; };    // xyz, w = mass
layout(set = 0, binding = 1, std430) readonly buffer VelIn { vec4 vel_in[]; };
layout(set = 0, binding = 2, std430) writeonly buffer PosOut { vec4 pos_out[]; };
layout(set = 0, binding = 3, std430) writeonly buffer VelOut { vec4 vel_out[]; };
layout(push_constant) uniform Push { uint count; float dt; float softening; } pc;

shared vec4 tile[128];

vec3 interact(vec3 pi, vec4 pj, vec3 acc) {
    vec3 r = pj.xyz - pi;
    float d2 = dot(r, r) + pc.softening;
    float inv = inversesqrt(d2);
    float s = pj.w * inv * inv * inv;
    return fma(r, vec3(s), acc);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 me = i < pc.count ? pos_in[i] : vec4(0.0);
    vec3 acc = vec3(0.0);
    uint tiles = (pc.count + 127u) / 128u;
    for (uint t = 0u; t < tiles; ++t) {
        uint j = t * 128u + gl_LocalInvocationID.x;
        tile[gl_LocalInvocationID.x] = j < pc.count ? pos_in[j] : vec4(0.0);
        barrier();
        for (uint k = 0u; k < 128u; ++k) {
            acc = interact(me.xyz, tile[k], acc);
        }
        barrier();
    }
    if (i < pc.count) {
        vec4 v = vel_in[i];
        v.xyz += acc * pc.dt;
        vel_out[i] = v;
        pos_out[i] = vec4(me.xyz + v.xyz * pc.dt, me.w);
    }
}
