// conversions.comp — numeric conversions and bit casts between every common 32-bit scalar/vector type.
// Exercises: int<->uint<->float<->bool conversions (OpConvert*, OpBitcast, OpSelect for bool), vector
// conversions, floatBitsToInt/intBitsToFloat, pack/unpack (packHalf2x16, unpackHalf2x16, packUnorm4x8,
// unpackSnorm2x16, packSnorm4x8), rounding functions feeding int conversion.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { vec4 f[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output {
    ivec4 as_int[64];
    uvec4 as_uint[64];
    vec4 back[64];
    uvec4 packed[64];
} o;

void main() {
    uint i = gl_LocalInvocationID.x;
    vec4 v = f[gl_GlobalInvocationID.x];
    ivec4 iv = ivec4(v);                       // OpConvertFToS
    uvec4 uv = uvec4(abs(v));                  // OpConvertFToU
    bvec4 bv = bvec4(iv);                      // int -> bool
    vec4 from_bool = vec4(bv);                 // bool -> float (select)
    ivec4 rounded = ivec4(round(v)) + ivec4(floor(v)) - ivec4(ceil(v));
    uvec4 bits = floatBitsToUint(v);
    ivec4 sbits = floatBitsToInt(v) >> 1;
    vec4 reinterpret = uintBitsToFloat(bits & uvec4(0x7fffffffu));
    o.as_int[i] = iv + rounded + ivec4(uv) + sbits;
    o.as_uint[i] = uv + uvec4(iv) + bits;
    o.back[i] = vec4(iv) + vec4(uv) + from_bool + reinterpret + intBitsToFloat(sbits);
    uint h = packHalf2x16(v.xy);
    vec2 hv = unpackHalf2x16(h);
    uint u8 = packUnorm4x8(clamp(v, 0.0, 1.0));
    uint s8 = packSnorm4x8(clamp(v, -1.0, 1.0));
    vec2 s16 = unpackSnorm2x16(bits.z);
    o.packed[i] = uvec4(h, u8, s8, packUnorm2x16(hv + s16));
}
