#include "format/format_info.h"

#include <cstdio>
#include <string_view>

#include "format/format_table.h"

namespace crashtest {

namespace {

bool HasComponent(const FormatInfo& info, ComponentName name) {
  for (uint32_t i = 0; i < info.componentCount; ++i)
    if (info.components[i].name == name) return true;
  return false;
}

uint32_t ComponentBits(const FormatInfo& info, ComponentName name) {
  for (uint32_t i = 0; i < info.componentCount; ++i)
    if (info.components[i].name == name) return info.components[i].bits;
  return 0;
}

}  // namespace

const FormatInfo* GetFormatInfo(VkFormat format) {
  int index = generated::FormatTableIndex(format);
  return index < 0 ? nullptr : &generated::kFormatTable[index];
}

const char* FormatName(VkFormat format) {
  if (const FormatInfo* info = GetFormatInfo(format)) return info->name;
  if (format == VK_FORMAT_UNDEFINED) return "VK_FORMAT_UNDEFINED";
  thread_local char unknown[32];
  std::snprintf(unknown, sizeof(unknown), "VK_FORMAT_<%d>", static_cast<int>(format));
  return unknown;
}

bool HasDepth(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  return info != nullptr && HasComponent(*info, ComponentName::kDepth);
}

bool HasStencil(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  return info != nullptr && HasComponent(*info, ComponentName::kStencil);
}

bool IsDepthOrStencil(VkFormat format) { return HasDepth(format) || HasStencil(format); }

bool IsCompressed(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  return info != nullptr && info->compression != CompressionScheme::kNone;
}

bool IsMultiPlanar(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  return info != nullptr && info->planeCount > 1;
}

bool RequiresYcbcrConversion(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  return info != nullptr && info->chroma != ChromaSubsampling::kNone;
}

bool IsIntegerFormat(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  if (info == nullptr || info->componentCount == 0) return false;
  for (uint32_t i = 0; i < info->componentCount; ++i) {
    NumericFormat n = info->components[i].numericFormat;
    if (n != NumericFormat::kUint && n != NumericFormat::kSint) return false;
  }
  return true;
}

VkImageAspectFlags FormatAspects(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  return info == nullptr ? 0 : info->aspects;
}

uint32_t TexelBlockSize(VkFormat format, VkImageAspectFlagBits aspect) {
  const FormatInfo* info = GetFormatInfo(format);
  if (info == nullptr || (info->aspects & aspect) == 0) return 0;
  switch (aspect) {
    case VK_IMAGE_ASPECT_COLOR_BIT:
      // A multi-planar format has no single block in a buffer: each plane is copied on its own.
      return info->planeCount > 1 ? 0 : info->blockSize;
    case VK_IMAGE_ASPECT_DEPTH_BIT: {
      // "VK_FORMAT_D24_UNORM_S8_UINT / VK_FORMAT_X8_D24_UNORM_PACK32: D24 in a 32-bit word", D16 in 16 bits and
      // D32 in 32 bits: the depth bits rounded up to a power-of-two byte count.
      uint32_t bits = ComponentBits(*info, ComponentName::kDepth);
      return bits <= 16 ? 2 : 4;
    }
    case VK_IMAGE_ASPECT_STENCIL_BIT:
      return 1;  // "VK_FORMAT_S8_UINT: stencil is one byte per texel" in every packed depth/stencil format
    case VK_IMAGE_ASPECT_PLANE_0_BIT:
    case VK_IMAGE_ASPECT_PLANE_1_BIT:
    case VK_IMAGE_ASPECT_PLANE_2_BIT: {
      uint32_t plane = aspect == VK_IMAGE_ASPECT_PLANE_0_BIT ? 0 : aspect == VK_IMAGE_ASPECT_PLANE_1_BIT ? 1 : 2;
      const FormatInfo* planeInfo = GetFormatInfo(PlaneFormat(format, plane));
      return planeInfo == nullptr ? 0 : planeInfo->blockSize;
    }
    default:
      return 0;
  }
}

VkFormat PlaneFormat(VkFormat format, uint32_t plane) {
  const FormatInfo* info = GetFormatInfo(format);
  if (info == nullptr || plane >= info->planeCount) return VK_FORMAT_UNDEFINED;
  return info->planes[plane].compatible;
}

bool AreFormatsCompatible(VkFormat a, VkFormat b) {
  if (a == b) return GetFormatInfo(a) != nullptr;
  const FormatInfo* infoA = GetFormatInfo(a);
  const FormatInfo* infoB = GetFormatInfo(b);
  if (infoA == nullptr || infoB == nullptr) return false;
  // vk.xml's class is the compatibility class; every depth/stencil format has a class of its own ("D24S8").
  return std::string_view(infoA->formatClass) == infoB->formatClass;
}

const FormatInfo* FormatTableBegin() { return generated::kFormatTable; }
const FormatInfo* FormatTableEnd() {
  return generated::kFormatTable + sizeof(generated::kFormatTable) / sizeof(generated::kFormatTable[0]);
}

}  // namespace crashtest
