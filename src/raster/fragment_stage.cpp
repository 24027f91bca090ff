#include "raster/fragment_stage.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

#include "execution/ops/lane_access.h"

namespace crashtest::raster {

// A triangle ready to rasterise: framebuffer positions snapped to the sub-pixel grid, oriented so that its
// doubled area C is positive, and what interpolation needs.
struct FragmentStage::Setup {
  int64_t X[3], Y[3];        // snapped positions (units of 2^-subPixelBits pixels)
  int64_t A[3], B[3];        // edge k (opposite vertex k): E_k(P) = B_k (Py - Y_a) + A_k (Px - X_a)
  int64_t bias[3];           // 0 for top and left edges, -1 for the others (the top-left rule)
  int64_t C = 0;             // E_0 + E_1 + E_2 everywhere: twice the snapped area
  double invW[3], z[3];
  const float* data[3];      // the vertices (position, then varyings)
  const float* provoking;
  bool front = true;
  uint32_t primitiveId = 0;
  float depthOffset = 0;
  uint32_t bits = 8;
};

FragmentStage::FragmentStage(const DrawState& state, const VaryingLayout& varyings)
    : state_(state), varyings_(varyings), merger_(state) {
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
}

void FragmentStage::WriteInputs(const Setup& t, uint32_t lane, int32_t x, int32_t y, bool covered) {
  const int64_t px = (int64_t{x} << t.bits) + (int64_t{1} << (t.bits - 1));
  const int64_t py = (int64_t{y} << t.bits) + (int64_t{1} << (t.bits - 1));
  double b[3];
  for (int k = 0; k < 3; ++k) {
    const int a = (k + 1) % 3;
    const int64_t e = t.B[k] * (py - t.Y[a]) + t.A[k] * (px - t.X[a]);
    b[k] = static_cast<double>(e) / static_cast<double>(t.C);
  }
  // Screen-space (linear) weights for depth and 1/w; perspective-correct ones for the varyings ("Basic Polygon
  // Rasterization": f = (a_f/w_a + b_f/w_b + c_f/w_c) / (a/w_a + b/w_b + c/w_c)).
  const double invW = b[0] * t.invW[0] + b[1] * t.invW[1] + b[2] * t.invW[2];
  double pc[3];
  for (int k = 0; k < 3; ++k) pc[k] = b[k] * t.invW[k] / invW;
  const float z = static_cast<float>(b[0] * t.z[0] + b[1] * t.z[1] + b[2] * t.z[2]) + t.depthOffset;
  Lane& info = lanes_[lane];
  info.x = x, info.y = y, info.z = z, info.front = t.front;
  if (!batch_) return;
  execution::InvocationBatch& batch = *batch_;
  for (size_t i = 0; i < varyings_.words.size(); ++i) {
    const VaryingWord& v = varyings_.words[i];
    float value;
    if (v.flat) {
      value = t.provoking[4 + i];
    } else {
      const double* w = v.noPerspective ? b : pc;
      value = static_cast<float>(w[0] * t.data[0][4 + i] + w[1] * t.data[1][4 + i] + w[2] * t.data[2][4 + i]);
    }
    batch.Row(v.fragmentWord)[lane] = std::bit_cast<uint32_t>(value);
  }
  if (fragCoordWord_ != UINT32_MAX) {
    batch.Row(fragCoordWord_)[lane] = std::bit_cast<uint32_t>(static_cast<float>(x) + 0.5f);
    batch.Row(fragCoordWord_ + 1)[lane] = std::bit_cast<uint32_t>(static_cast<float>(y) + 0.5f);
    batch.Row(fragCoordWord_ + 2)[lane] = std::bit_cast<uint32_t>(z);
    batch.Row(fragCoordWord_ + 3)[lane] = std::bit_cast<uint32_t>(static_cast<float>(invW));
  }
  if (frontFacingWord_ != UINT32_MAX) batch.Row(frontFacingWord_)[lane] = t.front ? 1 : 0;
  if (helperWord_ != UINT32_MAX) batch.Row(helperWord_)[lane] = covered ? 0 : 1;
  if (sampleMaskInWord_ != UINT32_MAX) batch.Row(sampleMaskInWord_)[lane] = covered ? 1 : 0;
  if (primitiveIdWord_ != UINT32_MAX) batch.Row(primitiveIdWord_)[lane] = t.primitiveId;
  if (samplePositionWord_ != UINT32_MAX) {
    batch.Row(samplePositionWord_)[lane] = std::bit_cast<uint32_t>(0.5f);
    batch.Row(samplePositionWord_ + 1)[lane] = std::bit_cast<uint32_t>(0.5f);
  }
}

bool FragmentStage::Triangle(const float* a, const float* b, const float* c, const float* provoking,
                             uint32_t primitiveId, execution::ShaderFault* fault, bool* stopped) {
  const Viewport& vp = state_.viewport;
  Setup t;
  t.bits = std::clamp(state_.raster.subPixelBits, 1u, 12u);
  t.provoking = provoking;
  t.primitiveId = primitiveId;
  const float* in[3] = {a, b, c};
  const double scale = static_cast<double>(int64_t{1} << t.bits);
  for (int k = 0; k < 3; ++k) {
    const float* p = in[k];
    const float invW = 1.0f / p[3];
    // "x_f = (p_x / 2) x_d + o_x", o_x = x + width / 2; likewise y; "z_f = p_z z_d + o_z" (27.6).
    const float xf = vp.width * 0.5f * (p[0] * invW) + (vp.x + vp.width * 0.5f);
    const float yf = vp.height * 0.5f * (p[1] * invW) + (vp.y + vp.height * 0.5f);
    const float zf = (vp.maxDepth - vp.minDepth) * (p[2] * invW) + vp.minDepth;
    if (!std::isfinite(xf) || !std::isfinite(yf)) return true;
    t.X[k] = std::llround(static_cast<double>(xf) * scale);
    t.Y[k] = std::llround(static_cast<double>(yf) * scale);
    t.invW[k] = invW;
    t.z[k] = zf;
    t.data[k] = p;
  }
  const int64_t area = (t.X[1] - t.X[0]) * (t.Y[2] - t.Y[0]) - (t.X[2] - t.X[0]) * (t.Y[1] - t.Y[0]);
  if (area == 0) return true;  // degenerate after snapping: no samples are covered
  // "a = -1/2 Σ x_f^i y_f^(i+1) - x_f^(i+1) y_f^i"; counter-clockwise front faces have a > 0 (28.7.1.1), and
  // a = -area / 2.
  t.front = state_.raster.frontFace == VK_FRONT_FACE_COUNTER_CLOCKWISE ? area < 0 : area > 0;
  const VkCullModeFlags cull = state_.raster.cullMode;
  if (((cull & VK_CULL_MODE_FRONT_BIT) && t.front) || ((cull & VK_CULL_MODE_BACK_BIT) && !t.front)) return true;
  if (area < 0) {
    std::swap(t.X[1], t.X[2]), std::swap(t.Y[1], t.Y[2]);
    std::swap(t.invW[1], t.invW[2]), std::swap(t.z[1], t.z[2]), std::swap(t.data[1], t.data[2]);
  }
  t.C = std::abs(area);
  for (int k = 0; k < 3; ++k) {
    const int from = (k + 1) % 3, to = (k + 2) % 3;
    const int64_t dx = t.X[to] - t.X[from], dy = t.Y[to] - t.Y[from];
    t.A[k] = -dy;
    t.B[k] = dx;
    // Top-left rule in framebuffer coordinates (y down), for this orientation: a top edge runs exactly
    // horizontally to the right, a left edge upwards.
    t.bias[k] = ((dy == 0 && dx > 0) || dy < 0) ? 0 : -1;
  }
  if (state_.raster.depthBias) {
    // "Depth Bias" (28.7.4): o = m * depthBiasSlopeFactor + r * depthBiasConstantFactor, clamped, with m the
    // maximum depth slope and r the format's minimum resolvable difference.
    const double fx[3] = {t.X[0] / scale, t.X[1] / scale, t.X[2] / scale};
    const double fy[3] = {t.Y[0] / scale, t.Y[1] / scale, t.Y[2] / scale};
    const double det = (fx[1] - fx[0]) * (fy[2] - fy[0]) - (fx[2] - fx[0]) * (fy[1] - fy[0]);
    const double dzdx = ((t.z[1] - t.z[0]) * (fy[2] - fy[0]) - (t.z[2] - t.z[0]) * (fy[1] - fy[0])) / det;
    const double dzdy = ((t.z[2] - t.z[0]) * (fx[1] - fx[0]) - (t.z[1] - t.z[0]) * (fx[2] - fx[0])) / det;
    const double m = std::max(std::fabs(dzdx), std::fabs(dzdy));
    double r = 1.0 / 16777216.0;
    const VkFormat depthFormat = state_.depthStencil.depth.format;
    if (depthFormat == VK_FORMAT_D16_UNORM || depthFormat == VK_FORMAT_D16_UNORM_S8_UINT) r = 1.0 / 65536.0;
    if (depthFormat == VK_FORMAT_D32_SFLOAT || depthFormat == VK_FORMAT_D32_SFLOAT_S8_UINT) {
      const double maxZ = std::max({std::fabs(t.z[0]), std::fabs(t.z[1]), std::fabs(t.z[2])});
      int e = 0;
      std::frexp(maxZ, &e);
      r = std::ldexp(1.0, e - 1 - 23);
    }
    double o = m * state_.raster.depthBiasSlope + r * state_.raster.depthBiasConstant;
    const double clampValue = state_.raster.depthBiasClamp;
    if (clampValue > 0) o = std::min(o, clampValue);
    if (clampValue < 0) o = std::max(o, clampValue);
    t.depthOffset = static_cast<float>(o);
  }

  // The pixels whose centres may be covered, inside the scissor (already cut to the render area and attachments).
  const int64_t minX = std::min({t.X[0], t.X[1], t.X[2]}), maxX = std::max({t.X[0], t.X[1], t.X[2]});
  const int64_t minY = std::min({t.Y[0], t.Y[1], t.Y[2]}), maxY = std::max({t.Y[0], t.Y[1], t.Y[2]});
  const int64_t x0 = std::max<int64_t>(state_.scissor.x0, minX >> t.bits);
  const int64_t x1 = std::min<int64_t>(state_.scissor.x1, (maxX >> t.bits) + 1);
  const int64_t y0 = std::max<int64_t>(state_.scissor.y0, minY >> t.bits);
  const int64_t y1 = std::min<int64_t>(state_.scissor.y1, (maxY >> t.bits) + 1);
  if (x0 >= x1 || y0 >= y1) return true;
  const int64_t half = int64_t{1} << (t.bits - 1);
  auto inside = [&](int64_t x, int64_t y) {
    if (x < x0 || x >= x1 || y < y0 || y >= y1) return false;
    const int64_t px = (x << t.bits) + half, py = (y << t.bits) + half;
    for (int k = 0; k < 3; ++k) {
      const int a = (k + 1) % 3;
      if (t.B[k] * (py - t.Y[a]) + t.A[k] * (px - t.X[a]) + t.bias[k] < 0) return false;
    }
    return true;
  };
  for (int64_t qy = y0 & ~int64_t{1}; qy < y1; qy += 2) {
    for (int64_t qx = x0 & ~int64_t{1}; qx < x1; qx += 2) {
      uint32_t mask = 0;
      for (uint32_t i = 0; i < 4; ++i)
        if (inside(qx + (i & 1), qy + (i >> 1))) mask |= 1u << i;
      if (mask == 0) continue;
      if (used_ == width_ && !Flush(fault, stopped)) return false;
      for (uint32_t i = 0; i < 4; ++i) {
        const bool covered = (mask >> i) & 1;
        WriteInputs(t, used_ + i, static_cast<int32_t>(qx + (i & 1)), static_cast<int32_t>(qy + (i >> 1)), covered);
        if (covered) covered_ |= uint64_t{1} << (used_ + i);
      }
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
  if (!batch_) {
    execution::ForEachLane(covered, [&](uint32_t l) {
      const Lane& lane = lanes_[l];
      if (merger_.DepthStencil(lane.x, lane.y, lane.z, lane.front)) ++passed_;
    });
    return true;
  }
  execution::InvocationBatch& batch = *batch_;
  const uint64_t live = used == 64 ? ~uint64_t{0} : (uint64_t{1} << used) - 1;
  bool batchStopped = false;
  const execution::ShaderFault f = batch.Run(live, live & ~covered, &batchStopped);
  if (f.kind != execution::ShaderFaultKind::None) {
    if (fault->kind == execution::ShaderFaultKind::None) *fault = f;
    if (batchStopped) return false;
  } else if (batchStopped) {
    *stopped = true;
    return false;
  }
  const execution::Executable& x = *state_.fragment.exe;
  execution::ForEachLane(covered & ~batch.killed(), [&](uint32_t l) {
    if (sampleMaskWord_ != UINT32_MAX && (batch.Row(sampleMaskWord_)[l] & 1) == 0) return;
    const Lane& lane = lanes_[l];
    const float z = fragDepthWord_ != UINT32_MAX ? std::bit_cast<float>(batch.Row(fragDepthWord_)[l]) : lane.z;
    FragmentColors colors;
    for (const execution::InterfaceSlot& out : x.outputs) {
      if (out.location >= FragmentColors::kMaxTargets) continue;
      colors.written |= 1u << out.location;
      VkClearColorValue& value = colors.values[out.location];
      for (uint32_t c = 0; c < out.components && out.component + c < 4; ++c)
        value.uint32[out.component + c] = batch.Row(out.word + c)[l];
    }
    if (merger_.Merge(lane.x, lane.y, z, lane.front, colors)) ++passed_;
  });
  batch.Clear();
  return true;
}

}  // namespace crashtest::raster
