// image_blur.comp — horizontal 9-tap Gaussian blur of an rgba8 storage image into an rgba16f storage image.
// Exercises: storage images (imageLoad/imageStore, imageSize), format qualifiers, constant arrays indexed in a
// loop, clamp on ivec2, vec4 arithmetic, 2D workgroups, early-out bounds check.
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0, rgba8) uniform readonly image2D src_image;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dst_image;

const float weights[5] = float[](0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216);

void main() {
    ivec2 size = imageSize(src_image);
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, size))) {
        return;
    }
    vec4 acc = imageLoad(src_image, p) * weights[0];
    for (int i = 1; i < 5; ++i) {
        ivec2 l = clamp(p - ivec2(i, 0), ivec2(0), size - 1);
        ivec2 r = clamp(p + ivec2(i, 0), ivec2(0), size - 1);
        acc += (imageLoad(src_image, l) + imageLoad(src_image, r)) * weights[i];
    }
    imageStore(dst_image, p, acc);
}
