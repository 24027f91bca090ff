// glsl_std450.comp — a broad sweep of GLSL.std.450 extended instructions, each feeding the result.
// Exercises: trigonometry (sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, asinh, acosh, atanh),
// exponentials (pow, exp, exp2, log, log2, sqrt, inversesqrt), common (abs, sign, floor, ceil, trunc, round,
// roundEven, fract, mod, modf, min, max, clamp, mix, step, smoothstep, fma, frexp, ldexp, isnan, isinf),
// geometric (length, distance, dot, cross, normalize, faceforward, reflect, refract), integer (findLSB, findMSB,
// bitCount, bitfieldExtract, bitfieldInsert, bitfieldReverse, uaddCarry, usubBorrow, umulExtended,
// imulExtended), NMin/NMax-style min/max on vectors, radians/degrees.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { vec4 in_f[]; };
layout(set = 0, binding = 1, std430) readonly buffer InputI { ivec4 in_i[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Output { vec4 out_f[]; };
layout(set = 0, binding = 3, std430) writeonly buffer OutputI { ivec4 out_i[]; };

void main() {
    uint id = gl_GlobalInvocationID.x;
    vec4 x = in_f[id];
    ivec4 n = in_i[id];
    uvec4 u = uvec4(n);

    vec4 t = sin(x) + cos(x) + tan(x * 0.1) + asin(clamp(x, -1.0, 1.0)) + acos(clamp(x * 0.5, -1.0, 1.0));
    t += atan(x) + atan(x, vec4(1.5)) + sinh(x * 0.1) + cosh(x * 0.1) + tanh(x);
    t += asinh(x) + acosh(abs(x) + 1.0) + atanh(clamp(x, -0.9, 0.9));
    t += pow(abs(x), vec4(1.7)) + exp(-abs(x)) + exp2(x * 0.25) + log(abs(x) + 1.0) + log2(abs(x) + 2.0);
    t += sqrt(abs(x)) + inversesqrt(abs(x) + 1.0) + radians(x) + degrees(x) * 0.001;
    t += abs(x) + sign(x) + floor(x) + ceil(x) + trunc(x) + round(x) + roundEven(x) + fract(x) + mod(x, 3.0);
    vec4 whole;
    vec4 frac = modf(x, whole);
    ivec4 e;
    vec4 mant = frexp(x, e);
    t += frac + whole + ldexp(mant, e + 1);
    t = clamp(t, -100.0, 100.0) + mix(x, t, 0.3) + step(0.5, x) + smoothstep(0.0, 1.0, x) + fma(x, t, x);
    t = min(t, vec4(50.0)) + max(t, vec4(-50.0));
    vec3 a = normalize(x.xyz + 1e-3);
    vec3 b = cross(a, vec3(0.0, 1.0, 0.0));
    vec3 g = reflect(a, vec3(0.0, 1.0, 0.0)) + refract(a, vec3(0.0, 0.0, 1.0), 0.66) + faceforward(a, b, a);
    t.xyz += g * (length(b) + distance(a, b) + dot(a, b));
    t = mix(t, vec4(0.0), bvec4(isnan(t.x), isinf(t.y), false, true));
    out_f[id] = t;

    ivec4 r = findLSB(n) + findMSB(n) + bitCount(n) + bitfieldExtract(n, 3, 5);
    r = bitfieldInsert(r, n, 8, 8) ^ bitfieldReverse(n);
    uvec4 carry;
    uvec4 sum = uaddCarry(u, u.yzwx, carry);
    uvec4 borrow;
    uvec4 diff = usubBorrow(u, u.wxyz, borrow);
    uvec4 hi;
    uvec4 lo;
    umulExtended(u, u.zwxy, hi, lo);
    ivec4 shi;
    ivec4 slo;
    imulExtended(n, n.yxwz, shi, slo);
    out_i[id] = r + ivec4(sum + carry + diff + borrow + hi + lo) + shi + slo + clamp(n, -8, 8) + abs(n)
              + min(n, ivec4(3)) + max(n, ivec4(-3)) + sign(n) + ivec4(min(u, uvec4(9u)));
}
