// image_atomics.comp — splats points into an r32ui accumulation image with image atomics.
// Exercises: imageAtomicAdd/imageAtomicMax/imageAtomicCompSwap (OpImageTexelPointer + OpAtomic* on Image
// storage), r32ui/r32i format qualifiers, imageSize on 2D images, float to fixed-point conversion.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Points { vec4 points[]; };   // xy position, z weight
layout(set = 0, binding = 1, r32ui) uniform coherent uimage2D accumulation;
layout(set = 0, binding = 2, r32i) uniform coherent iimage2D depth_max;
layout(set = 0, binding = 3, r32ui) uniform coherent uimage2D first_writer;

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 pt = points[i];
    ivec2 size = imageSize(accumulation);
    ivec2 pixel = ivec2(pt.xy * vec2(size));
    if (any(lessThan(pixel, ivec2(0))) || any(greaterThanEqual(pixel, size))) {
        return;
    }
    imageAtomicAdd(accumulation, pixel, uint(pt.z * 256.0));
    imageAtomicMax(depth_max, pixel, int(pt.w * 65536.0));
    imageAtomicCompSwap(first_writer, pixel, 0u, i + 1u);
}
