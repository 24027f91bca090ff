// stats/array_96.comp — a 96-float private array indexed by a loop counter (family 'array').
// The same as array_48.comp with twice the elements: beyond amd-rdna2's privateArrayRegisterLimit of 64
// components, so the array lives in scratch memory (384 bytes per invocation) and adds no registers.
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; } pc;
layout(set = 0, binding = 0, std430) buffer Data { float data[]; };

const uint N = 96u;

void main() {
    uint gid = gl_GlobalInvocationID.x;
    float a[N];
    for (uint i = 0u; i < N; ++i) a[i] = data[gid * N + i];
    float s = 0.0;
    for (uint i = 0u; i < pc.count; ++i) s += a[(i * 7u + gid) % N];
    data[gid] = s;
}
