// Decoders of block-compressed formats for sampling, texel fetches and blits: each turns one block into its RGBA
// texels as the shader reads them ("Conversion to RGBA": float values, SRGB colour components already linear,
// missing components (0, 0, 0, 1)). One file per family (bc1_3.cpp: S3TC BC1-BC3, bc4_5.cpp: RGTC BC4/BC5, bc6h.cpp,
// bc7.cpp, etc2.cpp: ETC2 colour, eac.cpp: EAC and ETC2 alpha); the bit layouts follow the Khronos Data Format
// Specification, "S3TC Compressed Texture Image Formats", "RGTC Compressed Texture Image Formats", "BPTC Compressed
// Texture Image Formats" and "ETC2 Compressed Texture Image Formats".
// ASTC (astc.cpp, astc_ise.cpp) follows "ASTC Compressed Texture Image Formats".
// Decoding costs one block per texel read; images are read through it only when their format is compressed.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

namespace crashtest::format {

// Texel (x, y) of a block of width w is texels[y * w + x], components R, G, B, A. 4x4 blocks, except ASTC's
// footprints up to 12x12: callers hold kMaxBlockTexels texels.
using DecodeBlockFn = void (*)(const std::byte* block, float texels[][4]);
inline constexpr uint32_t kMaxBlockTexels = 144;

struct BlockDecoder {
  DecodeBlockFn decode = nullptr;
  uint32_t blockBytes = 0;  // 8 (BC1, BC4, ETC2 RGB8/RGB8A1, EAC R11) or 16
  uint32_t width = 4, height = 4;
  // An all-zero block is an error block (ASTC: a reserved block mode, decoded as magenta), so reads outside the
  // image give zeros instead of decoding one.
  bool zeroBlockIsError = false;
};

// The decoder of a block-compressed format, or an empty one (decode == nullptr) for formats without a decoder
// (uncompressed formats, ASTC HDR, PVRTC).
BlockDecoder BlockDecoderFor(VkFormat format);

// The families, for BlockDecoderFor and the unit tests. `alpha`: BC1 with punch-through alpha (RGBA) or opaque
// (RGB); `isSigned`: the SNORM variants of BC4/BC5 and BC6H_SFLOAT.
void DecodeBc1(const std::byte* block, bool alpha, float texels[16][4]);
void DecodeBc2(const std::byte* block, float texels[16][4]);
void DecodeBc3(const std::byte* block, float texels[16][4]);
void DecodeBc4(const std::byte* block, bool isSigned, float texels[16][4]);
void DecodeBc5(const std::byte* block, bool isSigned, float texels[16][4]);
void DecodeBc6h(const std::byte* block, bool isSigned, float texels[16][4]);
void DecodeBc7(const std::byte* block, float texels[16][4]);

// ETC2: `punchThrough` selects RGB8A1 (bit 33 is then the opaque bit, and there is no individual mode).
void DecodeEtc2Rgb(const std::byte* block, bool punchThrough, float texels[16][4]);
void DecodeEtc2Rgba(const std::byte* block, float texels[16][4]);
// EAC R11 and RG11, unsigned or signed (`isSigned`).
void DecodeEacR11(const std::byte* block, bool isSigned, float texels[16][4]);
void DecodeEacRg11(const std::byte* block, bool isSigned, float texels[16][4]);
// One 8-byte EAC channel block (R11's red, RG11's red and green) and the 8-byte alpha block of RGBA ETC2, as 16
// values in row order.
void DecodeEacChannel(const std::byte* block, bool isSigned, float values[16]);
void DecodeEtc2Alpha(const std::byte* block, float values[16]);

// ASTC LDR (astc.cpp): one 16-byte block of a blockWidth x blockHeight footprint; `srgb` for the SRGB formats,
// whose colour components come out linear.
void DecodeAstc(const std::byte* block, uint32_t blockWidth, uint32_t blockHeight, bool srgb, float texels[][4]);

// One 8-byte RGTC channel block (BC4's red, BC5's red and green, BC3's alpha) as 16 values.
void DecodeRgtcChannel(const std::byte* block, bool isSigned, float values[16]);

}  // namespace crashtest::format
