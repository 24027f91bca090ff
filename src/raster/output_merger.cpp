#include "raster/output_merger.h"

#include <algorithm>
#include <cmath>

#include "format/format_info.h"
#include "format/texel_codec.h"
#include "sampling/texel_access.h"

namespace crashtest::raster {
namespace {

uint8_t StencilOp(VkStencilOp op, uint8_t value, uint8_t reference) {
  switch (op) {
    case VK_STENCIL_OP_ZERO: return 0;
    case VK_STENCIL_OP_REPLACE: return reference;
    case VK_STENCIL_OP_INCREMENT_AND_CLAMP: return value == 0xff ? value : static_cast<uint8_t>(value + 1);
    case VK_STENCIL_OP_DECREMENT_AND_CLAMP: return value == 0 ? value : static_cast<uint8_t>(value - 1);
    case VK_STENCIL_OP_INVERT: return static_cast<uint8_t>(~value);
    case VK_STENCIL_OP_INCREMENT_AND_WRAP: return static_cast<uint8_t>(value + 1);
    case VK_STENCIL_OP_DECREMENT_AND_WRAP: return static_cast<uint8_t>(value - 1);
    default: return value;  // KEEP
  }
}

bool IsFixedPointDepth(VkFormat format) {
  return format == VK_FORMAT_D16_UNORM || format == VK_FORMAT_D16_UNORM_S8_UINT ||
         format == VK_FORMAT_X8_D24_UNORM_PACK32 || format == VK_FORMAT_D24_UNORM_S8_UINT;
}

// "Blend Factors" (29.1.1): the factor for one component c (3 = alpha) of source s, destination d, constants k
// and the second source s1 (Location 0, Index 1: "Dual-Source Blending", 29.1.4).
float Factor(VkBlendFactor f, uint32_t c, const float s[4], const float d[4], const float k[4], const float s1[4]) {
  switch (f) {
    case VK_BLEND_FACTOR_ZERO: return 0.0f;
    case VK_BLEND_FACTOR_ONE: return 1.0f;
    case VK_BLEND_FACTOR_SRC_COLOR: return s[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1.0f - s[c];
    case VK_BLEND_FACTOR_DST_COLOR: return d[c];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1.0f - d[c];
    case VK_BLEND_FACTOR_SRC_ALPHA: return s[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1.0f - s[3];
    case VK_BLEND_FACTOR_DST_ALPHA: return d[3];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 1.0f - d[3];
    case VK_BLEND_FACTOR_CONSTANT_COLOR: return k[c];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 1.0f - k[c];
    case VK_BLEND_FACTOR_CONSTANT_ALPHA: return k[3];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 1.0f - k[3];
    case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return c == 3 ? 1.0f : std::min(s[3], 1.0f - d[3]);
    case VK_BLEND_FACTOR_SRC1_COLOR: return s1[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return 1.0f - s1[c];
    case VK_BLEND_FACTOR_SRC1_ALPHA: return s1[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return 1.0f - s1[3];
    default: return 0.0f;
  }
}

// "Logical Operations" (29.2, table "Logical Operations"): s is the source, d the destination.
uint8_t Logic(VkLogicOp op, uint8_t s, uint8_t d) {
  switch (op) {
    case VK_LOGIC_OP_CLEAR: return 0;
    case VK_LOGIC_OP_AND: return s & d;
    case VK_LOGIC_OP_AND_REVERSE: return s & ~d;
    case VK_LOGIC_OP_COPY: return s;
    case VK_LOGIC_OP_AND_INVERTED: return ~s & d;
    case VK_LOGIC_OP_NO_OP: return d;
    case VK_LOGIC_OP_XOR: return s ^ d;
    case VK_LOGIC_OP_OR: return s | d;
    case VK_LOGIC_OP_NOR: return ~(s | d);
    case VK_LOGIC_OP_EQUIVALENT: return ~(s ^ d);
    case VK_LOGIC_OP_INVERT: return ~d;
    case VK_LOGIC_OP_OR_REVERSE: return s | ~d;
    case VK_LOGIC_OP_COPY_INVERTED: return ~s;
    case VK_LOGIC_OP_OR_INVERTED: return ~s | d;
    case VK_LOGIC_OP_NAND: return ~(s & d);
    default: return 0xff;  // SET
  }
}

float BlendOp(VkBlendOp op, float s, float sf, float d, float df) {
  switch (op) {
    case VK_BLEND_OP_SUBTRACT: return s * sf - d * df;
    case VK_BLEND_OP_REVERSE_SUBTRACT: return d * df - s * sf;
    case VK_BLEND_OP_MIN: return std::min(s, d);
    case VK_BLEND_OP_MAX: return std::max(s, d);
    default: return s * sf + d * df;  // ADD
  }
}

}  // namespace

OutputMerger::OutputMerger(const DrawState& state) : state_(state) {
  clampZeroOne_ = state.depthStencil.depth.bound && IsFixedPointDepth(state.depthStencil.depth.format);
}

bool OutputMerger::DepthStencil(int32_t x, int32_t y, float z, bool front, uint32_t sample) {
  const auto layer = static_cast<int32_t>(state_.viewIndex);
  const DepthStencilState& ds = state_.depthStencil;
  std::byte* depthTexel = ds.depth.bound ? sampling::TexelAddress(ds.depth, 0, x, y, 0, layer, sample) : nullptr;
  std::byte* stencilTexel = ds.stencil.bound ? sampling::TexelAddress(ds.stencil, 0, x, y, 0, layer, sample) : nullptr;
  if (state_.raster.depthClamp) {
    // "Depth Clamping and Range Adjustment": with depthClampEnable, zf is clamped to [min(n, f), max(n, f)] of the
    // viewport's depth range (clipping against z was skipped, binner.cpp).
    const Viewport& v = state_.viewport;
    z = std::clamp(z, std::min(v.minDepth, v.maxDepth), std::max(v.minDepth, v.maxDepth));
  }
  if (clampZeroOne_) z = std::clamp(z, 0.0f, 1.0f);
  const float stored = depthTexel != nullptr ? format::DecodeDepth(ds.depth.format, depthTexel) : 0.0f;
  // "Depth Bounds Test" (28.8): the stored depth must lie in [minDepthBounds, maxDepthBounds].
  if (ds.depthBoundsTest && depthTexel != nullptr && (stored < ds.minDepthBounds || stored > ds.maxDepthBounds))
    return false;
  const StencilFace& face = front ? ds.front : ds.back;
  const bool stencil = ds.stencilTest && stencilTexel != nullptr;
  uint8_t stencilValue = stencil ? static_cast<uint8_t>(*stencilTexel) : 0;
  auto writeStencil = [&](VkStencilOp op) {
    const uint8_t updated = StencilOp(op, stencilValue, static_cast<uint8_t>(face.reference));
    const uint8_t mask = static_cast<uint8_t>(face.writeMask);
    *stencilTexel = static_cast<std::byte>((stencilValue & ~mask) | (updated & mask));
  };
  if (stencil) {
    // "Stencil Test" (28.9): (reference & compareMask) op (stored & compareMask).
    const uint32_t reference = face.reference & face.compareMask, masked = stencilValue & face.compareMask;
    if (!CompareOp(face.compareOp, reference, masked)) {
      writeStencil(face.failOp);
      return false;
    }
  }
  bool depthPass = true;
  if (ds.depthTest && depthTexel != nullptr) depthPass = CompareOp(ds.depthCompare, z, stored);
  if (stencil) writeStencil(depthPass ? face.passOp : face.depthFailOp);
  if (!depthPass) return false;
  if (ds.depthTest && ds.depthWrite && depthTexel != nullptr) format::EncodeDepth(ds.depth.format, z, depthTexel);
  return true;
}

bool OutputMerger::LogicOp(const ColorTarget& target, const VkClearColorValue& source, std::byte* texel) const {
  const sampling::ImageDescriptor& image = target.image;
  const FormatInfo* info = GetFormatInfo(image.format);
  if (info == nullptr || info->componentCount == 0) return false;
  // "Logical operations are applied only for signed and unsigned integer and normalized integer framebuffers."
  const NumericFormat numeric = info->components[0].numericFormat;
  if (numeric != NumericFormat::kUnorm && numeric != NumericFormat::kSnorm && numeric != NumericFormat::kUint &&
      numeric != NumericFormat::kSint)
    return false;
  const uint32_t bytes = image.texelBytes;
  if (bytes == 0 || bytes > 16) return false;
  // The source is converted to the format first (normalized values to fixed point, 3.9.2); the operation is then
  // bitwise, so it runs byte by byte on the packed texels.
  std::byte s[16], result[16];
  image.codec.Encode(source, s);
  for (uint32_t i = 0; i < bytes; ++i)
    result[i] = static_cast<std::byte>(
        Logic(state_.logicOp, static_cast<uint8_t>(s[i]), static_cast<uint8_t>(texel[i])));
  if (target.blend.writeMask != 0xf) {
    // Components outside the write mask keep their stored value.
    const VkClearColorValue old = image.codec.Decode(texel);
    VkClearColorValue out = image.codec.Decode(result);
    for (uint32_t c = 0; c < 4; ++c)
      if ((target.blend.writeMask & (1u << c)) == 0) out.uint32[c] = old.uint32[c];
    image.codec.Encode(out, result);
  }
  std::copy_n(result, bytes, texel);
  return true;
}

void OutputMerger::Blend(const ColorTarget& target, const VkClearColorValue& source,
                         const VkClearColorValue& source1, std::byte* texel) const {
  if (state_.logicOpEnable && LogicOp(target, source, texel)) return;
  const sampling::ImageDescriptor& image = target.image;
  const BlendState& blend = target.blend;
  const bool isFloat = image.kind == format::ValueKind::kFloat;
  VkClearColorValue out = source;
  if (isFloat && (blend.enable || blend.writeMask != 0xf)) {
    const VkClearColorValue old = image.codec.Decode(texel);
    if (blend.enable) {
      // Fixed-point attachments clamp the source (and constants) to their range before blending (29.1).
      float lo = -INFINITY, hi = INFINITY;
      if (const FormatInfo* info = GetFormatInfo(image.format); info != nullptr && info->componentCount != 0) {
        const NumericFormat numeric = info->components[0].numericFormat;
        if (numeric == NumericFormat::kUnorm || numeric == NumericFormat::kSrgb) lo = 0, hi = 1;
        if (numeric == NumericFormat::kSnorm) lo = -1, hi = 1;
      }
      float s[4], d[4], k[4], s1[4];
      for (uint32_t c = 0; c < 4; ++c) {
        s[c] = std::clamp(source.float32[c], lo, hi);
        s1[c] = std::clamp(source1.float32[c], lo, hi);
        d[c] = old.float32[c];
        k[c] = std::clamp(state_.blendConstants[c], lo, hi);
      }
      for (uint32_t c = 0; c < 4; ++c) {
        const bool alpha = c == 3;
        const float sf = Factor(alpha ? blend.srcAlpha : blend.srcColor, c, s, d, k, s1);
        const float df = Factor(alpha ? blend.dstAlpha : blend.dstColor, c, s, d, k, s1);
        out.float32[c] = BlendOp(alpha ? blend.alphaOp : blend.colorOp, s[c], sf, d[c], df);
      }
    }
    for (uint32_t c = 0; c < 4; ++c)
      if ((blend.writeMask & (1u << c)) == 0) out.float32[c] = old.float32[c];
  } else if (!isFloat && blend.writeMask != 0xf) {
    // Integer attachments are never blended ("blending is only defined for ... floating-point" formats).
    const VkClearColorValue old = image.codec.Decode(texel);
    for (uint32_t c = 0; c < 4; ++c)
      if ((blend.writeMask & (1u << c)) == 0) out.uint32[c] = old.uint32[c];
  }
  image.codec.Encode(out, texel);
}

bool OutputMerger::Merge(int32_t x, int32_t y, float z, bool front, const FragmentColors& colors, uint32_t sample) {
  if (!DepthStencil(x, y, z, front, sample)) return false;
  WriteColors(x, y, colors, sample);
  return true;
}

void OutputMerger::WriteColors(int32_t x, int32_t y, const FragmentColors& colors, uint32_t sample) {
  const auto layer = static_cast<int32_t>(state_.viewIndex);
  const uint32_t targets = std::min<uint32_t>(static_cast<uint32_t>(state_.colors.size()), FragmentColors::kMaxTargets);
  for (uint32_t t = 0; t < targets; ++t) {
    const ColorTarget& target = state_.colors[t];
    if (!target.image.bound || (colors.written & (1u << t)) == 0 || target.blend.writeMask == 0) continue;
    std::byte* texel = sampling::TexelAddress(target.image, 0, x, y, 0, layer, sample);
    if (texel != nullptr) Blend(target, colors.values[t], colors.source1, texel);
  }
}

}  // namespace crashtest::raster
