// The bilinear footprint of one 2D colour level without borders (16.8.3 "Linear Filtering": i0 = floor(u - 0.5),
// alpha = frac(u - 0.5) per axis, four texels weighted), shared by Sample (sampler.cpp) and the quad sampler so that
// both give the same bits. The decoder is a template parameter, inlined into the loop: RGBA8/BGRA8 UNORM texels are
// weighted as their integer codes and scaled by 1/255 once (one division instead of four), the others decoded to
// RGBA floats through their codec.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "format/color_codec.h"
#include "sampling/image_descriptor.h"
#include "sampling/texel_wrap.h"

namespace crashtest::sampling {

// Four floats in one vector register (GCC/Clang vector extension: SSE on x86-64, NEON elsewhere).
using Float4 = float __attribute__((vector_size(16)));

// Texel addressing of one level of one layer.
struct LevelAccess {
  const std::byte* base;  // the layer's first texel
  uint64_t rowPitch, texelStride;
  int32_t width, height;
};

inline LevelAccess AccessLevel(const ImageDescriptor& image, uint32_t level, int32_t layer) {
  const LevelView& l = image.level[level];
  return LevelAccess{l.base + static_cast<uint64_t>(static_cast<uint32_t>(layer)) * l.layerPitch, l.rowPitch,
                     uint64_t{image.texelBytes} * image.samples, std::max(static_cast<int32_t>(l.width), 1),
                     std::max(static_cast<int32_t>(l.height), 1)};
}

// Any colour format: the codec's RGBA floats.
struct CodecDecoder {
  const format::ColorCodec* codec;
  Float4 operator()(const std::byte* texel) const {
    const VkClearColorValue value = codec->Decode(texel);
    return Float4{value.float32[0], value.float32[1], value.float32[2], value.float32[3]};
  }
  Float4 Finish(Float4 sum) const { return sum; }
};

#if defined(CRASHTEST_HAVE_UNORM4X8)
// RGBA8 and BGRA8 UNORM: the codes as floats; the weighted sum is divided by 255 once.
struct Unorm4x8CodeDecoder {
  format::Unorm4x8 order;
  Float4 operator()(const std::byte* texel) const {
    uint32_t word;
    std::memcpy(&word, texel, sizeof word);
    const __m128i zero = _mm_setzero_si128();
    __m128i codes = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(static_cast<int>(word)), zero), zero);
    if (order == format::Unorm4x8::kBgra) codes = _mm_shuffle_epi32(codes, _MM_SHUFFLE(3, 0, 1, 2));
    return _mm_cvtepi32_ps(codes);
  }
  Float4 Finish(Float4 sum) const { return sum / 255.0f; }
};

// RGBA8 and BGRA8 UNORM filtered as GPUs (and lavapipe) filter them: the weights rounded to 8 sub-texel bits
// ("subTexelPrecisionBits", 8 on every built-in device; the spec asks for at least 4), every product and sum exact
// in integers, one division at the end. A constant footprint gives code / 255 exactly, as the codec does.
inline int32_t SubTexelWeight(float fraction) { return static_cast<int32_t>(fraction * 256.0f + 0.5f); }  // 0..256

[[gnu::always_inline]] inline Float4 BilinearUnorm8(const std::byte* t00, const std::byte* t10, const std::byte* t01,
                                                    const std::byte* t11, int32_t wx, int32_t wy,
                                                    format::Unorm4x8 order) {
  const __m128i zero = _mm_setzero_si128();
  // (1 - alpha, alpha) in 16-bit pairs: pmaddwd weighs each component of the left and right texels and adds them.
  const __m128i weights = _mm_set1_epi32(static_cast<int32_t>((static_cast<uint32_t>(wx) << 16) |
                                                              static_cast<uint32_t>(256 - wx)));
  auto row = [&](const std::byte* left, const std::byte* right) {
    uint32_t a, b;
    std::memcpy(&a, left, sizeof a);
    std::memcpy(&b, right, sizeof b);
    const __m128i pairs = _mm_unpacklo_epi8(
        _mm_unpacklo_epi8(_mm_cvtsi32_si128(static_cast<int>(a)), _mm_cvtsi32_si128(static_cast<int>(b))), zero);
    return _mm_cvtepi32_ps(_mm_madd_epi16(pairs, weights));  // at most 255 x 256: exact
  };
  // At most 255 x 256 x 256 < 2^24: the vertical weighting is exact in float too.
  __m128 sum = _mm_add_ps(_mm_mul_ps(row(t00, t10), _mm_set1_ps(static_cast<float>(256 - wy))),
                          _mm_mul_ps(row(t01, t11), _mm_set1_ps(static_cast<float>(wy))));
  if (order == format::Unorm4x8::kBgra) sum = _mm_shuffle_ps(sum, sum, _MM_SHUFFLE(3, 0, 1, 2));
  return _mm_div_ps(sum, _mm_set1_ps(255.0f * 65536.0f));
}
#endif

// The filtered value at texel-space coordinates (u, v) of the level (before the -0.5), wrapped with `address`
// (no border modes). NaN coordinates give zero.
template <typename Decode>
[[gnu::always_inline]] inline Float4 Bilinear2D(const LevelAccess& a, const VkSamplerAddressMode address[2],
                                                const Decode& decode, float u, float v) {
  const float sx = u - 0.5f, sy = v - 0.5f;
  if (std::isnan(sx) || std::isnan(sy)) return Float4{0, 0, 0, 0};
  const float bx = FastFloor(sx), by = FastFloor(sy);
  const float ax = sx - bx, ay = sy - by;
  int32_t xs[2], ys[2];
  WrapPair(ClampToTexel(bx), a.width, address[0], xs);
  WrapPair(ClampToTexel(by), a.height, address[1], ys);
#if defined(CRASHTEST_HAVE_UNORM4X8)
  if constexpr (std::is_same_v<Decode, Unorm4x8CodeDecoder>) {
    const std::byte* row0 = a.base + static_cast<uint64_t>(static_cast<uint32_t>(ys[0])) * a.rowPitch;
    const std::byte* row1 = a.base + static_cast<uint64_t>(static_cast<uint32_t>(ys[1])) * a.rowPitch;
    const uint64_t left = static_cast<uint64_t>(static_cast<uint32_t>(xs[0])) * a.texelStride;
    const uint64_t right = static_cast<uint64_t>(static_cast<uint32_t>(xs[1])) * a.texelStride;
    return BilinearUnorm8(row0 + left, row0 + right, row1 + left, row1 + right, SubTexelWeight(ax),
                          SubTexelWeight(ay), decode.order);
  }
#endif
  Float4 sum{0, 0, 0, 0};
  for (int j = 0; j < 2; ++j) {
    const std::byte* row = a.base + static_cast<uint64_t>(static_cast<uint32_t>(ys[j])) * a.rowPitch;
    const float wy = j != 0 ? ay : 1.0f - ay;
    for (int i = 0; i < 2; ++i) {
      const float weight = (i != 0 ? ax : 1.0f - ax) * wy;
      sum += weight * decode(row + static_cast<uint64_t>(static_cast<uint32_t>(xs[i])) * a.texelStride);
    }
  }
  return decode.Finish(sum);
}

}  // namespace crashtest::sampling
