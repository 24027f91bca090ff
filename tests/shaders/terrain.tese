// terrain.tese — displaces tessellated quad-patch vertices with a height map.
// Exercises: TessellationEvaluation execution model (quads, fractional_odd_spacing, ccw), gl_TessCoord,
// bilinear interpolation of gl_in[] positions and per-vertex inputs, patch inputs, textureLod in a
// non-fragment stage, transform to clip space.
#version 450
layout(quads, fractional_odd_spacing, ccw) in;

layout(location = 0) in vec2 in_uv[];
layout(location = 1) patch in float in_patch_lod;
layout(location = 0) out vec2 out_uv;
layout(location = 1) out float out_height;

layout(set = 0, binding = 1) uniform sampler2D height_map;
layout(set = 0, binding = 2, std140) uniform Camera { mat4 view_projection; float height_scale; } camera;

void main() {
    vec2 t = gl_TessCoord.xy;
    vec2 uv = mix(mix(in_uv[0], in_uv[1], t.x), mix(in_uv[3], in_uv[2], t.x), t.y);
    vec4 p = mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, t.x),
                 mix(gl_in[3].gl_Position, gl_in[2].gl_Position, t.x), t.y);
    float h = textureLod(height_map, uv, max(0.0, 4.0 - log2(in_patch_lod))).r;
    p.y += h * camera.height_scale;
    out_uv = uv;
    out_height = h;
    gl_Position = camera.view_projection * p;
}
