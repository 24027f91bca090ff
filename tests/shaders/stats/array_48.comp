// stats/array_48.comp — a 48-float private array indexed by a loop counter (family 'array').
// Statistics family 'array': the index is not a constant, so the IR keeps the array in memory. A back end keeps
// an array this small in vector registers (amd-rdna2's privateArrayRegisterLimit is 64 components): no scratch,
// about 48 more registers; a model whose limit is below 48 puts it in scratch (192 bytes per invocation).
// array_96.comp is the same with 96 floats, beyond the AMD model's limit.
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; } pc;
layout(set = 0, binding = 0, std430) buffer Data { float data[]; };

const uint N = 48u;

void main() {
    uint gid = gl_GlobalInvocationID.x;
    float a[N];
    for (uint i = 0u; i < N; ++i) a[i] = data[gid * N + i];
    float s = 0.0;
    for (uint i = 0u; i < pc.count; ++i) s += a[(i * 7u + gid) % N];
    data[gid] = s;
}
