// The steps are Sample's (sampler.cpp) for the cases QuadSamplable admits, in the same order and with the same
// float operations: 16.6.7 (λ with the sampler's bias and clamps), 16.6.8 (level selection), 16.7 (wrapping),
// 16.8 (nearest and linear filtering, the linear blend between levels), then the view's swizzle. What changes is
// where the work happens: once per quad instead of once per lane, and texels decoded through the codec's tables
// into four-wide float vectors.
#include "sampling/quad_sampler.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "sampling/bilinear_2d.h"
#include "sampling/texel_wrap.h"

namespace crashtest::sampling {
namespace {

// Formats of one UNORM or sRGB byte per component (sRGB textures, two-component formats...): a table lookup per
// component, inlined.
struct Byte8Decoder {
  const float* table[4];
  uint8_t slot[4];
  Float4 operator()(const std::byte* texel) const {
    auto component = [&](int k, float absent) {
      return table[k] != nullptr ? table[k][static_cast<uint8_t>(texel[slot[k]])] : absent;
    };
    return Float4{component(0, 0.0f), component(1, 0.0f), component(2, 0.0f), component(3, 1.0f)};
  }
  Float4 Finish(Float4 sum) const { return sum; }
};

// Filter(level, NEAREST) of sampler.cpp: "i = floor(u)", wrapped.
template <typename Decode>
Float4 Nearest(const LevelAccess& a, const SamplerDescriptor& sampler, const Decode& decode, float u, float v) {
  bool border = false;
  const int32_t x = Wrap(FloorToTexel(u), a.width, sampler.address[0], &border);
  const int32_t y = Wrap(FloorToTexel(v), a.height, sampler.address[1], &border);
  return decode.Finish(decode(a.base + static_cast<uint64_t>(static_cast<uint32_t>(y)) * a.rowPitch +
                              static_cast<uint64_t>(static_cast<uint32_t>(x)) * a.texelStride));
}

template <typename Decode>
void FilterLanes(const ImageDescriptor& image, const SamplerDescriptor& sampler, const Decode& decode, uint32_t level,
                 int32_t layer, VkFilter filter, uint32_t lanes, const float s[4], const float t[4], Float4 out[4]) {
  // Texel-space coordinates as Sample's Scaled: the normalised coordinate times the level's extent.
  const LevelAccess a = AccessLevel(image, level, layer);
  const auto width = static_cast<float>(image.level[level].width);
  const auto height = static_cast<float>(image.level[level].height);
  for (uint32_t i = 0; i < 4; ++i) {
    if ((lanes >> i & 1) == 0) continue;
    out[i] = filter == VK_FILTER_NEAREST ? Nearest(a, sampler, decode, s[i] * width, t[i] * height)
                                         : Bilinear2D(a, sampler.address, decode, s[i] * width, t[i] * height);
  }
}

template <typename Decode>
void SampleLevels(const ImageDescriptor& image, const SamplerDescriptor& sampler, const Decode& decode,
                  float lambdaBase, int32_t layer, uint32_t lanes, const float s[4], const float t[4],
                  Float4 result[4]) {
  // 16.6.7: λ' = λ_base + clamp(sampler bias, ±maxSamplerLodBias) (no Bias operand here), λ = clamp(λ', minLod,
  // maxLod).
  float lambda = lambdaBase + std::clamp(sampler.mipLodBias + 0.0f, -sampler.maxLodBias, sampler.maxLodBias);
  const float lowest = std::max(sampler.minLod, 0.0f);
  if (std::isnan(lambda)) lambda = lowest;
  lambda = std::min(std::max(lambda, lowest), sampler.maxLod);
  const VkFilter filter = lambda <= 0.0f ? sampler.magFilter : sampler.minFilter;
  const uint32_t q = image.levels - 1;
  if (q == 0) {
    FilterLanes(image, sampler, decode, 0, layer, filter, lanes, s, t, result);
    return;
  }
  // 16.6.8: d' = clamp(λ, 0, q) relative to the view's base level (and the view's minimum LOD).
  const float dPrime = std::clamp(std::max(lambda, image.minLod), 0.0f, static_cast<float>(q));
  if (sampler.mipmapMode == VK_SAMPLER_MIPMAP_MODE_NEAREST) {
    const uint32_t d = dPrime <= 0.5f ? 0u : static_cast<uint32_t>(std::ceil(dPrime + 0.5f)) - 1u;
    FilterLanes(image, sampler, decode, std::min(d, q), layer, filter, lanes, s, t, result);
    return;
  }
  const auto high = static_cast<uint32_t>(std::floor(dPrime));
  const uint32_t low = std::min(high + 1, q);
  const float delta = dPrime - static_cast<float>(high);
  FilterLanes(image, sampler, decode, high, layer, filter, lanes, s, t, result);
  if (delta > 0.0f) {
    Float4 second[4];
    FilterLanes(image, sampler, decode, low, layer, filter, lanes, s, t, second);
    for (uint32_t i = 0; i < 4; ++i)
      if ((lanes >> i & 1) != 0) result[i] = result[i] * (1.0f - delta) + second[i] * delta;
  }
}

}  // namespace

bool QuadSamplable(const ImageDescriptor& image, const SamplerDescriptor& sampler) {
  return image.bound && sampler.bound && !image.texelBuffer && image.aspect == Aspect::kColor &&
         image.decodeBlock == nullptr && image.codec.valid() && image.kind == format::ValueKind::kFloat &&
         !image.cube && image.levels > 0 && image.samples == 1 && !sampler.unnormalized &&
         sampler.reduction == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE &&
         sampler.address[0] != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER &&
         sampler.address[1] != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
}

void SampleQuad(const ImageDescriptor& image, const SamplerDescriptor& sampler, float lambdaBase, int32_t layer,
                uint32_t lanes, const float s[4], const float t[4], float out[4][4]) {
  Float4 result[4] = {};
  // A layer outside the view reads zero texels (Sample's validation), swizzled like any other.
  if (layer >= 0 && static_cast<uint32_t>(layer) < image.layers) {
#if defined(CRASHTEST_HAVE_UNORM4X8)
    if (image.codec.unorm4x8() != format::Unorm4x8::kNone) {
      SampleLevels(image, sampler, Unorm4x8CodeDecoder{image.codec.unorm4x8()}, lambdaBase, layer, lanes, s, t,
                   result);
    } else
#endif
    if (image.codec.bytes8()) {
      Byte8Decoder decode{};
      for (uint32_t k = 0; k < 4; ++k) {
        decode.table[k] = image.codec.byte8Table(k);
        decode.slot[k] = image.codec.byte8Slot(k);
      }
      SampleLevels(image, sampler, decode, lambdaBase, layer, lanes, s, t, result);
    } else {
      SampleLevels(image, sampler, CodecDecoder{&image.codec}, lambdaBase, layer, lanes, s, t, result);
    }
  }
  for (uint32_t i = 0; i < 4; ++i) {
    if ((lanes >> i & 1) == 0) continue;
    for (uint32_t c = 0; c < 4; ++c) {
      const uint8_t pick = image.swizzle[c];
      out[c][i] = pick < 4 ? result[i][pick] : pick == kSwizzleOne ? 1.0f : 0.0f;
    }
  }
}

}  // namespace crashtest::sampling
