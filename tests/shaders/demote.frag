// demote.frag — alpha-tested texture whose later derivatives stay valid because pixels are demoted.
// Exercises: GL_EXT_demote_to_helper_invocation (demote, helperInvocationEXT), derivatives after a demote,
// textureGrad with explicit gradients, storage-buffer writes skipped for helper invocations.
#version 450
#extension GL_EXT_demote_to_helper_invocation : require
layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_colour;

layout(set = 0, binding = 0) uniform sampler2D mask;
layout(set = 0, binding = 1) uniform sampler2D detail;
layout(set = 0, binding = 2, std430) buffer Stats { uint shaded; } stats;

void main() {
    float m = texture(mask, in_uv).r;
    if (m < 0.5) {
        demote;
    }
    vec2 scaled = in_uv * 8.0;
    vec4 d = textureGrad(detail, scaled, dFdx(scaled), dFdy(scaled));
    if (!helperInvocationEXT()) {
        atomicAdd(stats.shaded, 1u);
    }
    out_colour = vec4(d.rgb * m, 1.0);
}
