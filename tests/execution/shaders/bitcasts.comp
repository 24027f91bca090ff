// Bit casts between values of different component sizes: 64-bit integers and doubles to and from pairs of 32-bit
// words, half-float pairs and 16-bit integer pairs to and from 32-bit words, 8-bit vectors to and from words.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer In { uvec2 words[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uvec4 results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec2 w = words[i];
    uint64_t wide = pack64(w);                        // uvec2 -> u64
    double d = uint64BitsToDouble(wide + 1ul);        // u64 -> double (same size)
    uvec2 back = unpack32(doubleBitsToUint64(d));     // u64 -> uvec2
    f16vec2 halves = unpackFloat2x16(w.x & 0x3bff3bffu);  // uint -> f16vec2 (finite halves)
    uint repacked = packFloat2x16(halves * float16_t(2.0));
    u16vec2 shorts = unpack16(w.y);                   // uint -> u16vec2
    u8vec4 bytes = unpack8(w.x ^ w.y);                // uint -> u8vec4
    uint packedBytes = pack32(bytes + u8vec4(1));     // u8vec4 -> uint
    results[i] = uvec4(back.x ^ back.y, repacked, uint(shorts.x) * 3u + uint(shorts.y), packedBytes);
}
