// Decoders of block-compressed formats for sampling, texel fetches and blits: each turns one 4x4 block into 16
// RGBA texels as the shader reads them ("Conversion to RGBA": float values, SRGB colour components already
// linear, missing components (0, 0, 0, 1)). One file per family (bc1_3.cpp: S3TC BC1-BC3, bc4_5.cpp: RGTC BC4/BC5,
// bc6h.cpp, bc7.cpp); the bit layouts follow the Khronos Data Format Specification, "S3TC Compressed Texture Image
// Formats", "RGTC Compressed Texture Image Formats" and "BPTC Compressed Texture Image Formats".
// Decoding costs one block per texel read; images are read through it only when their format is compressed.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

namespace crashtest::format {

// Texel (x, y) of the block is texels[y * 4 + x], components R, G, B, A.
using DecodeBlockFn = void (*)(const std::byte* block, float texels[16][4]);

struct BlockDecoder {
  DecodeBlockFn decode = nullptr;
  uint32_t blockBytes = 0;  // 8 (BC1, BC4) or 16
};

// The decoder of a block-compressed format, or an empty one (decode == nullptr) for formats without a decoder
// (uncompressed formats, ETC2, EAC, ASTC, PVRTC).
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

// One 8-byte RGTC channel block (BC4's red, BC5's red and green, BC3's alpha) as 16 values.
void DecodeRgtcChannel(const std::byte* block, bool isSigned, float values[16]);

}  // namespace crashtest::format
