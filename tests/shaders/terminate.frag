// terminate.frag — early-out with terminateInvocation for pixels outside a signed-distance shape.
// Exercises: GL_EXT_terminate_invocation (OpTerminateInvocation), a distance function in a helper,
// gl_FrontFacing, gl_FragDepth output.
#version 450
#extension GL_EXT_terminate_invocation : require
layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_colour;

layout(push_constant) uniform Push { vec4 colour; float radius; float softness; } pc;

float rounded_box(vec2 p, vec2 half_size, float r) {
    vec2 q = abs(p) - half_size + r;
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

void main() {
    float d = rounded_box(in_uv * 2.0 - 1.0, vec2(0.8), pc.radius);
    if (d > pc.softness) {
        terminateInvocation;
    }
    float alpha = 1.0 - smoothstep(-pc.softness, pc.softness, d);
    out_colour = vec4(gl_FrontFacing ? pc.colour.rgb : pc.colour.bgr, pc.colour.a * alpha);
    gl_FragDepth = clamp(0.5 + d, 0.0, 1.0);
}
