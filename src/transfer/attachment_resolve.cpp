#include "transfer/attachment_resolve.h"

#include <algorithm>
#include <cstring>

#include "transfer/surface.h"

namespace crashtest::transfer {
namespace {

// A depth sample as a number whose order is the depth order, and back. Depth planes hold D16 (2 bytes), X8_D24
// (4 bytes, depth in the low 24 bits) or D32 float (4 bytes) samples.
double ReadDepth(VkFormat format, const std::byte* sample) {
  switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT: {
      uint16_t v;
      std::memcpy(&v, sample, sizeof(v));
      return v;
    }
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: {
      uint32_t v;
      std::memcpy(&v, sample, sizeof(v));
      return v & 0xFFFFFFu;
    }
    default: {
      float v;
      std::memcpy(&v, sample, sizeof(v));
      return v;
    }
  }
}

void WriteDepth(VkFormat format, double value, std::byte* out) {
  switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT: {
      auto v = static_cast<uint16_t>(value + 0.5);
      std::memcpy(out, &v, sizeof(v));
      return;
    }
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: {
      auto v = static_cast<uint32_t>(value + 0.5) & 0xFFFFFFu;
      std::memcpy(out, &v, sizeof(v));
      return;
    }
    default: {
      auto v = static_cast<float>(value);
      std::memcpy(out, &v, sizeof(v));
      return;
    }
  }
}

void ResolveColorLayer(const AttachmentView& src, const AttachmentView& dst, const VkRect2D& area, uint32_t srcLayer,
                       uint32_t dstLayer) {
  VkImageResolve2 region{};
  region.sType = VK_STRUCTURE_TYPE_IMAGE_RESOLVE_2;
  region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, src.range.baseMipLevel, srcLayer, 1};
  region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, dst.range.baseMipLevel, dstLayer, 1};
  region.srcOffset = {area.offset.x, area.offset.y, 0};
  region.dstOffset = region.srcOffset;
  region.extent = {area.extent.width, area.extent.height, 1};
  ResolveImage(*src.image, *dst.image, std::span(&region, 1));
}

void ResolveDepthStencilLayer(const AttachmentView& src, const AttachmentView& dst, VkImageAspectFlagBits aspect,
                              VkResolveModeFlagBits mode, const VkRect2D& area, uint32_t srcLayer, uint32_t dstLayer) {
  PlaneView from = PlaneAt(*src.image, aspect, src.range.baseMipLevel, srcLayer);
  PlaneView to = PlaneAt(*dst.image, aspect, dst.range.baseMipLevel, dstLayer);
  if (from.base == nullptr || to.base == nullptr || to.samples != 1 || from.blockSize != to.blockSize) return;
  // The render area is within both attachments (VUIDs of VkRenderPassBeginInfo / VkRenderingInfo); clip anyway.
  const int64_t x0 = std::max<int64_t>(area.offset.x, 0), y0 = std::max<int64_t>(area.offset.y, 0);
  const int64_t x1 = std::min<int64_t>({area.offset.x + static_cast<int64_t>(area.extent.width), from.extent.width,
                                        to.extent.width});
  const int64_t y1 = std::min<int64_t>({area.offset.y + static_cast<int64_t>(area.extent.height), from.extent.height,
                                        to.extent.height});
  const bool stencil = aspect == VK_IMAGE_ASPECT_STENCIL_BIT;
  for (int64_t y = y0; y < y1; ++y) {
    for (int64_t x = x0; x < x1; ++x) {
      const std::byte* samples = from.Block(static_cast<uint32_t>(x), static_cast<uint32_t>(y), 0);
      std::byte* out = to.Block(static_cast<uint32_t>(x), static_cast<uint32_t>(y), 0);
      if (mode == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT || from.samples == 1) {
        std::memcpy(out, samples, from.blockSize);
        continue;
      }
      auto value = [&](uint32_t i) {
        const std::byte* sample = samples + static_cast<size_t>(i) * from.blockSize;
        return stencil ? static_cast<double>(std::to_integer<uint8_t>(*sample)) : ReadDepth(src.format, sample);
      };
      double result = value(0);
      for (uint32_t i = 1; i < from.samples; ++i) {
        double v = value(i);
        if (mode == VK_RESOLVE_MODE_MIN_BIT) result = std::min(result, v);
        else if (mode == VK_RESOLVE_MODE_MAX_BIT) result = std::max(result, v);
        else result += v;  // AVERAGE (depth only)
      }
      if (mode == VK_RESOLVE_MODE_AVERAGE_BIT) result /= from.samples;
      if (stencil)
        *out = std::byte{static_cast<uint8_t>(result)};
      else
        WriteDepth(dst.format, result, out);
    }
  }
}

}  // namespace

void ResolveAttachment(const AttachmentView& src, const AttachmentView& dst, VkImageAspectFlagBits aspect,
                       VkResolveModeFlagBits mode, const VkRect2D& area, uint32_t layerCount, uint32_t viewMask) {
  if (mode == VK_RESOLVE_MODE_NONE || src.image == nullptr || dst.image == nullptr) return;
  auto resolveLayer = [&](uint32_t layer) {
    const uint32_t srcLayer = src.range.baseArrayLayer + layer, dstLayer = dst.range.baseArrayLayer + layer;
    if (aspect == VK_IMAGE_ASPECT_COLOR_BIT)
      ResolveColorLayer(src, dst, area, srcLayer, dstLayer);
    else
      ResolveDepthStencilLayer(src, dst, aspect, mode, area, srcLayer, dstLayer);
  };
  if (viewMask != 0) {
    for (uint32_t bit = 0; bit < 32; ++bit)
      if ((viewMask & (1u << bit)) != 0) resolveLayer(bit);
    return;
  }
  for (uint32_t layer = 0; layer < layerCount; ++layer) resolveLayer(layer);
}

}  // namespace crashtest::transfer
