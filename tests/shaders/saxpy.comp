// saxpy.comp — y = a * x + y, the smallest realistic kernel.
// Exercises: two storage buffers, a push-constant scalar and element count, one bounds check, fma.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer X { float x[]; };
layout(set = 0, binding = 1, std430) buffer Y { float y[]; };
layout(push_constant) uniform Push { float a; uint n; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n) {
        y[i] = fma(pc.a, x[i], y[i]);
    }
}
