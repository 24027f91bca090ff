// VK_KHR_shader_float_controls: a module declaring SignedZeroInfNanPreserve and RoundingModeRTE for 32-bit floats
// (what lavapipe supports too), whose results round to nearest even, bit for bit. Signed zeros, infinities and
// NaNs are not compared: Mesa 22.3's lavapipe folds x * 0.0 to +0.0 and gets -x / 0.0 and inf - inf wrong despite
// the execution mode (crashtest gives the IEEE results; docs/execution.md).
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
    float y = v[(i * 7u + 3u) % 1024u];
    uint b = i * 8u;
    o[b + 0u] = floatBitsToUint(x * y * x);
    o[b + 1u] = floatBitsToUint((x + 0.1) * (y - 0.1));
    o[b + 2u] = floatBitsToUint(x / 7.0);
    o[b + 3u] = floatBitsToUint(x + y * 1e-7);                    // rounding far below x's ulp
    o[b + 4u] = floatBitsToUint(x - y);
    o[b + 5u] = floatBitsToUint(x / 3.0);                          // rounded to nearest even
    o[b + 6u] = floatBitsToUint(x * 1.0000001 + 16777216.0);       // rounding at the ulp of 2^24
    o[b + 7u] = floatBitsToUint(x * x - y * y);
}
