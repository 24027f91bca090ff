// Texture sampling as Vulkan 1.3 chapter 16 "Image Operations" defines it, for OpImageSample*, OpImageGather and
// OpImageDrefGather: cube face selection, level-of-detail selection with the sampler's bias and clamps, wrapping
// (every address mode), border colours, nearest and linear filtering within and between mip levels, min/max
// reduction, depth comparison, and the view's swizzle. Shared by compute and (later) fragment shaders.
#pragma once

#include <cstdint>

#include "sampling/image_descriptor.h"
#include "sampling/texel_access.h"

namespace crashtest::sampling {

struct SampleRequest {
  // Normalised (or, with an unnormalised sampler, texel) coordinates s, t, r for the image's dimensions, then the
  // array layer for arrayed images; for cubes the direction x, y, z (then the cube-array layer).
  float coord[4] = {0, 0, 0, 0};
  Dim dim = Dim::k2D;
  bool arrayed = false;
  // λ_base: the Lod operand, or log2 of the scaled gradients (LodFromGradients); the sampler's bias, the Bias
  // operand and the clamps are applied by Sample.
  float lod = 0.0f;
  float bias = 0.0f;        // the Bias operand (0 without it)
  float minLod = 0.0f;      // the MinLod operand (0 without it)
  int32_t offset[3] = {0, 0, 0};  // ConstOffset / Offset, in texels
  bool compare = false;     // a Dref instruction
  float dref = 0.0f;
  int32_t gatherComponent = -1;  // >= 0: OpImageGather of that component (OpImageDrefGather: 0)
  // ConstOffsets of a gather: texel i of the result comes from the footprint moved by gatherOffsets[i].
  bool hasGatherOffsets = false;
  int32_t gatherOffsets[4][2] = {};
};

// The filtered (or gathered) result after the view's swizzle; for Dref instructions the comparison result is in
// component 0. Unbound views or samplers give zero.
Texel Sample(const ImageDescriptor& image, const SamplerDescriptor& sampler, const SampleRequest& request);

// λ_base from the Grad operands: log2 of the larger of the x and y derivative lengths, scaled by the base level's
// extent ("Scale Factor Operation, Level-of-Detail Operation", isotropic).
float LodFromGradients(const ImageDescriptor& image, Dim dim, const float dx[3], const float dy[3], uint32_t count);

// LodFromGradients of a 2D image for `quads` (at most kMaxQuadsPerCall) fragment quads at once, the same bits: quad
// q's derivatives are the coarse differences of its lanes 4q, 4q + 1 (x) and 4q + 2 (y) of the coordinates s and t.
inline constexpr uint32_t kMaxQuadsPerCall = 16;
void LodFromQuadGradients2D(const ImageDescriptor& image, const float* s, const float* t, uint32_t quads,
                            float* lambda);

}  // namespace crashtest::sampling
