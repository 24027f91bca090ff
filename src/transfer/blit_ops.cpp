// Filtered and converting transfers: vkCmdBlitImage2 (scaling, mirroring, nearest and linear filtering, format
// conversion through the texel codec, block-compressed BC sources through their block decoder) and
// vkCmdResolveImage2 (multisample to single-sample).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/log.h"
#include "format/format_info.h"
#include "format/color_codec.h"
#include "format/compressed/block_decoder.h"
#include "transfer/surface_ops.h"

namespace crashtest::transfer {

using format::ColorCodec;
using format::ValueKind;

namespace {

// Maps destination texel centres to source coordinates along one axis: "u = srcOffsets[0].x + (x + 0.5 -
// dstOffsets[0].x) * (srcOffsets[1].x - srcOffsets[0].x) / (dstOffsets[1].x - dstOffsets[0].x)" (Vulkan 1.3,
// 20.5 "Image Copies With Scaling"). Offsets may be in either order: that is how blits mirror.
struct Axis {
  int32_t dst0, dst1, src0, src1;
  uint32_t srcSize;  // texels of the source level along this axis, for clamp-to-edge

  int32_t DstBegin() const { return std::min(dst0, dst1); }
  int32_t DstEnd() const { return std::max(dst0, dst1); }
  float SourceCoordinate(int32_t dst) const {
    return static_cast<float>(src0) + (static_cast<float>(dst) + 0.5f - static_cast<float>(dst0)) *
                                          static_cast<float>(src1 - src0) / static_cast<float>(dst1 - dst0);
  }
  uint32_t Clamp(int64_t i) const { return static_cast<uint32_t>(std::clamp<int64_t>(i, 0, srcSize - 1)); }
  uint32_t Nearest(int32_t dst) const { return Clamp(static_cast<int64_t>(std::floor(SourceCoordinate(dst)))); }
  // The two texels a linear filter reads and the weight of the second ("Linear Filtering", texel centres at .5).
  void Linear(int32_t dst, uint32_t& i0, uint32_t& i1, float& weight) const {
    float u = SourceCoordinate(dst) - 0.5f;
    float base = std::floor(u);
    weight = u - base;
    i0 = Clamp(static_cast<int64_t>(base));
    i1 = Clamp(static_cast<int64_t>(base) + 1);
  }
};

VkClearColorValue Lerp(const VkClearColorValue& a, const VkClearColorValue& b, float t) {
  VkClearColorValue out;
  for (int c = 0; c < 4; ++c) out.float32[c] = a.float32[c] + (b.float32[c] - a.float32[c]) * t;
  return out;
}

struct BlitAspect {
  const ImageSurface& src;
  const ImageSurface& dst;
  const VkImageBlit2& region;
  VkImageAspectFlagBits aspect;
  VkFilter filter;
};

void BlitOneAspect(const BlitAspect& blit) {
  const VkImageBlit2& region = blit.region;
  const VkImageSubresourceLayers& s = region.srcSubresource;
  const VkImageSubresourceLayers& d = region.dstSubresource;
  bool is3D = blit.src.type == VK_IMAGE_TYPE_3D && blit.dst.type == VK_IMAGE_TYPE_3D;
  uint32_t layers = ResolveLayerCount(blit.src, s.baseArrayLayer, s.layerCount);
  PlaneView srcPlane = PlaneAt(blit.src, blit.aspect, s.mipLevel, s.baseArrayLayer);
  PlaneView dstPlane = PlaneAt(blit.dst, blit.aspect, d.mipLevel, d.baseArrayLayer);
  bool colour = blit.aspect == VK_IMAGE_ASPECT_COLOR_BIT;
  ColorCodec srcCodec(colour ? blit.src.format : VK_FORMAT_UNDEFINED);
  ColorCodec dstCodec(colour ? blit.dst.format : VK_FORMAT_UNDEFINED);
  // A block-compressed source (BC1-BC7, ETC2, EAC) is read through its block decoder; its texels are floats.
  const format::BlockDecoder srcBlocks = colour ? format::BlockDecoderFor(blit.src.format) : format::BlockDecoder{};
  const bool compressedSource = srcBlocks.decode != nullptr;
  bool sameFormat = blit.src.format == blit.dst.format;
  bool raw = sameFormat && blit.filter == VK_FILTER_NEAREST && !compressedSource;  // bit-exact copy of the texels
  bool convertible = colour && srcCodec.valid() && dstCodec.valid() &&
                     (srcCodec.kind() == ValueKind::kFloat) == (dstCodec.kind() == ValueKind::kFloat) &&
                     (srcCodec.kind() == ValueKind::kFloat || blit.filter == VK_FILTER_NEAREST);
  if (compressedSource) convertible = dstCodec.valid() && dstCodec.kind() == ValueKind::kFloat;
  Axis ax{region.dstOffsets[0].x, region.dstOffsets[1].x, region.srcOffsets[0].x, region.srcOffsets[1].x,
          srcPlane.extent.width};
  Axis ay{region.dstOffsets[0].y, region.dstOffsets[1].y, region.srcOffsets[0].y, region.srcOffsets[1].y,
          srcPlane.extent.height};
  Axis az{region.dstOffsets[0].z, region.dstOffsets[1].z, region.srcOffsets[0].z, region.srcOffsets[1].z,
          srcPlane.extent.depth};
  auto inside = [](const Axis& a, uint32_t dstSize) {
    return a.DstBegin() >= 0 && static_cast<int64_t>(a.DstEnd()) <= dstSize && a.dst0 != a.dst1;
  };
  bool valid = srcPlane.base != nullptr && dstPlane.base != nullptr && (raw || convertible) &&
               srcPlane.samples == 1 && dstPlane.samples == 1 &&
               (srcPlane.blockExtent.width == 1 || compressedSource) && dstPlane.blockExtent.width == 1 &&
               static_cast<uint64_t>(s.baseArrayLayer) + layers <= blit.src.arrayLayers &&
               static_cast<uint64_t>(d.baseArrayLayer) + layers <= blit.dst.arrayLayers &&
               inside(ax, dstPlane.extent.width) && inside(ay, dstPlane.extent.height) &&
               (!is3D || inside(az, dstPlane.extent.depth));
  if (!valid) {
    CT_WARN("vkCmdBlitImage: cannot blit aspect 0x%x from %s to %s with filter %d (formats, region or binding); "
            "skipped", blit.aspect, FormatName(blit.src.format), FormatName(blit.dst.format), blit.filter);
    return;
  }
  bool linear = blit.filter == VK_FILTER_LINEAR && !raw;
  uint32_t dstZBegin = is3D ? static_cast<uint32_t>(az.DstBegin()) : 0;
  uint32_t dstZEnd = is3D ? static_cast<uint32_t>(az.DstEnd()) : 1;
  for (uint32_t layer = 0; layer < layers; ++layer) {
    PlaneView from = layer == 0 ? srcPlane : PlaneAt(blit.src, blit.aspect, s.mipLevel, s.baseArrayLayer + layer);
    PlaneView to = layer == 0 ? dstPlane : PlaneAt(blit.dst, blit.aspect, d.mipLevel, d.baseArrayLayer + layer);
    auto fetch = [&](uint32_t x, uint32_t y, uint32_t z) {
      if (!compressedSource) return srcCodec.Decode(from.Block(x, y, z));
      float texels[format::kMaxBlockTexels][4];
      const uint32_t w = srcBlocks.width, h = srcBlocks.height;
      srcBlocks.decode(from.Block(x / w, y / h, z), texels);
      VkClearColorValue value;
      std::memcpy(value.float32, texels[(y % h) * w + x % w], sizeof value.float32);
      return value;
    };
    for (uint32_t z = dstZBegin; z < dstZEnd; ++z) {
      for (int32_t y = ay.DstBegin(); y < ay.DstEnd(); ++y) {
        for (int32_t x = ax.DstBegin(); x < ax.DstEnd(); ++x) {
          std::byte* out = to.Block(static_cast<uint32_t>(x), static_cast<uint32_t>(y), z);
          if (!linear) {
            uint32_t sz = is3D ? az.Nearest(static_cast<int32_t>(z)) : 0;
            if (compressedSource) {
              dstCodec.Encode(fetch(ax.Nearest(x), ay.Nearest(y), sz), out);
              continue;
            }
            const std::byte* in = from.Block(ax.Nearest(x), ay.Nearest(y), sz);
            if (raw) std::memcpy(out, in, from.blockSize);
            else dstCodec.Encode(srcCodec.Decode(in), out);
            continue;
          }
          uint32_t x0, x1, y0, y1, z0 = 0, z1 = 0;
          float wx, wy, wz = 0.0f;
          ax.Linear(x, x0, x1, wx);
          ay.Linear(y, y0, y1, wy);
          if (is3D) az.Linear(static_cast<int32_t>(z), z0, z1, wz);
          VkClearColorValue front = Lerp(Lerp(fetch(x0, y0, z0), fetch(x1, y0, z0), wx),
                                         Lerp(fetch(x0, y1, z0), fetch(x1, y1, z0), wx), wy);
          if (is3D && wz != 0.0f) {
            VkClearColorValue back = Lerp(Lerp(fetch(x0, y0, z1), fetch(x1, y0, z1), wx),
                                          Lerp(fetch(x0, y1, z1), fetch(x1, y1, z1), wx), wy);
            front = Lerp(front, back, wz);
          }
          dstCodec.Encode(front, out);
        }
      }
    }
  }
}

}  // namespace

void BlitImage(const ImageSurface& src, const ImageSurface& dst, std::span<const VkImageBlit2> regions,
               VkFilter filter) {
  for (const VkImageBlit2& region : regions)
    for (VkImageAspectFlags rest = region.srcSubresource.aspectMask; rest != 0; rest &= rest - 1)
      BlitOneAspect({src, dst, region, static_cast<VkImageAspectFlagBits>(rest & ~(rest - 1)), filter});
}

void ResolveImage(const ImageSurface& src, const ImageSurface& dst, std::span<const VkImageResolve2> regions) {
  ColorCodec codec(src.format);
  for (const VkImageResolve2& region : regions) {
    const VkImageSubresourceLayers& s = region.srcSubresource;
    const VkImageSubresourceLayers& d = region.dstSubresource;
    uint32_t layers = ResolveLayerCount(src, s.baseArrayLayer, s.layerCount);
    PlaneView srcPlane = PlaneAt(src, VK_IMAGE_ASPECT_COLOR_BIT, s.mipLevel, s.baseArrayLayer);
    PlaneView dstPlane = PlaneAt(dst, VK_IMAGE_ASPECT_COLOR_BIT, d.mipLevel, d.baseArrayLayer);
    auto fits = [&](const PlaneView& plane, const VkOffset3D& offset) {
      return offset.x >= 0 && offset.y >= 0 && offset.z >= 0 &&
             offset.x + static_cast<int64_t>(region.extent.width) <= plane.extent.width &&
             offset.y + static_cast<int64_t>(region.extent.height) <= plane.extent.height &&
             offset.z + static_cast<int64_t>(region.extent.depth) <= plane.extent.depth;
    };
    if (srcPlane.base == nullptr || dstPlane.base == nullptr || !codec.valid() || src.format != dst.format ||
        dstPlane.samples != 1 || static_cast<uint64_t>(s.baseArrayLayer) + layers > src.arrayLayers ||
        static_cast<uint64_t>(d.baseArrayLayer) + layers > dst.arrayLayers || !fits(srcPlane, region.srcOffset) ||
        !fits(dstPlane, region.dstOffset)) {
      CT_WARN("vkCmdResolveImage: cannot resolve %s to %s in this region (format, extent or binding); skipped",
              FormatName(src.format), FormatName(dst.format));
      continue;
    }
    // "If the source format is a floating-point or normalized type, the sample values for each pixel are resolved
    // in an implementation-dependent manner. If the source format is an integer type, a single sample's value is
    // selected for each pixel" (vkCmdResolveImage): crashtest averages, and selects sample 0.
    bool average = codec.kind() == ValueKind::kFloat && srcPlane.samples > 1;
    float inverse = 1.0f / static_cast<float>(srcPlane.samples);
    for (uint32_t layer = 0; layer < layers; ++layer) {
      PlaneView from = PlaneAt(src, VK_IMAGE_ASPECT_COLOR_BIT, s.mipLevel, s.baseArrayLayer + layer);
      PlaneView to = PlaneAt(dst, VK_IMAGE_ASPECT_COLOR_BIT, d.mipLevel, d.baseArrayLayer + layer);
      for (uint32_t z = 0; z < region.extent.depth; ++z) {
        for (uint32_t y = 0; y < region.extent.height; ++y) {
          for (uint32_t x = 0; x < region.extent.width; ++x) {
            const std::byte* samples = from.Block(static_cast<uint32_t>(region.srcOffset.x) + x,
                                                  static_cast<uint32_t>(region.srcOffset.y) + y,
                                                  static_cast<uint32_t>(region.srcOffset.z) + z);
            std::byte* out = to.Block(static_cast<uint32_t>(region.dstOffset.x) + x,
                                      static_cast<uint32_t>(region.dstOffset.y) + y,
                                      static_cast<uint32_t>(region.dstOffset.z) + z);
            if (!average) {
              std::memcpy(out, samples, from.blockSize);
              continue;
            }
            VkClearColorValue sum{};
            for (uint32_t i = 0; i < from.samples; ++i) {
              VkClearColorValue sample = codec.Decode(samples + i * from.blockSize);
              for (int c = 0; c < 4; ++c) sum.float32[c] += sample.float32[c];
            }
            for (float& c : sum.float32) c *= inverse;
            codec.Encode(sum, out);
          }
        }
      }
    }
  }
}

}  // namespace crashtest::transfer
