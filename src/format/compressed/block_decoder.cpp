#include "format/compressed/block_decoder.h"

#include "format/texel_codec.h"

namespace crashtest::format {
namespace {

// SRGB variants: "the R, G and B components are converted from sRGB to linear", alpha stays linear.
template <DecodeBlockFn Linear>
void WithSrgb(const std::byte* block, float texels[][4]) {
  Linear(block, texels);
  for (int t = 0; t < 16; ++t)
    for (int c = 0; c < 3; ++c) texels[t][c] = SrgbToLinear(texels[t][c]);
}

void Bc1Rgb(const std::byte* b, float t[16][4]) { DecodeBc1(b, false, t); }
void Bc1Rgba(const std::byte* b, float t[16][4]) { DecodeBc1(b, true, t); }
void Bc4Unorm(const std::byte* b, float t[16][4]) { DecodeBc4(b, false, t); }
void Bc4Snorm(const std::byte* b, float t[16][4]) { DecodeBc4(b, true, t); }
void Bc5Unorm(const std::byte* b, float t[16][4]) { DecodeBc5(b, false, t); }
void Bc5Snorm(const std::byte* b, float t[16][4]) { DecodeBc5(b, true, t); }
void Bc6hUfloat(const std::byte* b, float t[16][4]) { DecodeBc6h(b, false, t); }
void Bc6hSfloat(const std::byte* b, float t[16][4]) { DecodeBc6h(b, true, t); }
void Etc2Rgb(const std::byte* b, float t[16][4]) { DecodeEtc2Rgb(b, false, t); }
void Etc2Rgb8A1(const std::byte* b, float t[16][4]) { DecodeEtc2Rgb(b, true, t); }
void EacR11Unorm(const std::byte* b, float t[16][4]) { DecodeEacR11(b, false, t); }
void EacR11Snorm(const std::byte* b, float t[16][4]) { DecodeEacR11(b, true, t); }
void EacRg11Unorm(const std::byte* b, float t[16][4]) { DecodeEacRg11(b, false, t); }
void EacRg11Snorm(const std::byte* b, float t[16][4]) { DecodeEacRg11(b, true, t); }

template <uint32_t W, uint32_t H, bool Srgb>
void Astc(const std::byte* b, float t[][4]) {
  DecodeAstc(b, W, H, Srgb, t);
}

template <uint32_t W, uint32_t H>
BlockDecoder AstcDecoder(bool srgb) {
  return {srgb ? Astc<W, H, true> : Astc<W, H, false>, 16, W, H, true};
}

}  // namespace

BlockDecoder BlockDecoderFor(VkFormat format) {
  switch (format) {
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK: return {Bc1Rgb, 8};
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK: return {WithSrgb<Bc1Rgb>, 8};
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: return {Bc1Rgba, 8};
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: return {WithSrgb<Bc1Rgba>, 8};
    case VK_FORMAT_BC2_UNORM_BLOCK: return {DecodeBc2, 16};
    case VK_FORMAT_BC2_SRGB_BLOCK: return {WithSrgb<DecodeBc2>, 16};
    case VK_FORMAT_BC3_UNORM_BLOCK: return {DecodeBc3, 16};
    case VK_FORMAT_BC3_SRGB_BLOCK: return {WithSrgb<DecodeBc3>, 16};
    case VK_FORMAT_BC4_UNORM_BLOCK: return {Bc4Unorm, 8};
    case VK_FORMAT_BC4_SNORM_BLOCK: return {Bc4Snorm, 8};
    case VK_FORMAT_BC5_UNORM_BLOCK: return {Bc5Unorm, 16};
    case VK_FORMAT_BC5_SNORM_BLOCK: return {Bc5Snorm, 16};
    case VK_FORMAT_BC6H_UFLOAT_BLOCK: return {Bc6hUfloat, 16};
    case VK_FORMAT_BC6H_SFLOAT_BLOCK: return {Bc6hSfloat, 16};
    case VK_FORMAT_BC7_UNORM_BLOCK: return {DecodeBc7, 16};
    case VK_FORMAT_BC7_SRGB_BLOCK: return {WithSrgb<DecodeBc7>, 16};
    case VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK: return {Etc2Rgb, 8};
    case VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK: return {WithSrgb<Etc2Rgb>, 8};
    case VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK: return {Etc2Rgb8A1, 8};
    case VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK: return {WithSrgb<Etc2Rgb8A1>, 8};
    case VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK: return {DecodeEtc2Rgba, 16};
    case VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK: return {WithSrgb<DecodeEtc2Rgba>, 16};
    case VK_FORMAT_EAC_R11_UNORM_BLOCK: return {EacR11Unorm, 8};
    case VK_FORMAT_EAC_R11_SNORM_BLOCK: return {EacR11Snorm, 8};
    case VK_FORMAT_EAC_R11G11_UNORM_BLOCK: return {EacRg11Unorm, 16};
    case VK_FORMAT_EAC_R11G11_SNORM_BLOCK: return {EacRg11Snorm, 16};
    case VK_FORMAT_ASTC_4x4_UNORM_BLOCK: return AstcDecoder<4, 4>(false);
    case VK_FORMAT_ASTC_4x4_SRGB_BLOCK: return AstcDecoder<4, 4>(true);
    case VK_FORMAT_ASTC_5x4_UNORM_BLOCK: return AstcDecoder<5, 4>(false);
    case VK_FORMAT_ASTC_5x4_SRGB_BLOCK: return AstcDecoder<5, 4>(true);
    case VK_FORMAT_ASTC_5x5_UNORM_BLOCK: return AstcDecoder<5, 5>(false);
    case VK_FORMAT_ASTC_5x5_SRGB_BLOCK: return AstcDecoder<5, 5>(true);
    case VK_FORMAT_ASTC_6x5_UNORM_BLOCK: return AstcDecoder<6, 5>(false);
    case VK_FORMAT_ASTC_6x5_SRGB_BLOCK: return AstcDecoder<6, 5>(true);
    case VK_FORMAT_ASTC_6x6_UNORM_BLOCK: return AstcDecoder<6, 6>(false);
    case VK_FORMAT_ASTC_6x6_SRGB_BLOCK: return AstcDecoder<6, 6>(true);
    case VK_FORMAT_ASTC_8x5_UNORM_BLOCK: return AstcDecoder<8, 5>(false);
    case VK_FORMAT_ASTC_8x5_SRGB_BLOCK: return AstcDecoder<8, 5>(true);
    case VK_FORMAT_ASTC_8x6_UNORM_BLOCK: return AstcDecoder<8, 6>(false);
    case VK_FORMAT_ASTC_8x6_SRGB_BLOCK: return AstcDecoder<8, 6>(true);
    case VK_FORMAT_ASTC_8x8_UNORM_BLOCK: return AstcDecoder<8, 8>(false);
    case VK_FORMAT_ASTC_8x8_SRGB_BLOCK: return AstcDecoder<8, 8>(true);
    case VK_FORMAT_ASTC_10x5_UNORM_BLOCK: return AstcDecoder<10, 5>(false);
    case VK_FORMAT_ASTC_10x5_SRGB_BLOCK: return AstcDecoder<10, 5>(true);
    case VK_FORMAT_ASTC_10x6_UNORM_BLOCK: return AstcDecoder<10, 6>(false);
    case VK_FORMAT_ASTC_10x6_SRGB_BLOCK: return AstcDecoder<10, 6>(true);
    case VK_FORMAT_ASTC_10x8_UNORM_BLOCK: return AstcDecoder<10, 8>(false);
    case VK_FORMAT_ASTC_10x8_SRGB_BLOCK: return AstcDecoder<10, 8>(true);
    case VK_FORMAT_ASTC_10x10_UNORM_BLOCK: return AstcDecoder<10, 10>(false);
    case VK_FORMAT_ASTC_10x10_SRGB_BLOCK: return AstcDecoder<10, 10>(true);
    case VK_FORMAT_ASTC_12x10_UNORM_BLOCK: return AstcDecoder<12, 10>(false);
    case VK_FORMAT_ASTC_12x10_SRGB_BLOCK: return AstcDecoder<12, 10>(true);
    case VK_FORMAT_ASTC_12x12_UNORM_BLOCK: return AstcDecoder<12, 12>(false);
    case VK_FORMAT_ASTC_12x12_SRGB_BLOCK: return AstcDecoder<12, 12>(true);
    default: return {};
  }
}

}  // namespace crashtest::format
