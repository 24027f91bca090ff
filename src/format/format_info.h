// What every VkFormat is: texel block size and extent, components, compression, planes and aspects. The table
// behind GetFormatInfo is generated at build time from vk.xml's <formats> section (gen_format_table.py), so it
// covers every format the installed headers declare.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace crashtest {

enum class ComponentName : uint8_t { kR, kG, kB, kA, kDepth, kStencil };

// vk.xml's numericFormat. kSfixed5 is the signed 10.5 fixed point of VK_NV_optical_flow's R16G16_S10_5_NV.
enum class NumericFormat : uint8_t {
  kUnorm, kSnorm, kUscaled, kSscaled, kUint, kSint, kUfloat, kSfloat, kSrgb, kSfixed5
};

enum class CompressionScheme : uint8_t { kNone, kBc, kEtc2, kEac, kAstcLdr, kAstcHdr, kPvrtc };

// vk.xml marks with a chroma attribute exactly the formats that "require a sampler Y'CbCr conversion" (for
// VK_IMAGE_ASPECT_COLOR_BIT views); k444 covers the non-subsampled ones such as G8_B8_R8_3PLANE_444.
enum class ChromaSubsampling : uint8_t { kNone, k444, k422, k420 };

struct FormatComponent {
  ComponentName name;
  uint8_t bits;  // 0 for the components of block-compressed formats (vk.xml: bits="compressed")
  NumericFormat numericFormat;
  uint8_t planeIndex;  // 0 unless the format is multi-planar
};

struct FormatPlane {
  uint8_t widthDivisor;
  uint8_t heightDivisor;
  VkFormat compatible;  // the single-plane format a view of this plane (or a copy of it) uses
};

struct FormatInfo {
  VkFormat format;
  const char* name;         // "VK_FORMAT_R8G8B8A8_UNORM"
  const char* formatClass;  // vk.xml class, e.g. "32-bit", "BC1_RGB", "8-bit 2-plane 420": the compatibility class
  uint32_t blockSize;       // bytes per texel block (for multi-planar formats: the sum over the planes)
  VkExtent3D blockExtent;   // {1,1,1} unless block-compressed or 422-packed
  uint32_t texelsPerBlock;  // as vk.xml states it
  uint32_t packedBits;      // size of the packed unit in bits (PACK8/16/32), 0 when not packed
  uint32_t componentCount;
  FormatComponent components[4];
  CompressionScheme compression;
  ChromaSubsampling chroma;
  uint32_t planeCount;      // 0 for single-plane formats, 2 or 3 for multi-planar ones
  FormatPlane planes[3];
  VkImageAspectFlags aspects;  // colour (plus PLANE_n for multi-planar), or depth and/or stencil
};

// nullptr for VK_FORMAT_UNDEFINED and for values the table does not know.
const FormatInfo* GetFormatInfo(VkFormat format);

// "VK_FORMAT_..." or "VK_FORMAT_<value>" for unknown values, for messages. Never nullptr.
const char* FormatName(VkFormat format);

bool IsDepthOrStencil(VkFormat format);
bool HasDepth(VkFormat format);
bool HasStencil(VkFormat format);
bool IsCompressed(VkFormat format);
bool IsMultiPlanar(VkFormat format);
// "Formats requiring sampler Y'CbCr conversion for VK_IMAGE_ASPECT_COLOR_BIT image views" (Vulkan 1.3, 34.1.1).
bool RequiresYcbcrConversion(VkFormat format);
// Every component is UINT or SINT (integer formats take the integer sample-count limits).
bool IsIntegerFormat(VkFormat format);
// 0 for unknown formats.
VkImageAspectFlags FormatAspects(VkFormat format);

// Bytes of one texel block of `aspect` as vkCmdCopyImageToBuffer lays it out in a buffer: the whole block for
// colour, the depth or stencil part of packed depth/stencil formats (D16 -> 2, X8_D24 and the depth of D24S8 -> 4,
// D32 -> 4, S8 -> 1; Vulkan 1.3 "Depth/Stencil Formats" in 20.4 "Copying Data Between Buffers and Images"), the
// plane's compatible format for PLANE_n. 0 when the format lacks that aspect or is unknown.
uint32_t TexelBlockSize(VkFormat format, VkImageAspectFlagBits aspect);

// The format a plane of a multi-planar format is viewed and copied as; VK_FORMAT_UNDEFINED if there is none.
VkFormat PlaneFormat(VkFormat format, uint32_t plane);

// Same compatibility class (Vulkan 1.3 "Format Compatibility Classes"): views and copies may reinterpret.
bool AreFormatsCompatible(VkFormat a, VkFormat b);

// Every format the table holds, in vk.xml order (for iteration in tests and tools).
const FormatInfo* FormatTableBegin();
const FormatInfo* FormatTableEnd();

}  // namespace crashtest
