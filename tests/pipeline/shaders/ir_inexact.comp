// ir_inexact.comp — products with zero and sums with zero, plain, precise (NoContraction) and 64-bit: what
// FoldOptions::inexactFloatIdentities folds (the back end's view of the statistics) and what it keeps. Precise
// results go to buffers of their own: glslang makes every store into a buffer that feeds a precise value precise.
#version 450
#extension GL_ARB_gpu_shader_fp64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer FloatsIn { float fin[]; };
layout(set = 0, binding = 1, std430) readonly buffer DoublesIn { double din[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Floats { float f[]; };
layout(set = 0, binding = 3, std430) writeonly buffer PreciseFloats { float pf[]; };
layout(set = 0, binding = 4, std430) writeonly buffer Doubles { double d[]; };
layout(set = 0, binding = 5, std430) writeonly buffer PreciseDoubles { double pd[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = fin[i];
    f[2u * i] = x * 0.0;              // folded: ~fmul a 0.0
    f[2u * i + 1u] = x + 0.0;         // folded: ~fadd a 0.0
    precise float p = x * -0.0;       // folded: a 32-bit fmul by zero even when exact
    pf[i] = p;
    precise double q = din[i] * 0.0lf;  // kept: exact, 64-bit
    pd[i] = q;
    d[i] = din[i + 1u] * 0.0lf;       // folded: ~fmul a 0.0
}
