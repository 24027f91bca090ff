#include "raster/fragment_stage.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <bit>
#include <cstring>

#include "execution/ops/lane_access.h"
#include "format/texel_codec.h"

namespace crashtest::raster {
namespace {

// Four floats in one vector register (GCC/Clang vector extension): a quad's lanes.
using Float4 = float __attribute__((vector_size(16)));

}  // namespace

FragmentStage::FragmentStage(const DrawState& state, const VaryingLayout& varyings, uint32_t pointCoordOffset)
    : state_(state), varyings_(varyings), merger_(state), pointCoordOffset_(pointCoordOffset) {
  if (state.fragment.exe != nullptr) {
    const execution::Executable& x = *state.fragment.exe;
    batch_ = std::make_unique<execution::InvocationBatch>(state.fragment);
    width_ = batch_->width();
    for (const execution::BuiltinInput& in : x.builtins) {
      switch (in.builtIn) {
        case spv::BuiltInFragCoord: fragCoordWord_ = in.word; break;
        case spv::BuiltInFrontFacing: frontFacingWord_ = in.word; break;
        case spv::BuiltInHelperInvocation: helperWord_ = in.word; break;
        case spv::BuiltInSampleMask: sampleMaskInWord_ = in.word; break;
        case spv::BuiltInPrimitiveId: primitiveIdWord_ = in.word; break;
        case spv::BuiltInSamplePosition: samplePositionWord_ = in.word; break;
        case spv::BuiltInViewIndex: viewIndexWord_ = in.word; break;
        case spv::BuiltInPointCoord: pointCoordWord_ = in.word; break;
        case spv::BuiltInSampleId: sampleIdWord_ = in.word; break;
        default: break;
      }
    }
    for (const execution::BuiltinOutput& out : x.builtinOutputs) {
      if (out.builtIn == spv::BuiltInFragDepth) fragDepthWord_ = out.word;
      if (out.builtIn == spv::BuiltInSampleMask) sampleMaskWord_ = out.word;
    }
    batch_->Clear();
  }
  lanes_.resize(width_);
  pixelX_.assign(width_, 0);
  pixelY_.assign(width_, 0);
  if (batch_) batch_->SetPixels(pixelX_.data(), pixelY_.data(), state.viewIndex);
  samples_ = std::clamp(state.multisample.samples, 1u, kMaxSamples);
  if (samples_ > 1) {
    // "Standard sample locations" (28.3.1), in sixteenths of a pixel, for 2, 4, 8 and 16 samples.
    static const uint8_t k2[2][2] = {{12, 12}, {4, 4}};
    static const uint8_t k4[4][2] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}};
    static const uint8_t k8[8][2] = {{9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1}};
    static const uint8_t k16[16][2] = {{9, 9},  {7, 5},  {5, 10}, {12, 7}, {3, 6},  {10, 13}, {13, 11}, {11, 3},
                                       {6, 14}, {8, 1},  {4, 2},  {2, 12}, {0, 8},  {15, 4},  {14, 15}, {1, 0}};
    const uint8_t(*table)[2] = samples_ == 2 ? k2 : samples_ == 4 ? k4 : samples_ == 8 ? k8 : k16;
    const uint32_t bits = std::clamp(state.raster.subPixelBits, 1u, 12u);
    for (uint32_t s = 0; s < samples_; ++s)
      for (int k = 0; k < 2; ++k) {
        sampleOffset_[s][k] = bits >= 4 ? int64_t{table[s][k]} << (bits - 4) : int64_t{table[s][k]} >> (4 - bits);
        samplePosition_[s][k] = static_cast<float>(table[s][k]) / 16.0f - 0.5f;
      }
    // "If a fragment shader entry point's interface includes an input variable decorated with SampleId or
    // SamplePosition, Sample Shading is considered enabled with a minSampleShading value of 1.0"; otherwise the
    // pipeline's sampleShadingEnable with "max(ceil(minSampleShading x rasterizationSamples), 1)" invocations per
    // pixel, at least: every covered sample is shaded once whenever that is above 1.
    bool shaderAsks = sampleIdWord_ != UINT32_MAX || samplePositionWord_ != UINT32_MAX;
    if (batch_)
      for (const execution::InterfaceSlot& in : state.fragment.exe->inputs) shaderAsks = shaderAsks || in.perSample;
    const MultisampleState& ms = state.multisample;
    perSample_ = shaderAsks || (ms.sampleShading && ms.minSampleShading * static_cast<float>(samples_) > 1.0f);
    for (const VaryingWord& v : varyings.words) centroidInputs_ = centroidInputs_ || (v.centroid && !v.flat);
  }
  if (batch_) {
    batch_->SetSamplePositions(&samplePosition_[0][0], samples_);
    if (state.fragment.exe->interpolationWord != execution::Executable::kNoWord)
      interpolationWord_ = state.fragment.exe->interpolationWord;
  }
  SetUpDirectPath();
  // The fragment's depth is read by the depth (and stencil, bounds) tests and by FragCoord.z: none of them, none
  // computed (the direct path's no-test case).
  needDepth_ = !directColors_ || depthPath_ != DepthPath::kNone || fragCoordWord_ != UINT32_MAX;
  perLaneBuiltins_ = frontFacingWord_ != UINT32_MAX || helperWord_ != UINT32_MAX || sampleMaskInWord_ != UINT32_MAX ||
                     primitiveIdWord_ != UINT32_MAX || viewIndexWord_ != UINT32_MAX ||
                     samplePositionWord_ != UINT32_MAX || sampleIdWord_ != UINT32_MAX;
}

void FragmentStage::SetUpDirectPath() {
  const DepthStencilState& ds = state_.depthStencil;
  const bool stencilIdle = !ds.stencil.bound || !ds.stencilTest;
  const bool boundsIdle = !ds.depthBoundsTest || !ds.depth.bound;
  if ((!ds.depth.bound || !ds.depthTest) && stencilIdle && boundsIdle) {
    depthPath_ = DepthPath::kNone;  // DepthStencil would pass every fragment and write nothing
  } else if (ds.depth.bound && ds.depthTest && stencilIdle && boundsIdle && ds.depth.format == VK_FORMAT_D32_SFLOAT &&
             ds.depth.samples == 1 && ds.depth.texelBytes == 4) {
    depthPath_ = DepthPath::kD32;
    const sampling::LevelView& level = ds.depth.level[0];
    depthBase_ = level.base + static_cast<uint64_t>(state_.viewIndex) * level.layerPitch;
    depthRowPitch_ = level.rowPitch;
  }
#if defined(CRASHTEST_HAVE_UNORM4X8)
  if (!batch_ || samples_ != 1 || state_.multisample.alphaToCoverage || sampleMaskWord_ != UINT32_MAX ||
      fragDepthWord_ != UINT32_MAX || state_.logicOpEnable)
    return;
  for (const execution::InterfaceSlot& out : state_.fragment.exe->outputs) {
    if (out.location >= FragmentColors::kMaxTargets) continue;
    if (out.index != 0) return;  // dual-source blending
    if (out.location >= state_.colors.size()) continue;
    const ColorTarget& target = state_.colors[out.location];
    if (!target.image.bound || target.blend.writeMask == 0) continue;
    if (out.component != 0 || out.components != 4 || target.blend.enable || target.blend.writeMask != 0xf ||
        target.image.codec.unorm4x8() == format::Unorm4x8::kNone || target.image.samples != 1 ||
        target.image.texelBytes != 4)
      return;
    const sampling::LevelView& level = target.image.level[0];
    directTargets_.push_back(DirectTarget{out.word, level.base + static_cast<uint64_t>(state_.viewIndex) * level.layerPitch,
                                          level.rowPitch, target.image.codec.unorm4x8()});
  }
  directColors_ = true;
#endif
}

bool FragmentStage::DirectDepthPasses(const Lane& lane) {
  if (depthPath_ == DepthPath::kNone) return true;
  if (depthPath_ == DepthPath::kGeneric) return merger_.DepthStencil(lane.x, lane.y, lane.z, lane.front);
  // OutputMerger::DepthStencil for D32_SFLOAT alone: clamp with depthClamp, compare, write when enabled.
  const DepthStencilState& ds = state_.depthStencil;
  float z = lane.z;
  if (state_.raster.depthClamp) {
    const Viewport& v = state_.viewport;
    z = std::clamp(z, std::min(v.minDepth, v.maxDepth), std::max(v.minDepth, v.maxDepth));
  }
  std::byte* texel = depthBase_ + static_cast<uint64_t>(static_cast<uint32_t>(lane.y)) * depthRowPitch_ +
                     static_cast<uint64_t>(static_cast<uint32_t>(lane.x)) * 4;
  float stored;
  std::memcpy(&stored, texel, sizeof stored);
  if (!CompareOp(ds.depthCompare, z, stored)) return false;
  if (ds.depthWrite) std::memcpy(texel, &z, sizeof z);  // EncodeDepth of D32_SFLOAT: the float itself
  return true;
}

void FragmentStage::WriteDirectColors(const Lane& lane, uint32_t l) {
#if defined(CRASHTEST_HAVE_UNORM4X8)
  execution::InvocationBatch& batch = *batch_;
  for (const DirectTarget& target : directTargets_) {
    const __m128i bits = _mm_set_epi32(static_cast<int>(batch.Row(target.word + 3)[l]),
                                       static_cast<int>(batch.Row(target.word + 2)[l]),
                                       static_cast<int>(batch.Row(target.word + 1)[l]),
                                       static_cast<int>(batch.Row(target.word)[l]));
    format::EncodeUnorm4x8(_mm_castsi128_ps(bits), target.order,
                           target.base + static_cast<uint64_t>(static_cast<uint32_t>(lane.y)) * target.rowPitch +
                               static_cast<uint64_t>(static_cast<uint32_t>(lane.x)) * 4);
  }
#else
  (void)lane, (void)l;
#endif
}

float FragmentStage::SampleDepth(const TriangleSetup& t, int64_t x, int64_t y, uint32_t s) const {
  const int64_t sx = x << t.bits, sy = y << t.bits;
  double z = 0;
  for (int k = 0; k < 3; ++k)
    z += static_cast<double>(t.A[k] * (sx + sampleOffset_[s][0]) + t.B[k] * (sy + sampleOffset_[s][1]) + t.E0[k]) *
         t.invC * t.z[k];
  return static_cast<float>(z) + t.depthOffset;
}

void FragmentStage::CentroidOffset(uint32_t coverage, float* ox, float* oy) const {
  const uint32_t all = samples_ >= 32 ? ~0u : (1u << samples_) - 1;
  if (coverage == 0 || (coverage & all) == all) {
    *ox = 0, *oy = 0;
    return;
  }
  const auto s = static_cast<uint32_t>(std::countr_zero(coverage));
  *ox = samplePosition_[s][0], *oy = samplePosition_[s][1];
}

void FragmentStage::WriteDirectQuad(uint32_t first) {
#if defined(CRASHTEST_HAVE_UNORM4X8)
  execution::InvocationBatch& batch = *batch_;
  const Lane& corner = lanes_[first];
  for (const DirectTarget& target : directTargets_) {
    __m128 component[4];
    for (uint32_t c = 0; c < 4; ++c) std::memcpy(&component[c], batch.Row(target.word + c) + first, sizeof(__m128));
    std::byte* row = target.base + static_cast<uint64_t>(static_cast<uint32_t>(corner.y)) * target.rowPitch +
                     static_cast<uint64_t>(static_cast<uint32_t>(corner.x)) * 4;
    format::EncodeUnorm4x8Quad(component[0], component[1], component[2], component[3], target.order, row,
                               row + target.rowPitch);
  }
#else
  (void)first;
#endif
}

void FragmentStage::WriteQuad(const TriangleSetup& t, int64_t qx, int64_t qy, uint32_t covered, uint32_t sample) {
  const AttributePlanes& p = planes_;
  // Where the lanes are evaluated, from the pixel centres: the sample shaded, or the centres themselves.
  const float ox = sample == kPixel ? 0.0f : samplePosition_[sample][0];
  const float oy = sample == kPixel ? 0.0f : samplePosition_[sample][1];
  // Everything below stores through plain pointers into the lanes' rows, which may alias any member as far as the
  // compiler knows: members and vector data are read into locals first, so they are not reloaded after each store.
  Lane* const lanes = lanes_.data() + used_;
  int32_t* const pixelX = pixelX_.data() + used_;
  int32_t* const pixelY = pixelY_.data() + used_;
  const bool needDepth = needDepth_;
  for (uint32_t i = 0; i < 4; ++i) {
    const int64_t x = qx + (i & 1), y = qy + (i >> 1);
    Lane& lane = lanes[i];
    lane.x = static_cast<int32_t>(x), lane.y = static_cast<int32_t>(y), lane.front = t.front;
    if (needDepth) {
      const double dx = static_cast<double>(x - p.originX) + ox, dy = static_cast<double>(y - p.originY) + oy;
      lane.z = static_cast<float>(p.z.at + p.z.dx * dx + p.z.dy * dy) + t.depthOffset;
    }
    pixelX[i] = lane.x, pixelY[i] = lane.y;
  }
  if (!batch_) return;
  execution::InvocationBatch& batch = *batch_;
  uint32_t* const rows = batch.Row(0) + used_;  // lane used_ of private word 0
  const size_t width = batch.width();
  const uint32_t interpolationWord = interpolationWord_;
  const uint32_t interpolatedWords = interpolationWord == UINT32_MAX ? 0 : state_.fragment.exe->interpolatedWords;
  const bool centroidInputs = centroidInputs_;
  // The quad's pixels relative to the planes' origin, lanes in quad order (x fastest).
  const auto x0 = static_cast<float>(qx - p.originX), y0 = static_cast<float>(qy - p.originY);
  const Float4 centreX = Float4{0, 1, 0, 1} + x0, centreY = Float4{0, 0, 1, 1} + y0;
  const Float4 X = centreX + ox, Y = centreY + oy;
  auto evaluateAt = [](const Plane<float>& plane, const Float4& at, const Float4& bt) {
    return plane.at + plane.dx * at + plane.dy * bt;
  };
  auto evaluate = [&](const Plane<float>& plane) { return evaluateAt(plane, X, Y); };
  auto store = [rows, width](uint32_t word, const Float4& value) {
    std::memcpy(rows + word * width, &value, sizeof value);
  };
  // Inputs at the pixel centre: "Fragment input variables decorated with neither Centroid nor Sample may be
  // assigned a value interpolated at any location within the pixel" (the centre, as lavapipe does, also under
  // sample shading); Sample ones at the sample shaded; Centroid ones (multisampled) at the lane's centroid.
  const Float4 r = p.flatInvW ? Float4{} + p.wAtEveryPixel : 1.0f / evaluateAt(p.invWf, centreX, centreY);
  const bool moved = sample != kPixel || centroidInputs || interpolationWord != UINT32_MAX;
  Float4 sampleR = r, centroidX = centreX, centroidY = centreY, centroidR = r;
  if (moved) {
    if (sample != kPixel) sampleR = 1.0f / evaluate(p.invWf);
    Float4 cx{}, cy{};
    for (uint32_t i = 0; i < 4; ++i) {
      float offsetX, offsetY;
      CentroidOffset(lanes[i].pixelCoverage, &offsetX, &offsetY);
      cx[i] = offsetX, cy[i] = offsetY;
    }
    if (centroidInputs) {
      centroidX = centreX + cx, centroidY = centreY + cy;
      centroidR = 1.0f / evaluateAt(p.invWf, centroidX, centroidY);
    }
    if (interpolationWord != UINT32_MAX) {
      const uint32_t common = interpolationWord + 4 * interpolatedWords;
      store(common, evaluateAt(p.invWf, centreX, centreY));
      store(common + 1, Float4{} + p.invWf.dx);
      store(common + 2, Float4{} + p.invWf.dy);
      store(common + 3, cx);
      store(common + 4, cy);
    }
  }
  const VaryingWord* const words = varyings_.words.data();
  const Plane<float>* const planes = p.varying.data();
  const size_t wordCount = varyings_.words.size();
  for (size_t i = 0; i < wordCount; ++i) {
    const VaryingWord& v = words[i];
    const Plane<float>& plane = planes[i];
    if (v.flat) {
      store(v.fragmentWord, Float4{plane.at, plane.at, plane.at, plane.at});
    } else if (!moved) {
      store(v.fragmentWord, v.noPerspective ? evaluateAt(plane, centreX, centreY)
                                            : evaluateAt(plane, centreX, centreY) * r);
    } else {
      const bool atSample = v.perSample && sample != kPixel, atCentroid = v.centroid && centroidInputs;
      const Float4& ex = atSample ? X : atCentroid ? centroidX : centreX;
      const Float4& ey = atSample ? Y : atCentroid ? centroidY : centreY;
      const Float4& er = atSample ? sampleR : atCentroid ? centroidR : r;
      store(v.fragmentWord, v.noPerspective ? evaluateAt(plane, ex, ey) : evaluateAt(plane, ex, ey) * er);
    }
    if (v.fragmentWord < interpolatedWords) {
      // InterpolateAt*: the input around the pixel centre (x, y steps per pixel; perspective division or not).
      const uint32_t at = interpolationWord + 4 * v.fragmentWord;
      store(at, v.flat ? Float4{} + plane.at : evaluateAt(plane, centreX, centreY));
      store(at + 1, Float4{} + (v.flat ? 0.0f : plane.dx));
      store(at + 2, Float4{} + (v.flat ? 0.0f : plane.dy));
      store(at + 3, Float4{} + (v.flat || v.noPerspective ? 0.0f : 1.0f));
    }
  }
  if (fragCoordWord_ != UINT32_MAX) {
    // "When Sample Shading is enabled, the x and y components of FragCoord reflect the location of one of the
    // samples corresponding to the shader invocation."
    store(fragCoordWord_, Float4{0, 1, 0, 1} + (static_cast<float>(qx) + 0.5f + ox));
    store(fragCoordWord_ + 1, Float4{0, 0, 1, 1} + (static_cast<float>(qy) + 0.5f + oy));
    for (uint32_t i = 0; i < 4; ++i) {
      batch.Row(fragCoordWord_ + 2)[used_ + i] = std::bit_cast<uint32_t>(lanes_[used_ + i].z);
      const auto dx = static_cast<double>(i & 1) + x0 + ox, dy = static_cast<double>(i >> 1) + y0 + oy;
      batch.Row(fragCoordWord_ + 3)[used_ + i] =
          std::bit_cast<uint32_t>(static_cast<float>(p.invW.at + p.invW.dx * dx + p.invW.dy * dy));
    }
  }
  for (uint32_t i = 0; i < 4 && perLaneBuiltins_; ++i) {
    const uint32_t lane = used_ + i;
    const bool in = (covered >> i & 1) != 0;
    if (frontFacingWord_ != UINT32_MAX) batch.Row(frontFacingWord_)[lane] = t.front ? 1 : 0;
    if (helperWord_ != UINT32_MAX) batch.Row(helperWord_)[lane] = in ? 0 : 1;
    // Under sample shading the lane's coverage is its one sample: "the bit for the sample being shaded".
    if (sampleMaskInWord_ != UINT32_MAX) batch.Row(sampleMaskInWord_)[lane] = in ? lanes_[lane].coverage : 0;
    if (primitiveIdWord_ != UINT32_MAX) batch.Row(primitiveIdWord_)[lane] = t.primitiveId;
    if (viewIndexWord_ != UINT32_MAX) batch.Row(viewIndexWord_)[lane] = state_.viewIndex;
    if (sampleIdWord_ != UINT32_MAX) batch.Row(sampleIdWord_)[lane] = sample == kPixel ? 0 : sample;
    if (samplePositionWord_ != UINT32_MAX) {
      // "the sub-pixel position of the sample being shaded", (0, 0) at the pixel's top left.
      batch.Row(samplePositionWord_)[lane] = std::bit_cast<uint32_t>(0.5f + ox);
      batch.Row(samplePositionWord_ + 1)[lane] = std::bit_cast<uint32_t>(0.5f + oy);
    }
  }
  // "gl_PointCoord = (0.5 + (x_f - x_p) / size, 0.5 + (y_f - y_p) / size)" (28.4): linear over the square.
  if (pointCoordWord_ != UINT32_MAX) {
    store(pointCoordWord_, evaluate(p.pointCoord[0]));
    store(pointCoordWord_ + 1, evaluate(p.pointCoord[1]));
  }
}

bool FragmentStage::QuadPerSample(const TriangleSetup& t, int64_t qx, int64_t qy, uint32_t mask,
                                  const uint32_t coverage[4], execution::ShaderFault* fault, bool* stopped) {
  for (uint32_t s = 0; s < samples_; ++s) {
    uint32_t lanes = 0;  // the quad's pixels covering sample s
    for (uint32_t i = 0; i < 4; ++i)
      if ((mask >> i & 1) != 0 && (coverage[i] >> s & 1) != 0) lanes |= 1u << i;
    if (lanes == 0) continue;
    if (used_ == width_ && !Flush(fault, stopped)) return false;
    for (uint32_t i = 0; i < 4; ++i) {
      Lane& lane = lanes_[used_ + i];
      const bool covered = (lanes >> i & 1) != 0;
      lane.coverage = covered ? 1u << s : 0;
      // Centroid: "a location that lies in both the pixel and in the primitive", the pixel's coverage (as lavapipe).
      lane.pixelCoverage = (mask >> i & 1) != 0 ? coverage[i] : 0;
      if (!covered) continue;
      lane.sampleZ[s] = SampleDepth(t, qx + (i & 1), qy + (i >> 1), s);
      covered_ |= uint64_t{1} << (used_ + i);
    }
    WriteQuad(t, qx, qy, lanes, s);
    used_ += 4;
  }
  return true;
}

bool FragmentStage::Triangle(const TriangleSetup& t, const Rect& tile, execution::ShaderFault* fault,
                             bool* stopped) {
  // The triangle's pixels within this tile (tiles start at even coordinates, so a quad never spans two).
  const int64_t x0 = std::max(t.bounds.x0, tile.x0), x1 = std::min(t.bounds.x1, tile.x1);
  const int64_t y0 = std::max(t.bounds.y0, tile.y0), y1 = std::min(t.bounds.y1, tile.y1);
  if (x0 >= x1 || y0 >= y1) return true;
  planes_.Build(t, varyings_, pointCoordOffset_, x0 & ~int64_t{1}, y0 & ~int64_t{1});
  const int64_t half = int64_t{1} << (t.bits - 1);
  // The edge functions are affine: E_k(x + 1, y) = E_k(x, y) + A_k 2^bits, likewise in y with B_k, so they are
  // stepped from quad to quad instead of evaluated per pixel; and when every corner of the rectangle is inside
  // (after the top-left bias), every pixel centre between them is, and no pixel needs testing.
  int64_t stepX[3], stepY[3];
  for (int k = 0; k < 3; ++k) stepX[k] = t.A[k] * (int64_t{1} << t.bits), stepY[k] = t.B[k] * (int64_t{1} << t.bits);
  auto edgesAt = [&](int64_t x, int64_t y, int64_t e[3]) {
    const int64_t px = (x << t.bits) + half, py = (y << t.bits) + half;
    for (int k = 0; k < 3; ++k) e[k] = t.A[k] * px + t.B[k] * py + t.E0[k];
  };
  // Likewise, when all four corners are outside one edge, so is the whole rectangle (single-sample: the samples
  // of multisampling lie off the centres).
  bool allInside = samples_ == 1;
  uint32_t outside[3] = {0, 0, 0};  // corners outside edge k
  for (uint32_t c = 0; c < 4; ++c) {
    int64_t e[3];
    edgesAt(c & 1 ? x1 - 1 : x0, c & 2 ? y1 - 1 : y0, e);
    for (int k = 0; k < 3; ++k) {
      const bool in = e[k] + t.bias[k] >= 0;
      allInside = allInside && in;
      outside[k] += in ? 0 : 1;
    }
  }
  if (samples_ == 1 && (outside[0] == 4 || outside[1] == 4 || outside[2] == 4)) return true;
  // Single-sample: E_k + bias at pixel i of a quad is the quad's E_k plus a fixed offset; the sign bits of the twelve
  // sums give the uncovered pixels without a branch.
  int64_t offset[3][4];
  for (int k = 0; k < 3; ++k)
    for (uint32_t i = 0; i < 4; ++i) offset[k][i] = (i & 1 ? stepX[k] : 0) + (i >> 1 ? stepY[k] : 0) + t.bias[k];
  for (int64_t qy = y0 & ~int64_t{1}; qy < y1; qy += 2) {
    int64_t rowE[3];
    edgesAt(x0 & ~int64_t{1}, qy, rowE);
    // The quad pixels inside the tile's part of the triangle's bounds: rows here, columns per quad.
    const uint32_t rows = (qy >= y0 && qy < y1 ? 0x3u : 0u) | (qy + 1 >= y0 && qy + 1 < y1 ? 0xcu : 0u);
    for (int64_t qx = x0 & ~int64_t{1}; qx < x1; qx += 2) {
      const uint32_t columns = (qx >= x0 && qx < x1 ? 0x5u : 0u) | (qx + 1 >= x0 && qx + 1 < x1 ? 0xau : 0u);
      uint32_t mask = rows & columns;
      uint32_t coverage[4] = {1, 1, 1, 1};
      if (samples_ == 1) {
        if (!allInside) {
          uint64_t outside = 0;
          for (int k = 0; k < 3; ++k)
            for (uint32_t i = 0; i < 4; ++i) outside |= (static_cast<uint64_t>(rowE[k] + offset[k][i]) >> 63) << i;
          mask &= ~static_cast<uint32_t>(outside);
        }
      } else {
        for (uint32_t i = 0; i < 4; ++i) {
          if ((mask >> i & 1) == 0) continue;
          // Multisampling: the edge functions at each sample location; the pixel is covered when any sample is.
          coverage[i] = 0;
          const int64_t sx = (qx + (i & 1)) << t.bits, sy = (qy + (i >> 1)) << t.bits;
          for (uint32_t s = 0; s < samples_; ++s) {
            bool sampleIn = true;
            for (int k = 0; k < 3; ++k)
              sampleIn = sampleIn && t.A[k] * (sx + sampleOffset_[s][0]) + t.B[k] * (sy + sampleOffset_[s][1]) +
                                         t.E0[k] + t.bias[k] >= 0;
            if (sampleIn) coverage[i] |= 1u << s;
          }
          if (coverage[i] == 0) mask &= ~(1u << i);
        }
      }
      for (int k = 0; k < 3; ++k) rowE[k] += 2 * stepX[k];
      if (mask == 0) continue;
      if (perSample_) {
        if (!QuadPerSample(t, qx, qy, mask, coverage, fault, stopped)) return false;
        continue;
      }
      if (used_ == width_ && !Flush(fault, stopped)) return false;
      if (samples_ == 1) {
        for (uint32_t i = 0; i < 4; ++i) lanes_[used_ + i].coverage = lanes_[used_ + i].pixelCoverage = mask >> i & 1;
        covered_ |= uint64_t{mask} << used_;
      } else {
        for (uint32_t i = 0; i < 4; ++i) {
          const bool covered = (mask >> i) & 1;
          Lane& lane = lanes_[used_ + i];
          lane.coverage = lane.pixelCoverage = covered ? coverage[i] : 0;
          if (!covered) continue;
          // Depth is evaluated at each covered sample.
          for (uint32_t s = 0; s < samples_; ++s)
            if ((coverage[i] >> s & 1) != 0) lane.sampleZ[s] = SampleDepth(t, qx + (i & 1), qy + (i >> 1), s);
          covered_ |= uint64_t{1} << (used_ + i);
        }
      }
      WriteQuad(t, qx, qy, mask);
      used_ += 4;
    }
  }
  return true;
}

bool FragmentStage::Flush(execution::ShaderFault* fault, bool* stopped) {
  if (used_ == 0) return true;
  const uint64_t covered = covered_;
  const uint32_t used = used_;
  used_ = 0;
  covered_ = 0;
  const uint32_t pipelineMask = state_.multisample.sampleMask;
  if (!batch_) {
    execution::ForEachLane(covered, [&](uint32_t l) {
      const Lane& lane = lanes_[l];
      passed_ += MergeSamples(lane, lane.coverage & pipelineMask, nullptr, nullptr);
    });
    return true;
  }
  execution::InvocationBatch& batch = *batch_;
  const execution::Executable& x = *state_.fragment.exe;
  const uint64_t live = used == 64 ? ~uint64_t{0} : (uint64_t{1} << used) - 1;
  uint64_t shaded = covered;
  if (x.earlyFragmentTests) {
    // "Early Fragment Tests" (the EarlyFragmentTests execution mode): depth bounds, stencil and depth tests and their writes
    // happen before the shader; a fragment whose samples all fail is not shaded (its quad may still run it as a
    // helper invocation, whose stores have no effect).
    execution::ForEachLane(covered, [&](uint32_t l) {
      Lane& lane = lanes_[l];
      uint32_t pass = 0;
      for (uint32_t s = 0; s < samples_; ++s)
        if (((lane.coverage & pipelineMask) >> s & 1) != 0 &&
            merger_.DepthStencil(lane.x, lane.y, samples_ == 1 ? lane.z : lane.sampleZ[s], lane.front, s))
          pass |= 1u << s;
      passed_ += static_cast<uint64_t>(std::popcount(pass));
      lane.coverage = pass;
      if (pass == 0) shaded &= ~(uint64_t{1} << l);
    });
  }
  invocations_ += static_cast<uint64_t>(std::popcount(shaded));
  bool batchStopped = false;
  const execution::ShaderFault f = batch.Run(live, live & ~shaded, &batchStopped);
  if (f.kind != execution::ShaderFaultKind::None) {
    if (fault->kind == execution::ShaderFaultKind::None) *fault = f;
    if (batchStopped) return false;
  } else if (batchStopped) {
    *stopped = true;
    return false;
  }
  if (directColors_) {
    const uint64_t written = (pipelineMask & 1) != 0 ? shaded & ~batch.killed() : 0;
    // Quad by quad (lanes 4q..4q+3, the 2x2 pixels from an even corner: four different pixels, so testing the four
    // before writing any keeps each pixel's order), the colours of a quad that passes whole in one step.
    for (uint32_t q = 0; q < used; q += 4) {
      uint32_t quad = static_cast<uint32_t>(written >> q) & 0xfu;
      if (quad == 0) continue;
      if (!x.earlyFragmentTests) {
        uint32_t pass = depthPath_ == DepthPath::kNone ? quad : 0;
        for (uint32_t i = 0; i < 4 && depthPath_ != DepthPath::kNone; ++i)
          if ((quad >> i & 1) != 0 && DirectDepthPasses(lanes_[q + i])) pass |= 1u << i;
        // Four bits counted by hand: std::popcount is a libgcc call without -mpopcnt.
        passed_ += (pass & 1) + (pass >> 1 & 1) + (pass >> 2 & 1) + (pass >> 3);
        quad = pass;
      }
      if (quad == 0xf) {
        WriteDirectQuad(q);
        continue;
      }
      for (uint32_t i = 0; i < 4; ++i)
        if ((quad >> i & 1) != 0) WriteDirectColors(lanes_[q + i], q + i);
    }
    batch.Clear();
    return true;
  }
  execution::ForEachLane(shaded & ~batch.killed(), [&](uint32_t l) {
    const Lane& lane = lanes_[l];
    // The samples the fragment updates: its coverage, the pipeline's sample mask, the shader's SampleMask output
    // ("Sample Mask", 28.6) and alpha to coverage (28.7).
    uint32_t mask = lane.coverage & pipelineMask;
    if (sampleMaskWord_ != UINT32_MAX) mask &= batch.Row(sampleMaskWord_)[l];
    FragmentColors colors;
    for (const execution::InterfaceSlot& out : x.outputs) {
      if (out.location >= FragmentColors::kMaxTargets) continue;
      // Index 1 (of Location 0) is dual-source blending's second source, not an attachment's colour.
      if (out.index == 0) colors.written |= 1u << out.location;
      VkClearColorValue& value = out.index == 0 ? colors.values[out.location] : colors.source1;
      for (uint32_t c = 0; c < out.components && out.component + c < 4; ++c)
        value.uint32[out.component + c] = batch.Row(out.word + c)[l];
    }
    if (state_.multisample.alphaToCoverage && (colors.written & 1) != 0) {
      // An implementation-defined mask from alpha 0..1; here the first round(alpha * samples) samples.
      const float alpha = std::clamp(colors.values[0].float32[3], 0.0f, 1.0f);
      const auto n = static_cast<uint32_t>(std::nearbyint(alpha * static_cast<float>(samples_)));
      mask &= n >= 32 ? ~0u : (1u << n) - 1;
    }
    if (mask == 0) return;
    if (x.earlyFragmentTests) {
      // The tests already ran (and counted): only the colours are written.
      for (uint32_t s = 0; s < samples_; ++s)
        if ((mask >> s & 1) != 0) merger_.WriteColors(lane.x, lane.y, colors, s);
      return;
    }
    const float fragDepth = fragDepthWord_ != UINT32_MAX ? std::bit_cast<float>(batch.Row(fragDepthWord_)[l]) : 0.0f;
    passed_ += MergeSamples(lane, mask, fragDepthWord_ != UINT32_MAX ? &fragDepth : nullptr, &colors);
  });
  batch.Clear();
  return true;
}

uint32_t FragmentStage::MergeSamples(const Lane& lane, uint32_t mask, const float* shaderZ,
                                     const FragmentColors* colors) {
  uint32_t passed = 0;
  if (samples_ == 1) {
    if ((mask & 1) == 0) return 0;
    const float z = shaderZ != nullptr ? *shaderZ : lane.z;
    return (colors != nullptr ? merger_.Merge(lane.x, lane.y, z, lane.front, *colors)
                              : merger_.DepthStencil(lane.x, lane.y, z, lane.front))
               ? 1
               : 0;
  }
  for (uint32_t s = 0; s < samples_; ++s) {
    if ((mask >> s & 1) == 0) continue;
    const float z = shaderZ != nullptr ? *shaderZ : lane.sampleZ[s];
    const bool ok = colors != nullptr ? merger_.Merge(lane.x, lane.y, z, lane.front, *colors, s)
                                      : merger_.DepthStencil(lane.x, lane.y, z, lane.front, s);
    passed += ok ? 1 : 0;
  }
  return passed;
}

}  // namespace crashtest::raster
