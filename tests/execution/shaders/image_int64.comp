// 64-bit integer texels (GL_EXT_shader_image_int64: SPIR-V Int64ImageEXT, VK_EXT_shader_image_atomic_int64):
// loads and stores of R64_UINT and R64_SINT storage images and an R64_UINT storage texel buffer with values that
// need all 64 bits (and signs), image atomics on 64-bit texels, and out-of-bounds loads and stores, which read
// zero and write nothing.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_image_int64 : require
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, r64ui) uniform u64image2D counters;
layout(set = 0, binding = 1, r64i) uniform i64image2D signed64;
layout(set = 0, binding = 2, r64ui) uniform u64imageBuffer texels;
layout(set = 0, binding = 3, r64ui) uniform u64image2D atomics;
layout(set = 0, binding = 4, r64i) uniform i64imageBuffer signedAtomics;
layout(set = 0, binding = 5, std430) writeonly buffer Results { uint64_t results[]; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(counters);
    uint i = uint(p.y * size.x + p.x);

    uint64_t v = imageLoad(counters, p).x;
    imageStore(counters, p, u64vec4(v * 3ul + uint64_t(i) + 0x100000000ul));
    int64_t s = imageLoad(signed64, p).x;
    imageStore(signed64, p, i64vec4(-s * 2l - int64_t(i)));
    uint64_t t = imageLoad(texels, int(i)).x;
    imageStore(texels, int(i), u64vec4(t ^ 0xffffffff00000001ul));

    // Atomics whose final values do not depend on the order: row 0 of `atomics`, signedAtomics[0..1].
    imageAtomicAdd(atomics, ivec2(0, 0), (uint64_t(i) << 32) | 1ul);
    imageAtomicMax(atomics, ivec2(1, 0), uint64_t(i) * 0x100000001ul);
    imageAtomicMin(atomics, ivec2(2, 0), ~uint64_t(i));
    imageAtomicOr(atomics, ivec2(3, 0), 1ul << (i % 64u));
    imageAtomicXor(atomics, ivec2(4, 0), uint64_t(i) << 33);
    imageAtomicAnd(atomics, ivec2(5, 0), ~(1ul << (i % 61u + 3u)));
    imageAtomicMin(signedAtomics, 0, -int64_t(i) * 0x10000000l);
    imageAtomicMax(signedAtomics, 1, int64_t(i) - 0x7000000000l);
    // One invocation per texel of row 1: a compare-exchange that succeeds on even texels, and its old value.
    uint64_t old = 0;
    if (p.y == 0 && p.x < 16)
        old = imageAtomicCompSwap(atomics, ivec2(p.x, 1), uint64_t(p.x) * 0x300000001ul, 0xfedcba9876543210ul + p.x);

    // Outside the image: loads give zero, stores are dropped.
    imageStore(counters, p + size, u64vec4(12345ul));
    imageStore(texels, int(i) + 4096, u64vec4(12345ul));
    results[i] = old + imageLoad(counters, p - size).x + uint64_t(imageLoad(signed64, p + size).x) +
                 imageLoad(texels, int(i) + 4096).x;
}
