// Rasterisation and the fragment stage of a draw, one screen tile at a time. A set-up triangle's pixels in the tile
// covered under the top-left rule ("Basic Polygon Rasterization", 28.7.1) are visited in 2x2 quads. Quads fill
// subgroups of the fragment shader (helper lanes for the uncovered pixels, so derivatives work); each full
// subgroup runs on the interpreter and its fragments are merged in order. One FragmentStage per worker thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "execution/invocation_batch.h"
#include "execution/shader_fault.h"
#include "format/unorm4x8.h"
#include "raster/attribute_planes.h"
#include "raster/draw_state.h"
#include "raster/output_merger.h"
#include "raster/shaded_vertex.h"
#include "raster/triangle_setup.h"

namespace crashtest::raster {

class FragmentStage {
 public:
  // `pointCoordOffset`: the float of each vertex holding gl_PointCoord's s (then t) for the triangles of points
  // (UINT32_MAX: none, PointCoord reads 0).
  FragmentStage(const DrawState& state, const VaryingLayout& varyings, uint32_t pointCoordOffset = UINT32_MAX);

  // Rasterises the part of triangle `t` inside `tile`. False when the fragment shader faulted (*fault, unless
  // masked) or the draw was cancelled.
  bool Triangle(const TriangleSetup& t, const Rect& tile, execution::ShaderFault* fault, bool* stopped);
  // Shades and merges the quads still waiting for a full subgroup.
  bool Flush(execution::ShaderFault* fault, bool* stopped);

 private:
  // The inputs of lanes used_..used_ + 3 for the quad at (qx, qy) of triangle `t` (planes_ built for it); `covered`:
  // bit i for the quad's pixels that are covered (the others are helpers). Lane coverage must be set. `sample`:
  // the sample every lane shades (sample shading), or kPixel.
  static constexpr uint32_t kPixel = ~0u;
  void WriteQuad(const TriangleSetup& t, int64_t qx, int64_t qy, uint32_t covered, uint32_t sample = kPixel);
  // Sample shading: the quad's covered samples (`coverage[i]` of pixel i in `mask`) as one quad of lanes per
  // sample index.
  bool QuadPerSample(const TriangleSetup& t, int64_t qx, int64_t qy, uint32_t mask, const uint32_t coverage[4],
                     execution::ShaderFault* fault, bool* stopped);
  // The depth of triangle `t` at sample `s` of pixel (x, y) ("the depth value ... at the sample location", 28.3).
  float SampleDepth(const TriangleSetup& t, int64_t x, int64_t y, uint32_t s) const;
  // Where a Centroid input of a pixel with these covered samples is interpolated, as an offset from its centre:
  // the centre when every sample (or none) is covered, else the first covered sample.
  void CentroidOffset(uint32_t coverage, float* ox, float* oy) const;

 public:
  // Fragments that passed every test (occlusion queries).
  uint64_t passed() const { return passed_; }
  // Fragment shader invocations run (covered pixels; helper invocations are not counted).
  uint64_t invocations() const { return invocations_; }

 private:
  static constexpr uint32_t kMaxSamples = 16;
  struct Lane {
    int32_t x = 0, y = 0;
    float z = 0;
    bool front = true;
    uint32_t coverage = 1;           // covered samples (bit s: sample s) the fragment updates
    uint32_t pixelCoverage = 1;      // the primitive's samples in the pixel (the invocation's, without sample shading)
    float sampleZ[kMaxSamples] = {};  // multisampling: the depth at each covered sample
  };
  // Merges the fragment of lane `lane` into each of its samples in `mask` (the fragment shader's depth when
  // `shaderZ`); the number of samples that passed.
  uint32_t MergeSamples(const Lane& lane, uint32_t mask, const float* shaderZ, const FragmentColors* colors);

  const DrawState& state_;
  const VaryingLayout& varyings_;
  OutputMerger merger_;
  std::unique_ptr<execution::InvocationBatch> batch_;  // nullptr without a fragment shader
  std::vector<Lane> lanes_;
  AttributePlanes planes_;  // of the triangle being rasterised
  std::vector<int32_t> pixelX_, pixelY_;  // each lane's pixel, for subpass inputs
  uint32_t width_ = 4;
  uint32_t used_ = 0;       // lanes filled (a multiple of 4)
  uint64_t covered_ = 0;    // lanes that are covered pixels (the rest are helpers)
  uint64_t passed_ = 0;
  uint64_t invocations_ = 0;
  // The fragment shader's built-ins and outputs, found once.
  uint32_t fragCoordWord_ = UINT32_MAX, frontFacingWord_ = UINT32_MAX, helperWord_ = UINT32_MAX,
           sampleMaskInWord_ = UINT32_MAX, primitiveIdWord_ = UINT32_MAX, samplePositionWord_ = UINT32_MAX,
           viewIndexWord_ = UINT32_MAX, pointCoordWord_ = UINT32_MAX, sampleIdWord_ = UINT32_MAX;
  uint32_t pointCoordOffset_ = UINT32_MAX;
  // Multisampling: sample count and the standard sample locations in sub-pixel units, and as offsets in pixels
  // from the pixel centre.
  uint32_t samples_ = 1;
  int64_t sampleOffset_[kMaxSamples][2] = {};
  float samplePosition_[kMaxSamples][2] = {};
  // "Sample Shading" (28.9): one invocation per covered sample, asked for by the pipeline (minSampleShading x
  // samples above 1) or by the shader (SampleId, SamplePosition, or an input decorated Sample, which "must" get a
  // value per sample).
  bool perSample_ = false;
  bool centroidInputs_ = false;  // some input is decorated Centroid (and pixels are shaded once, multisampled)
  uint32_t interpolationWord_ = UINT32_MAX;  // the shader's InterpolateAt* rows (Executable::interpolationWord)
  uint32_t fragDepthWord_ = UINT32_MAX, sampleMaskWord_ = UINT32_MAX;

  // The direct path: the most common per-fragment work without the generic output merger, chosen once per draw
  // (SetUpDirectPath). Single-sample fragments whose shader writes neither depth nor the sample mask, colour
  // targets of RGBA8/BGRA8 UNORM written whole without blending or logic ops, and a depth test that is absent or a
  // plain D32_SFLOAT test (no stencil, no depth bounds). The results are the merger's, bit for bit.
  void SetUpDirectPath();
  bool DirectDepthPasses(const Lane& lane);
  void WriteDirectColors(const Lane& lane, uint32_t l);
  // WriteDirectColors for the four lanes of the quad starting at lane `first`, all written.
  void WriteDirectQuad(uint32_t first);
  bool needDepth_ = true;  // Lane::z is read (WriteQuad computes it)
  bool perLaneBuiltins_ = false;  // the shader reads built-ins WriteQuad sets lane by lane
  struct DirectTarget {
    uint32_t word;       // the output's first component (R)
    std::byte* base;     // texel (0, 0) of the layer rendered
    uint64_t rowPitch;
    format::Unorm4x8 order;
  };
  enum class DepthPath : uint8_t { kNone, kD32, kGeneric };
  bool directColors_ = false;
  std::vector<DirectTarget> directTargets_;
  DepthPath depthPath_ = DepthPath::kGeneric;
  std::byte* depthBase_ = nullptr;
  uint64_t depthRowPitch_ = 0;
};

}  // namespace crashtest::raster
