// Sampling a fragment quad's four lanes at once: the implicit-LOD texture() of fragment shaders, by far the most
// frequent sample a draw takes. The level of detail, the filter choice and the levels are chosen once per quad (one
// λ from the quad's derivatives, as GPUs compute it), then each lane's taps are addressed directly and decoded
// without a call per texel. Only for the common case QuadSamplable accepts — a 2D colour view of an uncompressed
// float (UNORM, SNORM, sRGB, SFLOAT…) format without borders, weighted-average reduction, normalised coordinates,
// no comparison — the caller takes Sample (sampler.h) for everything else. The formulas are Sample's, step for
// step, so both paths give the same bits.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sampling/image_descriptor.h"
#include "sampling/quad_trilinear_unorm8.h"

namespace crashtest::sampling {

// Whether a sample of `image` through `sampler` (2D, no Dref, no offsets, no explicit LOD operands) may take
// SampleQuad.
bool QuadSamplable(const ImageDescriptor& image, const SamplerDescriptor& sampler);

// Samples layer `layer` of `image` at the normalised coordinates (s[i], t[i]) of the quad's lanes i whose bit is
// set in `lanes`, with λ_base `lambdaBase` (LodFromGradients of the quad's derivatives). out[c][i]: component c of
// lane i after the view's swizzle; lanes not in `lanes` are left untouched.
void SampleQuad(const ImageDescriptor& image, const SamplerDescriptor& sampler, float lambdaBase, int32_t layer,
                uint32_t lanes, const float s[4], const float t[4], float out[4][4]);

// The same with `kernel` prepared once (PrepareQuadKernel for this view, sampler and layer) for the many quads of a
// draw that sample them: RGBA8/BGRA8 full quads then take the eight-wide kernel where the CPU has it.
void SampleQuad(const ImageDescriptor& image, const SamplerDescriptor& sampler, QuadKernelImage& kernel,
                float lambdaBase, int32_t layer, uint32_t lanes, const float s[4], const float t[4], float out[4][4]);

// A subgroup's `quads` full quads of layer 0 at once (lanes 4q..4q+3 of s and t, λ_base lambda[q]): component c of
// lane l to out[c * stride + l], SampleQuad's bits. Only with `kernel` available (PrepareQuadKernel for layer 0) and
// the identity swizzle; false, with nothing written, otherwise.
bool SampleFullQuads(const ImageDescriptor& image, const SamplerDescriptor& sampler, QuadKernelImage& kernel,
                     const float* lambda, uint32_t quads, const float* s, const float* t, float* out, size_t stride);

}  // namespace crashtest::sampling
