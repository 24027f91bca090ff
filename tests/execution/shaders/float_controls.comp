// VK_KHR_shader_float_controls: SignedZeroInfNanPreserve and RoundingModeRTE for 32-bit floats (what lavapipe
// supports too). Signed zeros, infinities and NaNs through arithmetic, and results that round, written as bits.
#version 450
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(4461, 32);  // SignedZeroInfNanPreserve
spirv_execution_mode(4462, 32);  // RoundingModeRTE
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer In { float v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint o[]; };

spirv_instruction(extensions = ["SPV_KHR_float_controls"], capabilities = [4466, 4467], id = 1)  // OpNop
void declareFloatControls();

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = v[i];
    float zero = v[0] * 0.0;          // +0 (v[0] is 1)
    float negZero = -zero;
    float inf = 1.0 / zero;
    uint b = i * 8u;
    o[b + 0u] = floatBitsToUint(negZero + zero * x);             // -0 + (+-0): sign rules
    o[b + 1u] = floatBitsToUint(x * negZero);                      // the sign of x, flipped
    o[b + 2u] = floatBitsToUint(x / inf);                          // +-0
    o[b + 3u] = floatBitsToUint(-x / zero);                        // +-inf
    o[b + 4u] = uint(isnan(inf - inf)) | uint(isnan(zero * inf)) << 1 | uint(isinf(x * inf)) << 2;
    o[b + 5u] = floatBitsToUint(x / 3.0);                          // rounded to nearest even
    o[b + 6u] = floatBitsToUint(x * 1.0000001 + 16777216.0);       // rounding at the ulp of 2^24
    o[b + 7u] = floatBitsToUint(sqrt(abs(x)) * x - x);
}
