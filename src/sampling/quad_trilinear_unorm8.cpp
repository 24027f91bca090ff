// The kernel is compiled for AVX2 (function attribute, chosen once at load by the CPU's features; the rest of the
// driver stays baseline x86-64). Lanes 0-3 of each eight-wide vector are the quad's four lanes on the high level,
// lanes 4-7 the same lanes on the low level. The float operations are BilinearFour's and BilinearUnorm8's in the
// same order, and no FMA is enabled here, so nothing is contracted that the portable path rounds twice.
#include "sampling/quad_trilinear_unorm8.h"

#include <atomic>
#include <climits>

#if defined(CRASHTEST_HAVE_UNORM4X8) && defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define CRASHTEST_QUAD_KERNEL_AVX2 1
#endif

namespace crashtest::sampling {
namespace {

std::atomic<bool> kernelEnabled{true};

#if defined(CRASHTEST_QUAD_KERNEL_AVX2)
const bool kCpuHasAvx2 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}();

// Texel indexing of a level relative to `origin`: index = y * pitch + x + offset, in 4-byte texels, which the
// gathers scale by 4. Not usable when a texel of the level is not 4-byte aligned relative to `origin` or an index
// would leave int32, or when REPEAT meets an extent that is not a power of two (the kernel wraps with a mask).
QuadKernelLevel PrepareLevel(const ImageDescriptor& image, uint32_t level, int32_t layer, uintptr_t origin,
                             bool repeatX, bool repeatY) {
  const LevelAccess a = AccessLevel(image, level, layer);
  QuadKernelLevel k{};
  k.width = static_cast<float>(image.level[level].width);
  k.height = static_cast<float>(image.level[level].height);
  k.sizeX = a.width, k.sizeY = a.height;
  const bool wraps = (!repeatX || (a.width & (a.width - 1)) == 0) && (!repeatY || (a.height & (a.height - 1)) == 0);
  if (!wraps || a.texelStride != 4 || a.rowPitch % 4 != 0 || a.rowPitch / 4 > INT32_MAX) return k;
  const auto distance = static_cast<intptr_t>(reinterpret_cast<uintptr_t>(a.base) - origin);
  if (distance % 4 != 0) return k;
  const int64_t first = distance / 4;
  const int64_t last = first + static_cast<int64_t>(a.rowPitch / 4) * (a.height - 1) + (a.width - 1);
  if (first < INT32_MIN || last > INT32_MAX) return k;
  k.pitch = static_cast<int32_t>(a.rowPitch / 4);
  k.offset = static_cast<int32_t>(first);
  k.usable = true;
  return k;
}

#define AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline

// WrapFour, eight-wide: REPEAT masks with the power-of-two extent, CLAMP_TO_EDGE clamps to [0, size - 1].
AVX2_INLINE void WrapEight(__m256i i, __m256i size, bool repeat, __m256i* first, __m256i* second) {
  const __m256i one = _mm256_set1_epi32(1), last = _mm256_sub_epi32(size, one);
  const __m256i next = _mm256_add_epi32(i, one);
  if (repeat) {
    *first = _mm256_and_si256(i, last);
    *second = _mm256_and_si256(next, last);
    return;
  }
  const __m256i zero = _mm256_setzero_si256();
  *first = _mm256_min_epi32(_mm256_max_epi32(i, zero), last);
  *second = _mm256_min_epi32(_mm256_max_epi32(next, zero), last);
}

// FastFloor of BilinearFour: truncate, then one less where truncation rounded up (exact below 2^24).
AVX2_INLINE __m256i FloorEight(__m256 x) {
  const __m256i truncated = _mm256_cvttps_epi32(x);
  return _mm256_add_epi32(truncated, _mm256_castps_si256(_mm256_cmp_ps(_mm256_cvtepi32_ps(truncated), x, _CMP_GT_OQ)));
}

// pshufb masks putting byte k of every 32-bit texel at byte 0 (left texels) or byte 2 (right texels) of its
// element, the other bytes zero: a left texel's and a right texel's component k, ORed, are the 16-bit pair pmaddwd
// weighs. kComponentMasks[k][side], side 0 left, 1 right.
struct alignas(32) ShuffleMask {
  int8_t bytes[32];
};
constexpr ShuffleMask MakeComponentMask(int k, int side) {
  ShuffleMask mask{};
  for (int e = 0; e < 8; ++e) {
    const int first = (e % 4) * 4;  // pshufb indexes within each 128-bit half
    for (int b = 0; b < 4; ++b) mask.bytes[e * 4 + b] = static_cast<int8_t>(b == side * 2 ? first + k : -128);
  }
  return mask;
}
constexpr ShuffleMask kComponentMasks[4][2] = {
    {MakeComponentMask(0, 0), MakeComponentMask(0, 1)}, {MakeComponentMask(1, 0), MakeComponentMask(1, 1)},
    {MakeComponentMask(2, 0), MakeComponentMask(2, 1)}, {MakeComponentMask(3, 0), MakeComponentMask(3, 1)}};

AVX2_INLINE __m256i Halves(int32_t high, int32_t low) {
  return _mm256_setr_epi32(high, high, high, high, low, low, low, low);
}

AVX2_INLINE bool Kernel(const QuadKernelImage& kernel, const QuadKernelLevel& high,
                                            const QuadKernelLevel& low, float delta, bool blend, const float s[4],
                                            const float t[4], float* out, size_t stride) {
  const __m128 s4 = _mm_loadu_ps(s), t4 = _mm_loadu_ps(t);
  // Sample's Scaled: the normalised coordinate times the level's extent; BilinearFour's "- 0.5".
  const __m256 u = _mm256_mul_ps(_mm256_set_m128(s4, s4), _mm256_set_m128(_mm_set1_ps(low.width),
                                                                           _mm_set1_ps(high.width)));
  const __m256 v = _mm256_mul_ps(_mm256_set_m128(t4, t4), _mm256_set_m128(_mm_set1_ps(low.height),
                                                                           _mm_set1_ps(high.height)));
  const __m256 half = _mm256_set1_ps(0.5f);
  const __m256 sx = _mm256_sub_ps(u, half), sy = _mm256_sub_ps(v, half);
  const __m256 limit = _mm256_set1_ps(16777216.0f), negativeLimit = _mm256_set1_ps(-16777216.0f);
  const __m256 inRange = _mm256_and_ps(  // false for NaN (ordered comparisons)
      _mm256_and_ps(_mm256_cmp_ps(sx, limit, _CMP_LT_OQ), _mm256_cmp_ps(sx, negativeLimit, _CMP_GT_OQ)),
      _mm256_and_ps(_mm256_cmp_ps(sy, limit, _CMP_LT_OQ), _mm256_cmp_ps(sy, negativeLimit, _CMP_GT_OQ)));
  if (_mm256_movemask_ps(inRange) != 0xff) return false;
  const __m256i ix = FloorEight(sx), iy = FloorEight(sy);
  const __m256 ax = _mm256_sub_ps(sx, _mm256_cvtepi32_ps(ix)), ay = _mm256_sub_ps(sy, _mm256_cvtepi32_ps(iy));
  __m256i x0, x1, y0, y1;
  WrapEight(ix, Halves(high.sizeX, low.sizeX), kernel.repeatX, &x0, &x1);
  WrapEight(iy, Halves(high.sizeY, low.sizeY), kernel.repeatY, &y0, &y1);

  // The taps: texel indices from the origin, fetched eight at a time.
  const __m256i pitches = Halves(high.pitch, low.pitch), offsets = Halves(high.offset, low.offset);
  const __m256i row0 = _mm256_add_epi32(_mm256_mullo_epi32(y0, pitches), offsets);
  const __m256i row1 = _mm256_add_epi32(_mm256_mullo_epi32(y1, pitches), offsets);
  const auto* origin = reinterpret_cast<const int*>(kernel.origin);
  const __m256i t00 = _mm256_i32gather_epi32(origin, _mm256_add_epi32(row0, x0), 4);
  const __m256i t10 = _mm256_i32gather_epi32(origin, _mm256_add_epi32(row0, x1), 4);
  const __m256i t01 = _mm256_i32gather_epi32(origin, _mm256_add_epi32(row1, x0), 4);
  const __m256i t11 = _mm256_i32gather_epi32(origin, _mm256_add_epi32(row1, x1), 4);

  // SubTexelWeight, then BilinearUnorm8's weights: (256 - wx, wx) as the 16-bit pair pmaddwd takes, 256 - wy and wy
  // as floats.
  const __m256 scale = _mm256_set1_ps(256.0f);
  const __m256i wx = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(ax, scale), half));
  const __m256i wy = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(ay, scale), half));
  const __m256i full = _mm256_set1_epi32(256);
  const __m256i pairWeights = _mm256_or_si256(_mm256_sub_epi32(full, wx), _mm256_slli_epi32(wx, 16));
  const __m256 topWeight = _mm256_cvtepi32_ps(_mm256_sub_epi32(full, wy)), bottomWeight = _mm256_cvtepi32_ps(wy);
  const __m256 divisor = _mm256_set1_ps(255.0f * 65536.0f);
  const __m128 keep = _mm_set1_ps(1.0f - delta), take = _mm_set1_ps(delta);
  static constexpr int kBgraComponent[4] = {2, 1, 0, 3};
  for (int k = 0; k < 4; ++k) {
    const __m256i left = _mm256_load_si256(reinterpret_cast<const __m256i*>(kComponentMasks[k][0].bytes));
    const __m256i right = _mm256_load_si256(reinterpret_cast<const __m256i*>(kComponentMasks[k][1].bytes));
    const __m256i top = _mm256_madd_epi16(
        _mm256_or_si256(_mm256_shuffle_epi8(t00, left), _mm256_shuffle_epi8(t10, right)), pairWeights);
    const __m256i bottom = _mm256_madd_epi16(
        _mm256_or_si256(_mm256_shuffle_epi8(t01, left), _mm256_shuffle_epi8(t11, right)), pairWeights);
    const __m256 sum = _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(top), topWeight),
                                     _mm256_mul_ps(_mm256_cvtepi32_ps(bottom), bottomWeight));
    const __m256 value = _mm256_div_ps(sum, divisor);
    __m128 result = _mm256_castps256_ps128(value);
    // SampleLevels' blend: result * (1 - delta) + second * delta.
    if (blend)
      result = _mm_add_ps(_mm_mul_ps(result, keep), _mm_mul_ps(_mm256_extractf128_ps(value, 1), take));
    _mm_storeu_ps(out + (kernel.order == format::Unorm4x8::kBgra ? kBgraComponent[k] : k) * stride, result);
  }
  return true;
}
#endif

}  // namespace

void PrepareQuadKernel(const ImageDescriptor& image, const SamplerDescriptor& sampler, int32_t layer,
                       QuadKernelImage* kernel) {
  kernel->available = false;
#if defined(CRASHTEST_QUAD_KERNEL_AVX2)
  auto wrappable = [](VkSamplerAddressMode mode) {
    return mode == VK_SAMPLER_ADDRESS_MODE_REPEAT || mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  };
  if (!kCpuHasAvx2 || !kernelEnabled.load(std::memory_order_relaxed) ||
      image.codec.unorm4x8() == format::Unorm4x8::kNone || !wrappable(sampler.address[0]) ||
      !wrappable(sampler.address[1]) || layer < 0 ||
      static_cast<uint32_t>(layer) >= image.layers || image.levels == 0 || image.levels > kMaxLevels)
    return;
  kernel->image = &image;
  kernel->layer = layer;
  kernel->prepared = 0;
  kernel->origin = AccessLevel(image, 0, layer).base;
  kernel->repeatX = sampler.address[0] == VK_SAMPLER_ADDRESS_MODE_REPEAT;
  kernel->repeatY = sampler.address[1] == VK_SAMPLER_ADDRESS_MODE_REPEAT;
  kernel->order = image.codec.unorm4x8();
  kernel->available = true;
#else
  (void)image, (void)sampler, (void)layer;
#endif
}

bool TrilinearQuadUnorm8(QuadKernelImage& kernel, uint32_t high, uint32_t low, float delta, bool blend,
                         const float s[4], const float t[4], float* out, size_t stride) {
  const QuadFilterJob job{high, low, delta, blend, false};
  return TrilinearQuadsUnorm8(kernel, &job, 1, s, t, out, stride) == 0;
}

#if defined(CRASHTEST_QUAD_KERNEL_AVX2)
namespace {
// The batch's loop, compiled for AVX2 so the kernel inlines into it: no call per quad.
__attribute__((target("avx2"))) uint32_t KernelBatch(const QuadKernelImage& kernel, const QuadFilterJob* jobs,
                                                     uint32_t quads, uint32_t refused, const float* s, const float* t,
                                                     float* out, size_t stride) {
  for (uint32_t q = 0; q < quads; ++q) {
    if ((refused >> q & 1) != 0) continue;
    const QuadFilterJob& job = jobs[q];
    if (!Kernel(kernel, kernel.level[job.high], kernel.level[job.blend ? job.low : job.high], job.delta, job.blend,
                s + 4 * q, t + 4 * q, out + 4 * q, stride))
      refused |= 1u << q;
  }
  return refused;
}
}  // namespace
#endif

uint32_t TrilinearQuadsUnorm8(QuadKernelImage& kernel, const QuadFilterJob* jobs, uint32_t quads, const float* s,
                              const float* t, float* out, size_t stride) {
  const uint32_t all = quads >= 32 ? ~0u : (1u << quads) - 1;
#if defined(CRASHTEST_QUAD_KERNEL_AVX2)
  if (!kernel.available) return all;
  uint32_t refused = 0;
  for (uint32_t q = 0; q < quads; ++q) {
    const QuadFilterJob& job = jobs[q];
    if (job.skip) {
      refused |= 1u << q;
      continue;
    }
    const uint32_t low = job.blend ? job.low : job.high;
    const uint32_t needed = 1u << job.high | 1u << low;
    if ((kernel.prepared & needed) != needed) [[unlikely]] {
      for (const uint32_t l : {job.high, low}) {
        kernel.level[l] = PrepareLevel(*kernel.image, l, kernel.layer, reinterpret_cast<uintptr_t>(kernel.origin),
                                       kernel.repeatX, kernel.repeatY);
        kernel.prepared |= 1u << l;
      }
    }
    if (!kernel.level[job.high].usable || !kernel.level[low].usable) refused |= 1u << q;
  }
  return KernelBatch(kernel, jobs, quads, refused, s, t, out, stride);
#else
  (void)kernel, (void)jobs, (void)s, (void)t, (void)out, (void)stride;
  return all;
#endif
}

void EnableQuadKernelForTesting(bool enabled) { kernelEnabled.store(enabled, std::memory_order_relaxed); }

}  // namespace crashtest::sampling
