// texel_buffers.comp — LUT lookup through a uniform texel buffer, results into a storage texel buffer.
// Exercises: samplerBuffer (uniform texel buffer, texelFetch), imageBuffer (storage texel buffer,
// imageLoad/imageStore with rgba32f), textureSize/imageSize on buffers, linear interpolation by hand.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform samplerBuffer lut;
layout(set = 0, binding = 1, rgba32f) uniform imageBuffer values;

void main() {
    int i = int(gl_GlobalInvocationID.x);
    if (i >= imageSize(values)) {
        return;
    }
    vec4 v = imageLoad(values, i);
    float entries = float(textureSize(lut) - 1);
    vec4 pos = clamp(v, 0.0, 1.0) * entries;
    vec4 result;
    for (int c = 0; c < 4; ++c) {
        int lo = int(floor(pos[c]));
        int hi = min(lo + 1, textureSize(lut) - 1);
        float t = fract(pos[c]);
        result[c] = mix(texelFetch(lut, lo)[c], texelFetch(lut, hi)[c], t);
    }
    imageStore(values, i, result);
}
