// Conversion between the bytes of one texel block and RGBA values, for clears, blits, resolves and the
// shader engine's image reads, writes and sampling (src/execution, src/sampling). Covers every
// uncompressed single-plane colour format whose block is one texel, the depth aspects (D16, D24 in 4 bytes, D32)
// and S8 stencil, as crashtest stores them (one plane per aspect, laid out like vkCmdCopyImageToBuffer's buffer).
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

namespace crashtest::format {

// What a format's values are in the shader-facing representation (Vulkan 1.3 "Texel Input Operations"): float for
// UNORM/SNORM/USCALED/SSCALED/UFLOAT/SFLOAT/SRGB (and depth), uint32 for UINT (and stencil), int32 for SINT.
enum class ValueKind : uint8_t { kFloat, kUint, kSint };

// False for compressed, multi-planar and 422-packed formats and for formats the codec does not know.
bool CodecSupports(VkFormat format);
ValueKind ValueKindOf(VkFormat format);

// The texel at `texel` as RGBA; missing components read as (0, 0, 0, 1) ("Conversion to RGBA"). SRGB colour
// components come back linear. Only for formats CodecSupports.
VkClearColorValue DecodeColor(VkFormat format, const std::byte* texel);

// Writes `value` (in the format's ValueKind) into one block. Float values are converted as for clears and stores:
// normalized formats clamp and round to nearest, SRGB colour components are encoded linear → sRGB, floats round to
// nearest even. Integer values are truncated to the component width, as "Clear Values" requires for clears.
void EncodeColor(VkFormat format, const VkClearColorValue& value, std::byte* texel);

// Depth as stored in the depth plane of `format` (2 bytes for D16, 4 for D24 with the depth in the low 24 bits,
// 4 for D32), and stencil as its 1-byte plane.
float DecodeDepth(VkFormat format, const std::byte* texel);
void EncodeDepth(VkFormat format, float depth, std::byte* texel);

// The spec's sRGB transfer functions (Khronos Data Format Specification, "sRGB EOTF" and its inverse).
float SrgbToLinear(float encoded);
float LinearToSrgb(float linear);

// IEEE binary16 <-> binary32, round to nearest even.
float HalfToFloat(uint16_t half);
uint16_t FloatToHalf(float value);

}  // namespace crashtest::format
