// stats/zero_product.comp — a loop's results kept "used" only through `peak * 0.0` (family 'zero_product').
// Statistics family 'zero_product' (zero_product/zero_product_preserve): only the SignedZeroInfNanPreserve
// execution mode varies. Without it Vulkan does not require NaN, infinities or the sign of zero to be preserved, so
// a back end folds `peak * 0.0` to 0.0 (even a `precise` one, for 32-bit floats) and `x + 0.0` to x; then the
// loop over `history`, the array itself and its stores are dead, and the statistics count neither the array's 16
// registers nor that loop. In zero_product_preserve the product must be computed, and they count.
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint steps; } pc;
layout(set = 0, binding = 0, std430) buffer Data { float data[]; };

void main() {
    uint gid = gl_GlobalInvocationID.x;
    float x = data[gid];
    float history[16];
    for (uint s = 0u; s < pc.steps; ++s) {
        x = x * 0.5 + 1.0;
        history[s & 15u] = x;
    }
    float peak = 0.0;
    for (int h = 0; h < 16; ++h) peak = max(peak, history[h]);
    float unused = peak * 0.0;
    data[gid] = x + unused;
}
