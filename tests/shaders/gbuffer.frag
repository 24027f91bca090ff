// gbuffer.frag — deferred-shading G-buffer write to four colour attachments plus depth.
// Exercises: multiple render targets (outputs at locations 0..3 with vec4/uvec4/vec2 types), octahedral normal
// encoding with sign(), packing into integer outputs, gl_FragCoord.z, gl_PrimitiveID (Geometry capability
// input in fragment), gl_SampleMaskIn read.
#version 450
layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec2 in_uv;
layout(location = 2) flat in uint in_material;
layout(location = 0) out vec4 out_albedo;
layout(location = 1) out vec2 out_normal;
layout(location = 2) out uvec4 out_ids;
layout(location = 3) out vec4 out_misc;

layout(set = 0, binding = 0) uniform sampler2D albedo;

vec2 oct_encode(vec3 n) {
    n /= abs(n.x) + abs(n.y) + abs(n.z);
    vec2 e = n.z >= 0.0 ? n.xy : (1.0 - abs(n.yx)) * sign(n.xy);
    return e * 0.5 + 0.5;
}

void main() {
    out_albedo = texture(albedo, in_uv);
    out_normal = oct_encode(normalize(in_normal));
    out_ids = uvec4(in_material, uint(gl_PrimitiveID), packUnorm2x16(in_uv), uint(gl_SampleMaskIn[0]));
    out_misc = vec4(gl_FragCoord.z, gl_FragCoord.w, 0.0, 1.0);
}
