// Trilinear (or bilinear) filtering of a whole fragment quad of an RGBA8/BGRA8 UNORM texture in one pass, for the
// quad sampler's most frequent case: the four lanes' taps on two levels are eight bilinear footprints, computed
// eight-wide with AVX2 (the taps fetched with gathers) where the CPU has it. The arithmetic is BilinearFour's and
// BilinearUnorm8's (bilinear_2d.h) operation for operation, and the level blend is SampleLevels', so the bits are
// the portable path's; QuadSampler.GivesSampleBitsForEveryLane checks both against Sample.
#pragma once

#include <cstddef>
#include <cstdint>

#include <vulkan/vulkan_core.h>

#include "format/unorm4x8.h"
#include "sampling/bilinear_2d.h"

namespace crashtest::sampling {

// One level as the kernel addresses it.
struct QuadKernelLevel {
  float width, height;      // the level's extent as the normalised coordinates' scale
  int32_t sizeX, sizeY;     // the extent the address modes wrap at (at least 1)
  int32_t pitch, offset;    // texel index of (x, y) = y * pitch + x + offset, from the kernel's origin
  bool usable;              // the indices fit int32 and the address modes wrap at this extent as the kernel does
};

// A view and sampler prepared once for many quads (a draw samples one pair for thousands of them); each level is
// prepared when a quad first samples it.
struct QuadKernelImage {
  bool available = false;  // the CPU has the kernel and the view is RGBA8/BGRA8 UNORM: see PrepareQuadKernel
  const ImageDescriptor* image = nullptr;
  int32_t layer = 0;
  uint32_t prepared = 0;              // bit l: level[l] is filled in
  const std::byte* origin = nullptr;  // level 0's first texel of the layer
  bool repeatX = false, repeatY = false;  // REPEAT, else CLAMP_TO_EDGE
  format::Unorm4x8 order = format::Unorm4x8::kNone;
  QuadKernelLevel level[kMaxLevels];
};

// Prepares `kernel` for sampling layer `layer` of `image` through `sampler` (which QuadSamplable accepts).
// kernel->available is false when this CPU lacks the kernel, the format is not RGBA8/BGRA8 UNORM or an address mode
// is neither REPEAT nor CLAMP_TO_EDGE.
void PrepareQuadKernel(const ImageDescriptor& image, const SamplerDescriptor& sampler, int32_t layer,
                       QuadKernelImage* kernel);

// Samples the full quad's lanes (s[i], t[i]) with LINEAR filtering on level `high`, blended with level `low` by
// `delta` when `blend` (SampleLevels' result * (1 - delta) + second * delta). out[c * stride + i]: component c
// (R, G, B, A, before the view's swizzle) of lane i. False, with nothing written, when a level is not usable or a
// coordinate is NaN or beyond 2^24 texels; the caller then takes the portable path.
bool TrilinearQuadUnorm8(QuadKernelImage& kernel, uint32_t high, uint32_t low, float delta, bool blend,
                         const float s[4], const float t[4], float* out, size_t stride);

// One quad of a batch: its levels and blend (as TrilinearQuadUnorm8's arguments), or `skip` for a quad the caller
// samples otherwise.
struct QuadFilterJob {
  uint32_t high, low;
  float delta;
  bool blend, skip;
};

// TrilinearQuadUnorm8 for `quads` (at most 32) full quads: quad q's lanes are 4q..4q+3 of s and t and of each output
// row (out + c * stride). Returns the quads not filtered (bit q: skipped, or refused as TrilinearQuadUnorm8 refuses),
// whose outputs are untouched.
uint32_t TrilinearQuadsUnorm8(QuadKernelImage& kernel, const QuadFilterJob* jobs, uint32_t quads, const float* s,
                              const float* t, float* out, size_t stride);

// Tests switch the kernel off to check the portable path on a CPU that has it. Not thread-safe: set it before
// sampling.
void EnableQuadKernelForTesting(bool enabled);

}  // namespace crashtest::sampling
