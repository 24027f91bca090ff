// fp64_int64.comp — Kahan-compensated double-precision sum and a 64-bit integer hash/accumulator.
// Exercises: Float64 and Int64 capabilities (double, dvec2, int64_t, uint64_t via
// GL_EXT_shader_explicit_arithmetic_types_int64), 64-bit conversions to/from 32-bit types, 64-bit shifts and
// multiplies, double-precision GLSL.std.450 functions (fma, sqrt, abs, floor), packDouble2x32/unpackDouble2x32.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { double values[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output {
    dvec2 sum_and_error[];
} o;
layout(set = 0, binding = 2, std430) buffer Hashes { uint64_t hashes[]; };
layout(push_constant) uniform Push { uint per_invocation; } pc;

void main() {
    uint base = gl_GlobalInvocationID.x * pc.per_invocation;
    double sum = 0.0lf;
    double c = 0.0lf;
    uint64_t h = 14695981039346656037ul;
    for (uint k = 0u; k < pc.per_invocation; ++k) {
        double x = values[base + k];
        double y = x - c;
        double t = sum + y;
        c = (t - sum) - y;
        sum = t;
        uvec2 halves = unpackDouble2x32(x);
        h ^= uint64_t(halves.x) | (uint64_t(halves.y) << 32ul);
        h *= 1099511628211ul;
    }
    double root = sqrt(abs(sum));
    double fl = floor(fma(root, 2.0lf, c));
    int64_t signed_h = int64_t(h) >> 3;
    o.sum_and_error[gl_GlobalInvocationID.x] = dvec2(sum + fl * 0.0lf, c + packDouble2x32(uvec2(0u, 0u)));
    hashes[gl_GlobalInvocationID.x] = uint64_t(signed_h) + uint64_t(int(fl));
}
