// texelFetch at explicit levels, textureSize per level, textureQueryLevels, imageSize on storage images and
// texel buffers, and fetches through uniform and storage texel buffers of several formats.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform sampler2D mipped;
layout(set = 0, binding = 1) uniform samplerBuffer lut;
layout(set = 0, binding = 2) uniform usamplerBuffer codes;
layout(set = 0, binding = 3, rgba8) uniform imageBuffer pixels;
layout(set = 0, binding = 4, std430) writeonly buffer Results { vec4 results[]; };

void main() {
    int i = int(gl_GlobalInvocationID.x);
    int level = i % (textureQueryLevels(mipped) + 1);  // one past the last level: a fetch outside reads zero
    // The level's size by shifting: lavapipe 22.3 answers textureSize with a non-constant LOD with the base level's
    // size, so the queries below use constant LODs.
    ivec2 size = max(textureSize(mipped, 0) >> min(level, textureQueryLevels(mipped) - 1), ivec2(1));
    ivec2 at = ivec2(i * 7, i * 3) % max(size, ivec2(1));
    results[4 * i + 0] = texelFetch(mipped, at, level);
    results[4 * i + 1] = vec4(textureSize(mipped, 1).x, textureSize(mipped, 3).y, textureQueryLevels(mipped),
                              textureSize(lut));
    results[4 * i + 2] = texelFetch(lut, i) + vec4(texelFetch(codes, i * 2).xyzw);
    vec4 pixel = imageLoad(pixels, i);
    imageStore(pixels, i, pixel.yxwz);
    results[4 * i + 3] = vec4(pixel.xy, imageSize(pixels), texelFetch(lut, i + 100000).x);
}
