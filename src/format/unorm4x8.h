// Four 8-bit UNORM components at a time (RGBA8 and BGRA8 UNORM, the most common texture and render-target
// formats), with SSE2 on x86-64: decoding as code / 255 and encoding as the generic path's "clamp, scale in double,
// round to nearest even", bit for bit. Used by ColorCodec and by the samplers' inner loops, which inline it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#define CRASHTEST_HAVE_UNORM4X8 1
#endif

namespace crashtest::format {

// Byte order of the four components in memory.
enum class Unorm4x8 : uint8_t { kNone, kRgba, kBgra };

#if defined(__SSE2__)
// R, G, B, A of the texel at `texel`. code / 255.0f in single precision equals the codec's exactly rounded table
// value for every code (checked by format_unit_tests).
inline __m128 DecodeUnorm4x8(const std::byte* texel, Unorm4x8 order) {
  uint32_t word;
  std::memcpy(&word, texel, sizeof word);
  const __m128i zero = _mm_setzero_si128();
  __m128i codes = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(static_cast<int>(word)), zero), zero);
  if (order == Unorm4x8::kBgra) codes = _mm_shuffle_epi32(codes, _MM_SHUFFLE(3, 0, 1, 2));
  return _mm_div_ps(_mm_cvtepi32_ps(codes), _mm_set1_ps(255.0f));
}

// The 8-bit UNORM codes of four values, as four 32-bit integers: NaN to 0 (maxps returns its second operand for
// NaN), clamp to [0, 1], scale in double and round to nearest even (cvtpd2dq under the default rounding mode, as
// nearbyint).
inline __m128i EncodeUnorm8Codes(__m128 values) {
  const __m128 v = _mm_min_ps(_mm_max_ps(values, _mm_setzero_ps()), _mm_set1_ps(1.0f));
  const __m128d scale = _mm_set1_pd(255.0);
  const __m128i low = _mm_cvtpd_epi32(_mm_mul_pd(_mm_cvtps_pd(v), scale));
  const __m128i high = _mm_cvtpd_epi32(_mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(v, v)), scale));
  return _mm_unpacklo_epi64(low, high);
}

// Stores R, G, B, A (`rgba`) into the texel at `texel`, encoded as EncodeUnorm8Codes.
inline void EncodeUnorm4x8(__m128 rgba, Unorm4x8 order, std::byte* texel) {
  if (order == Unorm4x8::kBgra) rgba = _mm_shuffle_ps(rgba, rgba, _MM_SHUFFLE(3, 0, 1, 2));
  const __m128i words = EncodeUnorm8Codes(rgba);
  const __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(words, words), _mm_setzero_si128());
  const auto word = static_cast<uint32_t>(_mm_cvtsi128_si32(bytes));
  std::memcpy(texel, &word, sizeof word);
}

// Four texels from four values of each component (`r`, `g`, `b`, `a`: texel i's in lane i), encoded as
// EncodeUnorm8Codes: texels 0 and 1 at `row0`, 2 and 3 at `row1` (a 2x2 quad of pixels).
inline void EncodeUnorm4x8Quad(__m128 r, __m128 g, __m128 b, __m128 a, Unorm4x8 order, std::byte* row0,
                               std::byte* row1) {
  if (order == Unorm4x8::kBgra) std::swap(r, b);
  const __m128i words = _mm_or_si128(
      _mm_or_si128(EncodeUnorm8Codes(r), _mm_slli_epi32(EncodeUnorm8Codes(g), 8)),
      _mm_or_si128(_mm_slli_epi32(EncodeUnorm8Codes(b), 16), _mm_slli_epi32(EncodeUnorm8Codes(a), 24)));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(row0), words);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(row1), _mm_unpackhi_epi64(words, words));
}
#endif

}  // namespace crashtest::format
