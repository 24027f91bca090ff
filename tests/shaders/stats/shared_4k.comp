// stats/shared_4k.comp — declares exactly one workgroup array: uint[1024] (1024 x 4 bytes = 4096 bytes of shared memory).
// Statistics family 'shared' (shared_1k/4k/16k): only the declared workgroup array changes. The kernel
// reverses each block of the buffer through the array, touching every element with a dynamic index so the
// array cannot be shrunk or removed; the reported workgroup (shared) memory must equal the declared size.
#version 450
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) buffer Data { uint data[]; };

shared uint tile[1024];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 1024u;
    for (uint i = lid; i < 1024u; i += 256u) {
        tile[i] = data[base + i];
    }
    barrier();
    for (uint i = lid; i < 1024u; i += 256u) {
        data[base + i] = tile[1024u - 1u - i];
    }
}
