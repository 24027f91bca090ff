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
#include <type_traits>

#include "sampling/bilinear_2d.h"
#include "sampling/quad_trilinear_unorm8.h"
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

// Bilinear2D (bilinear_2d.h) for the four lanes of a full quad at once: the floors, weights and wrapped texel
// coordinates computed four-wide, with the same float operations in the same order, so the bits are Bilinear2D's.
// False (nothing written) when a coordinate is NaN or beyond 2^24 texels, or an axis wraps other than REPEAT on a
// power-of-two extent or CLAMP_TO_EDGE: the caller then takes Bilinear2D lane by lane.
using Int4 = int32_t __attribute__((vector_size(16)));

inline bool WrapFour(Int4 i, int32_t size, VkSamplerAddressMode mode, Int4* first, Int4* second) {
  if (mode == VK_SAMPLER_ADDRESS_MODE_REPEAT && (size & (size - 1)) == 0) {
    *first = i & (size - 1);
    *second = (i + 1) & (size - 1);
    return true;
  }
  if (mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE) {
    auto clamp = [&](Int4 v) {
      v = v < 0 ? Int4{0, 0, 0, 0} : v;
      return v > size - 1 ? Int4{size - 1, size - 1, size - 1, size - 1} : v;
    };
    *first = clamp(i);
    *second = clamp(i + 1);
    return true;
  }
  return false;
}

template <typename Decode>
bool BilinearFour(const LevelAccess& a, const SamplerDescriptor& sampler, const Decode& decode, Float4 u, Float4 v,
                  Float4 out[4]) {
  const Float4 sx = u - 0.5f, sy = v - 0.5f;
  const float limit = 16777216.0f;
  const Int4 inRange = (sx < limit) & (sx > -limit) & (sy < limit) & (sy > -limit);  // false for NaN
  if ((inRange[0] & inRange[1] & inRange[2] & inRange[3]) == 0) return false;
  // FastFloor: truncate, then one less where truncation rounded up (exact below 2^24).
  Int4 ix = __builtin_convertvector(sx, Int4), iy = __builtin_convertvector(sy, Int4);
  ix += __builtin_convertvector(ix, Float4) > sx;  // comparisons give -1 where true
  iy += __builtin_convertvector(iy, Float4) > sy;
  const Float4 ax = sx - __builtin_convertvector(ix, Float4), ay = sy - __builtin_convertvector(iy, Float4);
  Int4 x0, x1, y0, y1;
  if (!WrapFour(ix, a.width, sampler.address[0], &x0, &x1) || !WrapFour(iy, a.height, sampler.address[1], &y0, &y1))
    return false;
#if defined(CRASHTEST_HAVE_UNORM4X8)
  if constexpr (std::is_same_v<Decode, Unorm4x8CodeDecoder>) {
    // SubTexelWeight four-wide (cvttps truncates as static_cast does).
    const Int4 wx = __builtin_convertvector(ax * 256.0f + 0.5f, Int4), wy = __builtin_convertvector(ay * 256.0f + 0.5f, Int4);
    for (int l = 0; l < 4; ++l) {
      const std::byte* row0 = a.base + static_cast<uint64_t>(static_cast<uint32_t>(y0[l])) * a.rowPitch;
      const std::byte* row1 = a.base + static_cast<uint64_t>(static_cast<uint32_t>(y1[l])) * a.rowPitch;
      const uint64_t left = static_cast<uint64_t>(static_cast<uint32_t>(x0[l])) * a.texelStride;
      const uint64_t right = static_cast<uint64_t>(static_cast<uint32_t>(x1[l])) * a.texelStride;
      out[l] = BilinearUnorm8(row0 + left, row0 + right, row1 + left, row1 + right, wx[l], wy[l], decode.order);
    }
    return true;
  }
#endif
  const Float4 wy0 = 1.0f - ay, wx0 = 1.0f - ax;
  const Float4 w00 = wx0 * wy0, w10 = ax * wy0, w01 = wx0 * ay, w11 = ax * ay;
  for (int l = 0; l < 4; ++l) {
    const std::byte* row0 = a.base + static_cast<uint64_t>(static_cast<uint32_t>(y0[l])) * a.rowPitch;
    const std::byte* row1 = a.base + static_cast<uint64_t>(static_cast<uint32_t>(y1[l])) * a.rowPitch;
    const uint64_t left = static_cast<uint64_t>(static_cast<uint32_t>(x0[l])) * a.texelStride;
    const uint64_t right = static_cast<uint64_t>(static_cast<uint32_t>(x1[l])) * a.texelStride;
    Float4 sum{0, 0, 0, 0};
    sum += w00[l] * decode(row0 + left);
    sum += w10[l] * decode(row0 + right);
    sum += w01[l] * decode(row1 + left);
    sum += w11[l] * decode(row1 + right);
    out[l] = decode.Finish(sum);
  }
  return true;
}

template <typename Decode>
void FilterLanes(const ImageDescriptor& image, const SamplerDescriptor& sampler, const Decode& decode, uint32_t level,
                 int32_t layer, VkFilter filter, uint32_t lanes, const float s[4], const float t[4], Float4 out[4]) {
  // Texel-space coordinates as Sample's Scaled: the normalised coordinate times the level's extent.
  const LevelAccess a = AccessLevel(image, level, layer);
  const auto width = static_cast<float>(image.level[level].width);
  const auto height = static_cast<float>(image.level[level].height);
  if (filter == VK_FILTER_LINEAR && lanes == 0xf &&
      BilinearFour(a, sampler, decode, Float4{s[0], s[1], s[2], s[3]} * width, Float4{t[0], t[1], t[2], t[3]} * height,
                   out))
    return;
  for (uint32_t i = 0; i < 4; ++i) {
    if ((lanes >> i & 1) == 0) continue;
    out[i] = filter == VK_FILTER_NEAREST ? Nearest(a, sampler, decode, s[i] * width, t[i] * height)
                                         : Bilinear2D(a, sampler.address, decode, s[i] * width, t[i] * height);
  }
}

// 16.6.7 and 16.6.8 for the quad: the filter, the level (high) and, for a linear blend between levels, the second
// level and its weight.
struct LevelChoice {
  VkFilter filter;
  uint32_t high, low;
  float delta;
  bool blend;
};

LevelChoice ChooseLevels(const ImageDescriptor& image, const SamplerDescriptor& sampler, float lambdaBase) {
  // 16.6.7: λ' = λ_base + clamp(sampler bias, ±maxSamplerLodBias) (no Bias operand here), λ = clamp(λ', minLod,
  // maxLod).
  float lambda = lambdaBase + std::clamp(sampler.mipLodBias + 0.0f, -sampler.maxLodBias, sampler.maxLodBias);
  const float lowest = std::max(sampler.minLod, 0.0f);
  if (std::isnan(lambda)) lambda = lowest;
  lambda = std::min(std::max(lambda, lowest), sampler.maxLod);
  const VkFilter filter = lambda <= 0.0f ? sampler.magFilter : sampler.minFilter;
  const uint32_t q = image.levels - 1;
  if (q == 0) return LevelChoice{filter, 0, 0, 0.0f, false};
  // 16.6.8: d' = clamp(λ, 0, q) relative to the view's base level (and the view's minimum LOD).
  const float dPrime = std::clamp(std::max(lambda, image.minLod), 0.0f, static_cast<float>(q));
  if (sampler.mipmapMode == VK_SAMPLER_MIPMAP_MODE_NEAREST) {
    const uint32_t d = dPrime <= 0.5f ? 0u : static_cast<uint32_t>(std::ceil(dPrime + 0.5f)) - 1u;
    return LevelChoice{filter, std::min(d, q), 0, 0.0f, false};
  }
  const auto high = static_cast<uint32_t>(std::floor(dPrime));
  const float delta = dPrime - static_cast<float>(high);
  return LevelChoice{filter, high, std::min(high + 1, q), delta, delta > 0.0f};
}

template <typename Decode>
void SampleLevels(const ImageDescriptor& image, const SamplerDescriptor& sampler, const Decode& decode,
                  const LevelChoice& choice, int32_t layer, uint32_t lanes, const float s[4], const float t[4],
                  Float4 result[4]) {
  FilterLanes(image, sampler, decode, choice.high, layer, choice.filter, lanes, s, t, result);
  if (choice.blend) {
    Float4 second[4];
    FilterLanes(image, sampler, decode, choice.low, layer, choice.filter, lanes, s, t, second);
    for (uint32_t i = 0; i < 4; ++i)
      if ((lanes >> i & 1) != 0) result[i] = result[i] * (1.0f - choice.delta) + second[i] * choice.delta;
  }
}

// A full quad of an RGBA8/BGRA8 texture filtered linearly: the eight-wide kernel (quad_trilinear_unorm8.h), its
// components swizzled into `out`. False when the kernel does not take the case.
bool FilterQuadUnorm8(const ImageDescriptor& image, QuadKernelImage& kernel, const LevelChoice& choice,
                      const float s[4], const float t[4], float out[4][4]) {
  const bool identity =
      image.swizzle[0] == 0 && image.swizzle[1] == 1 && image.swizzle[2] == 2 && image.swizzle[3] == 3;
  float components[4][4];
  if (!TrilinearQuadUnorm8(kernel, choice.high, choice.low, choice.delta, choice.blend, s, t,
                           identity ? &out[0][0] : &components[0][0], 4))
    return false;
  if (identity) return true;
  for (uint32_t c = 0; c < 4; ++c) {
    const uint8_t pick = image.swizzle[c];
    for (uint32_t i = 0; i < 4; ++i) out[c][i] = pick < 4 ? components[pick][i] : pick == kSwizzleOne ? 1.0f : 0.0f;
  }
  return true;
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
  QuadKernelImage kernel;
  PrepareQuadKernel(image, sampler, layer, &kernel);
  SampleQuad(image, sampler, kernel, lambdaBase, layer, lanes, s, t, out);
}

void SampleQuad(const ImageDescriptor& image, const SamplerDescriptor& sampler, QuadKernelImage& kernel,
                float lambdaBase, int32_t layer, uint32_t lanes, const float s[4], const float t[4],
                float out[4][4]) {
  Float4 result[4] = {};
  // A layer outside the view reads zero texels (Sample's validation), swizzled like any other.
  if (layer >= 0 && static_cast<uint32_t>(layer) < image.layers) {
    const LevelChoice choice = ChooseLevels(image, sampler, lambdaBase);
#if defined(CRASHTEST_HAVE_UNORM4X8)
    if (image.codec.unorm4x8() != format::Unorm4x8::kNone) {
      if (lanes == 0xf && choice.filter == VK_FILTER_LINEAR && kernel.available &&
          FilterQuadUnorm8(image, kernel, choice, s, t, out))
        return;
      SampleLevels(image, sampler, Unorm4x8CodeDecoder{image.codec.unorm4x8()}, choice, layer, lanes, s, t, result);
    } else
#endif
    if (image.codec.bytes8()) {
      Byte8Decoder decode{};
      for (uint32_t k = 0; k < 4; ++k) {
        decode.table[k] = image.codec.byte8Table(k);
        decode.slot[k] = image.codec.byte8Slot(k);
      }
      SampleLevels(image, sampler, decode, choice, layer, lanes, s, t, result);
    } else {
      SampleLevels(image, sampler, CodecDecoder{&image.codec}, choice, layer, lanes, s, t, result);
    }
  }
  if (lanes == 0xf && image.swizzle[0] == 0 && image.swizzle[1] == 1 && image.swizzle[2] == 2 &&
      image.swizzle[3] == 3) {
    // The identity mapping of a full quad: a 4x4 transpose, lanes' texels to components' rows.
    for (uint32_t c = 0; c < 4; ++c) {
      const Float4 row = {result[0][c], result[1][c], result[2][c], result[3][c]};
      std::memcpy(out[c], &row, sizeof row);
    }
    return;
  }
  for (uint32_t i = 0; i < 4; ++i) {
    if ((lanes >> i & 1) == 0) continue;
    for (uint32_t c = 0; c < 4; ++c) {
      const uint8_t pick = image.swizzle[c];
      out[c][i] = pick < 4 ? result[i][pick] : pick == kSwizzleOne ? 1.0f : 0.0f;
    }
  }
}

bool SampleFullQuads(const ImageDescriptor& image, const SamplerDescriptor& sampler, QuadKernelImage& kernel,
                     const float* lambda, uint32_t quads, const float* s, const float* t, float* out, size_t stride) {
  // The batch takes what FilterQuadUnorm8 takes without a swizzle; the quads it cannot filter (a NEAREST filter at
  // their λ, a level the kernel refuses) go through SampleQuad one by one.
  const bool identity =
      image.swizzle[0] == 0 && image.swizzle[1] == 1 && image.swizzle[2] == 2 && image.swizzle[3] == 3;
  if (!kernel.available || !identity || kernel.layer != 0 || image.layers == 0 || quads > 32) return false;
  QuadFilterJob jobs[32] = {};
  for (uint32_t q = 0; q < quads; ++q) {
    const LevelChoice choice = ChooseLevels(image, sampler, lambda[q]);
    jobs[q] = QuadFilterJob{choice.high, choice.low, choice.delta, choice.blend, choice.filter != VK_FILTER_LINEAR};
  }
  const uint32_t rest = TrilinearQuadsUnorm8(kernel, jobs, quads, s, t, out, stride);
  for (uint32_t q = 0; q < quads; ++q) {
    if ((rest >> q & 1) == 0) continue;
    float* const at = out + 4 * q;
    float texels[4][4];
    SampleQuad(image, sampler, kernel, lambda[q], 0, 0xf, s + 4 * q, t + 4 * q, texels);
    for (uint32_t c = 0; c < 4; ++c) std::memcpy(at + c * stride, texels[c], sizeof texels[c]);
  }
  return true;
}

}  // namespace crashtest::sampling
