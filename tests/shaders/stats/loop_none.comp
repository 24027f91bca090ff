// stats/loop_none.comp — the loop body of loop_8/loop_64 executed exactly once, with no loop.
// Statistics family 'loop' (loop_none/loop_8/loop_64): the same arithmetic body (fma, sin, mul/add chain),
// straight-line here and inside a constant-trip-count loop marked [[dont_unroll]] in the others. The cycle
// estimate of loop_64 must be a multiple of this one's body cost; instruction counts stay close.
#version 450
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer Data { vec4 data[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = data[i];
    float x = v.x;
    float a = v.y;
    float b = v.z;
    float acc = v.w;
    {
        x = fma(x, a, b);
        b = b * 0.5 + sin(x) * a;
        a = a + x * 0.25;
        acc += x * b - a;
    }
    data[i] = vec4(x, a, b, acc);
}
