// The per-format converter behind DecodeColor/EncodeColor, built once per format so that loops over many texels
// (clears, blits, resolves) do not look the format up for every texel.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

#include "format/format_info.h"
#include "format/texel_codec.h"
#include "format/unorm4x8.h"

namespace crashtest::format {

class ColorCodec {
 public:
  ColorCodec() = default;  // invalid until assigned one built for a format
  explicit ColorCodec(VkFormat format);

  // False for formats the codec cannot convert (compressed, multi-planar, 422-packed, depth/stencil, unknown).
  bool valid() const { return valid_; }
  ValueKind kind() const { return kind_; }
  uint32_t blockSize() const { return blockSize_; }

  VkClearColorValue Decode(const std::byte* texel) const;
  // Formats of one byte per component, each UNORM or sRGB (most textures): where Decode reads component k (0..3 =
  // R, G, B, A) from — its byte in the texel (0xff: the format lacks it) and the table of its 256 decoded values
  // (nullptr when absent). Lets loops over many texels decode without a call per texel, bit-identically.
  bool bytes8() const { return bytes8_; }
  uint8_t byte8Slot(uint32_t k) const { return slotByte_[k & 3]; }
  const float* byte8Table(uint32_t k) const;
  // RGBA8 or BGRA8 UNORM layouts (kNone for the others), for loops that inline DecodeUnorm4x8/EncodeUnorm4x8.
  Unorm4x8 unorm4x8() const { return unorm4x8_; }
  void Encode(const VkClearColorValue& value, std::byte* texel) const;

  // The texel as a shader's 64-bit integer texel (SPIR-V Int64ImageEXT: OpImageRead/Write with a 64-bit Sampled
  // Type, which VK_EXT_shader_image_atomic_int64 allows for R64_UINT and R64_SINT): every component at full width,
  // uint64 for UINT components and sign-extended for SINT, missing components (0, 0, 0, 1). Formats of narrower
  // components extend their Decode values by the format's kind (their use with a 64-bit type is undefined).
  void Decode64(const std::byte* texel, uint64_t out[4]) const;
  // Writes 64-bit integer values, each truncated to its component's width ("Texel Output Format Conversion":
  // integer values are not clamped). Narrower formats take the low 32 bits through Encode.
  void Encode64(const uint64_t value[4], std::byte* texel) const;
  // True when every component of the format is 64 bits wide (R64*, R64G64*, ...).
  bool wide() const { return wide_; }

 private:
  enum class Special : uint8_t { kNone, kSharedExponent, kB10G11R11 };
  // Formats of one byte per component, each UNORM (or sRGB colour with linear alpha): decoded through exact tables
  // and encoded without the generic path's 64-bit arithmetic. Most textures and render targets are of this kind.
  bool bytes8_ = false;
  uint8_t slotByte_[4] = {0xff, 0xff, 0xff, 0xff};  // bytes8_: the byte of R, G, B, A (0xff: absent)
  bool slotSrgb_[4] = {};
  // bytes8_ formats with four UNORM components stored R, G, B, A or B, G, R, A: decoded and encoded four components
  // at a time (unorm4x8.h), bit-identically to the tables.
  Unorm4x8 unorm4x8_ = Unorm4x8::kNone;
  struct Component {
    uint8_t slot;        // 0..3 = R, G, B, A
    uint8_t bits;
    uint8_t byteOffset;  // of the little-endian word holding the component
    uint8_t wordBytes;   // 1, 2, 4 or 8
    uint8_t shift;       // of the component's least significant bit inside that word
    NumericFormat numeric;
  };

  bool valid_ = false;
  bool wide_ = false;
  Special special_ = Special::kNone;
  ValueKind kind_ = ValueKind::kFloat;
  uint32_t blockSize_ = 0;
  uint32_t componentCount_ = 0;
  Component components_[4] = {};
};

}  // namespace crashtest::format
