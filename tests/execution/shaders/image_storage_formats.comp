// Storage images in several formats: each invocation reads its texel, mixes it with a value from a buffer and
// writes it back (conversion to and from rgba8 unorm, r32f, rgba16f, r32ui, rgba32i), plus imageSize, a 2D-array
// image and out-of-bounds loads and stores, which read zero and write nothing.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, rgba8) uniform image2D unorm8;
layout(set = 0, binding = 1, r32f) uniform image2D single;
layout(set = 0, binding = 2, rgba16f) uniform image2D half4;
layout(set = 0, binding = 3, r32ui) uniform uimage2D counts;
layout(set = 0, binding = 4, rgba32i) uniform iimage2DArray signed4;
layout(set = 0, binding = 5, std430) readonly buffer Values { vec4 values[]; };
layout(set = 0, binding = 6, std430) writeonly buffer Outside { ivec4 outside[]; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(unorm8);
    uint i = uint(p.y * size.x + p.x);
    vec4 v = values[i];
    imageStore(unorm8, p, imageLoad(unorm8, p).wzyx * 0.5 + v * 0.5);
    imageStore(single, p, vec4(imageLoad(single, p).x * v.y - v.z));
    imageStore(half4, p, imageLoad(half4, p) + v * 3.0);
    imageStore(counts, p, uvec4(imageLoad(counts, p).x * 3u + i));
    for (int layer = 0; layer < 2; ++layer) {
        ivec3 q = ivec3(p, layer);
        imageStore(signed4, q, imageLoad(signed4, q) * ivec4(-1, 2, 3, -4) + ivec4(i, layer, -int(i), 7));
    }
    // Outside the image: loads give zero, stores are dropped (robust image access).
    imageStore(counts, p + size, uvec4(12345u));
    outside[i] = ivec4(imageLoad(counts, p - size).x, imageLoad(signed4, ivec3(p, 5)).y, imageSize(signed4).z, 0);
}
