// texture_ops.frag — every common sampling form against several image dimensionalities.
// Exercises: separate texture2D + sampler combined in the shader, sampler2DArray, samplerCube,
// sampler2DShadow (depth compare), sampler3D, textureLod, textureOffset, textureProj, textureGather,
// textureGatherOffset, texelFetch, textureSize, textureQueryLod, textureQueryLevels, texture arrays of
// descriptors indexed with a constant.
#version 450
layout(location = 0) in vec3 in_uvw;
layout(location = 1) in vec4 in_shadow_coord;
layout(location = 0) out vec4 out_colour;

layout(set = 0, binding = 0) uniform texture2D base_texture;
layout(set = 0, binding = 1) uniform sampler linear_sampler;
layout(set = 0, binding = 2) uniform sampler2DArray layers;
layout(set = 0, binding = 3) uniform samplerCube environment;
layout(set = 0, binding = 4) uniform sampler2DShadow shadow_map;
layout(set = 0, binding = 5) uniform sampler3D volume;
layout(set = 0, binding = 6) uniform sampler2D materials[4];

void main() {
    vec2 uv = in_uvw.xy;
    vec4 base = texture(sampler2D(base_texture, linear_sampler), uv);
    vec4 lod = textureLod(layers, vec3(uv, 2.0), 1.0);
    vec4 off = textureOffset(sampler2D(base_texture, linear_sampler), uv, ivec2(1, -1));
    vec4 proj = textureProj(materials[0], vec3(uv, 2.0));
    vec4 env = texture(environment, normalize(in_uvw));
    float shadow = texture(shadow_map, in_shadow_coord.xyz);
    vec4 vol = texture(volume, in_uvw);
    vec4 gathered = textureGather(materials[1], uv, 1);
    vec4 gathered_off = textureGatherOffset(materials[2], uv, ivec2(-1, 0));
    ivec2 size = textureSize(materials[3], 0);
    vec4 fetched = texelFetch(materials[3], ivec2(uv * vec2(size)), 0);
    vec2 q = textureQueryLod(layers, uv);
    int levels = textureQueryLevels(environment);
    out_colour = (base + lod + off + proj + env * shadow + vol + gathered + gathered_off + fetched)
               * (1.0 + q.x * 0.01 + float(levels) * 0.001);
}
