// image_blur_sampled.comp — 3x3 box filter reading through a combined image sampler in a compute shader.
// Exercises: sampler2D with textureLod (explicit LOD, since compute has no implicit derivatives),
// texelFetch, textureSize, nested constant-trip loops, normalised coordinates, imageStore to rgba32f.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform sampler2D src_tex;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst_image;

void main() {
    ivec2 size = textureSize(src_tex, 0);
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y) {
        return;
    }
    vec2 inv = 1.0 / vec2(size);
    vec4 acc = vec4(0.0);
    for (int y = -1; y <= 1; ++y) {
        for (int x = -1; x <= 1; ++x) {
            vec2 uv = (vec2(p + ivec2(x, y)) + 0.5) * inv;
            acc += textureLod(src_tex, uv, 0.0);
        }
    }
    vec4 centre = texelFetch(src_tex, p, 0);
    imageStore(dst_image, p, mix(acc / 9.0, centre, 0.25));
}
