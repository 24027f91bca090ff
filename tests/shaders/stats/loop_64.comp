// stats/loop_64.comp — the loop_none body inside a loop with a constant trip count of 64.
// Statistics family 'loop' (loop_none/loop_8/loop_64): identical body; [[dont_unroll]] keeps the loop a loop
// so the trip count (64) is visible to the loop analysis and multiplies the cycle estimate.
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
    [[dont_unroll]] for (int it = 0; it < 64; ++it) {
        x = fma(x, a, b);
        b = b * 0.5 + sin(x) * a;
        a = a + x * 0.25;
        acc += x * b - a;
    }
    data[i] = vec4(x, a, b, acc);
}
