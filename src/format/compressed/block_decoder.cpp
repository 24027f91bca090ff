#include "format/compressed/block_decoder.h"

#include "format/texel_codec.h"

namespace crashtest::format {
namespace {

// SRGB variants: "the R, G and B components are converted from sRGB to linear", alpha stays linear.
template <DecodeBlockFn Linear>
void WithSrgb(const std::byte* block, float texels[16][4]) {
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
    default: return {};
  }
}

}  // namespace crashtest::format
