// tonemap_subpass.frag — ACES-style tone mapping reading the HDR colour as an input attachment.
// Exercises: subpassInput and subpassLoad (InputAttachment capability, input_attachment_index), a
// specialisation constant choosing the operator, GLSL.std.450 clamp/pow, a switch on a spec constant.
#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput hdr_colour;
layout(location = 0) out vec4 out_colour;
layout(constant_id = 0) const int OPERATOR = 1;
layout(push_constant) uniform Push { float exposure; } pc;

vec3 aces(vec3 x) {
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

void main() {
    vec3 c = subpassLoad(hdr_colour).rgb * pc.exposure;
    switch (OPERATOR) {
    case 0:
        c = c / (1.0 + c);
        break;
    case 1:
        c = aces(c);
        break;
    default:
        c = clamp(c, 0.0, 1.0);
        break;
    }
    out_colour = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}
