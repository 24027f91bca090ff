// Gathers, constant texel offsets, and a separate texture and sampler combined in the shader: textureGather of each
// component, textureLodOffset and textureGatherOffset with constant offsets, texture2D + sampler.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform texture2D colours;
layout(set = 0, binding = 1) uniform sampler linearClamp;
layout(set = 0, binding = 2, std430) readonly buffer Points { vec4 points[]; };
layout(set = 0, binding = 3, std430) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Push { uint count; };

#define s sampler2D(colours, linearClamp)

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= count) {
        return;
    }
    vec2 uv = points[i].xy;
    results[6 * i + 0] = textureGather(s, uv, 0);
    results[6 * i + 1] = textureGather(s, uv, 1);
    results[6 * i + 2] = textureGather(s, uv, 3);
    results[6 * i + 3] = textureLodOffset(s, uv, points[i].z, ivec2(1, -2));
    results[6 * i + 4] = textureGatherOffset(s, uv, ivec2(-1, 1), 2);
    results[6 * i + 5] = textureGatherOffsets(s, uv, ivec2[4](ivec2(0, 0), ivec2(2, -1), ivec2(-3, 1), ivec2(1, 3)), 0);
}
