// alpha_test.frag — cut-out foliage: discard below an alpha threshold, with a dithered fade.
// Exercises: discard (OpKill), gl_FragCoord, bit manipulation for an ordered-dither matrix, texture() with a
// bias, flat inputs, early-fragment-tests layout.
#version 450
layout(early_fragment_tests) in;
layout(location = 0) in vec2 in_uv;
layout(location = 1) flat in uint in_fade;   // 0..16
layout(location = 0) out vec4 out_colour;

layout(set = 0, binding = 0) uniform sampler2D leaves;
layout(push_constant) uniform Push { float cutoff; } pc;

const uint bayer[16] = uint[](0u, 8u, 2u, 10u, 12u, 4u, 14u, 6u, 3u, 11u, 1u, 9u, 15u, 7u, 13u, 5u);

void main() {
    vec4 c = texture(leaves, in_uv, -0.5);
    if (c.a < pc.cutoff) {
        discard;
    }
    uvec2 p = uvec2(gl_FragCoord.xy) & 3u;
    if (bayer[p.y * 4u + p.x] >= in_fade) {
        discard;
    }
    out_colour = c;
}
