#include "format/texel_codec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "format/format_info.h"
#include "format/color_codec.h"

namespace crashtest::format {

namespace {

uint64_t LowMask(uint32_t bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

uint64_t ReadWord(const std::byte* at, uint32_t bytes) {
  uint64_t word = 0;
  std::memcpy(&word, at, bytes);  // little-endian host, as the formats are defined on little-endian words
  return word;
}

void WriteWord(std::byte* at, uint32_t bytes, uint64_t word) { std::memcpy(at, &word, bytes); }

// An unsigned float of 5 exponent bits and `mantissaBits` mantissa bits (the 10- and 11-bit floats of
// B10G11R11_UFLOAT; Vulkan 1.3 "Unsigned 11-Bit/10-Bit Floating-Point Numbers").
float SmallFloatToFloat(uint32_t bits, uint32_t mantissaBits) {
  uint32_t exponent = bits >> mantissaBits;
  uint32_t mantissa = bits & static_cast<uint32_t>(LowMask(mantissaBits));
  float scale = std::ldexp(1.0f, -static_cast<int>(mantissaBits));
  if (exponent == 0) return std::ldexp(static_cast<float>(mantissa) * scale, -14);
  if (exponent == 31) return mantissa == 0 ? INFINITY : NAN;
  return std::ldexp(1.0f + static_cast<float>(mantissa) * scale, static_cast<int>(exponent) - 15);
}

uint32_t FloatToSmallFloat(float value, uint32_t mantissaBits) {
  uint32_t infinity = 31u << mantissaBits;
  if (std::isnan(value)) return infinity | 1u;
  if (!(value > 0.0f)) return 0;  // negative values and -0 become 0: the format has no sign
  if (std::isinf(value)) return infinity;
  int exponent;
  std::frexp(value, &exponent);  // value = f * 2^exponent, f in [0.5, 1)
  int biased = std::max(exponent - 1 + 15, 0);
  // Step between representable values around `value`; denormals share the step of exponent 1.
  float step = std::ldexp(1.0f, std::max(biased, 1) - 15 - static_cast<int>(mantissaBits));
  float units = std::nearbyint(value / step);  // round to nearest even
  uint32_t encoded;
  if (biased == 0) {
    encoded = static_cast<uint32_t>(units);  // may carry into the smallest normal, which is the right encoding
  } else {
    encoded = (static_cast<uint32_t>(biased) << mantissaBits) + (static_cast<uint32_t>(units) - (1u << mantissaBits));
  }
  return std::min(encoded, infinity);  // overflow rounds to infinity, as IEEE conversion does
}

// "Shared Exponent" (Vulkan 1.3, 16.5.4 "Shared exponent conversion"): N = 9 mantissa bits, B = 15, Emax = 31.
constexpr int kSharedN = 9, kSharedB = 15, kSharedEmax = 31;

uint32_t EncodeSharedExponent(const float rgb[3]) {
  const float sharedMax = static_cast<float>((1 << kSharedN) - 1) / static_cast<float>(1 << kSharedN) *
                          std::ldexp(1.0f, kSharedEmax - kSharedB);
  float clamped[3];
  for (int i = 0; i < 3; ++i) clamped[i] = std::isnan(rgb[i]) ? 0.0f : std::clamp(rgb[i], 0.0f, sharedMax);
  float maxC = std::max({clamped[0], clamped[1], clamped[2]});
  int expPrime = (maxC > 0.0f ? std::max(-kSharedB - 1, static_cast<int>(std::floor(std::log2(maxC)))) : -kSharedB - 1) +
                 1 + kSharedB;
  float maxS = std::floor(maxC / std::ldexp(1.0f, expPrime - kSharedB - kSharedN) + 0.5f);
  int expShared = maxS < static_cast<float>(1 << kSharedN) ? expPrime : expPrime + 1;
  uint32_t word = static_cast<uint32_t>(expShared) << 27;
  for (int i = 0; i < 3; ++i) {
    auto s = static_cast<uint32_t>(std::floor(clamped[i] / std::ldexp(1.0f, expShared - kSharedB - kSharedN) + 0.5f));
    word |= std::min(s, 511u) << (9 * i);
  }
  return word;
}

void DecodeSharedExponent(uint32_t word, float rgb[3]) {
  int exponent = static_cast<int>(word >> 27);
  for (int i = 0; i < 3; ++i)
    rgb[i] = std::ldexp(static_cast<float>((word >> (9 * i)) & 511u), exponent - kSharedB - kSharedN);
}

int ComponentSlot(ComponentName name) {
  switch (name) {
    case ComponentName::kR: return 0;
    case ComponentName::kG: return 1;
    case ComponentName::kB: return 2;
    case ComponentName::kA: return 3;
    default: return 0;  // depth and stencil read into the first slot
  }
}

}  // namespace

float SrgbToLinear(float encoded) {
  return encoded <= 0.04045f ? encoded / 12.92f : std::pow((encoded + 0.055f) / 1.055f, 2.4f);
}

float LinearToSrgb(float linear) {
  if (!(linear > 0.0f)) return 0.0f;
  if (linear >= 1.0f) return 1.0f;
  return linear <= 0.0031308f ? linear * 12.92f : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
}

float HalfToFloat(uint16_t half) {
  uint32_t sign = static_cast<uint32_t>(half >> 15) << 31;
  uint32_t exponent = (half >> 10) & 31u;
  uint32_t mantissa = half & 1023u;
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  float magnitude = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -24)
                                  : std::ldexp(static_cast<float>(mantissa | 1024u), static_cast<int>(exponent) - 25);
  return sign ? -magnitude : magnitude;
}

uint16_t FloatToHalf(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  if (std::isnan(value)) return static_cast<uint16_t>(sign | 0x7e00u);
  float magnitude = std::fabs(value);
  if (std::isinf(value) || magnitude >= 65520.0f) return static_cast<uint16_t>(sign | 0x7c00u);
  // A signed half is the unsigned 5-bit-exponent float with 10 mantissa bits plus a sign bit.
  return static_cast<uint16_t>(sign | FloatToSmallFloat(magnitude, 10));
}

ColorCodec::ColorCodec(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  if (info == nullptr || info->compression != CompressionScheme::kNone || info->planeCount != 0 ||
      info->blockExtent.width != 1 || info->blockExtent.height != 1 || info->blockExtent.depth != 1 ||
      info->componentCount == 0)
    return;
  blockSize_ = info->blockSize;
  if (format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) {
    special_ = Special::kSharedExponent;
  } else if (format == VK_FORMAT_B10G11R11_UFLOAT_PACK32) {
    // Spelled out because the 1.3.239 registry gives R 10 bits; the format is R11 (bits 0-10), G11 (11-21), B10.
    special_ = Special::kB10G11R11;
  }
  NumericFormat first = info->components[0].numericFormat;
  kind_ = first == NumericFormat::kUint ? ValueKind::kUint : first == NumericFormat::kSint ? ValueKind::kSint
                                                                                          : ValueKind::kFloat;
  componentCount_ = info->componentCount;
  uint32_t packedUnits = info->packedBits == 0 ? 0 : info->blockSize * 8 / info->packedBits;
  uint32_t nextByte = 0;
  uint32_t nextTopBit = info->packedBits;  // packed into one word: first component in the most significant bits
  for (uint32_t i = 0; i < info->componentCount; ++i) {
    const FormatComponent& source = info->components[i];
    Component& c = components_[i];
    c.slot = static_cast<uint8_t>(ComponentSlot(source.name));
    c.bits = source.bits;
    c.numeric = source.numericFormat;
    // "the alpha component of an sRGB format is linear" (Vulkan 1.3, 3.9.2 "sRGB transfer functions").
    if (c.numeric == NumericFormat::kSrgb && source.name == ComponentName::kA) c.numeric = NumericFormat::kUnorm;
    if (info->packedBits == 0) {
      c.byteOffset = static_cast<uint8_t>(nextByte);
      c.wordBytes = static_cast<uint8_t>(source.bits / 8);
      c.shift = 0;
      nextByte += source.bits / 8;
    } else if (packedUnits > 1) {
      // R10X6G10X6..._4PACK16: one component per packed word, in its most significant bits.
      c.wordBytes = static_cast<uint8_t>(info->packedBits / 8);
      c.byteOffset = static_cast<uint8_t>(i * c.wordBytes);
      c.shift = static_cast<uint8_t>(info->packedBits - source.bits);
    } else {
      c.wordBytes = static_cast<uint8_t>(info->packedBits / 8);
      c.byteOffset = 0;
      nextTopBit -= source.bits;
      c.shift = static_cast<uint8_t>(nextTopBit);
    }
  }
  bytes8_ = special_ == Special::kNone && info->packedBits == 0;
  for (uint32_t i = 0; i < componentCount_; ++i)
    if (components_[i].bits != 8 ||
        (components_[i].numeric != NumericFormat::kUnorm && components_[i].numeric != NumericFormat::kSrgb))
      bytes8_ = false;
  if (bytes8_) {
    for (uint32_t i = 0; i < componentCount_; ++i) {
      slotByte_[components_[i].slot] = components_[i].byteOffset;
      slotSrgb_[components_[i].slot] = components_[i].numeric == NumericFormat::kSrgb;
    }
    const bool unorm = componentCount_ == 4 && !slotSrgb_[0] && !slotSrgb_[1] && !slotSrgb_[2] && !slotSrgb_[3];
    if (unorm && slotByte_[0] == 0 && slotByte_[1] == 1 && slotByte_[2] == 2 && slotByte_[3] == 3)
      unorm4x8_ = Unorm4x8::kRgba;
    if (unorm && slotByte_[0] == 2 && slotByte_[1] == 1 && slotByte_[2] == 0 && slotByte_[3] == 3)
      unorm4x8_ = Unorm4x8::kBgra;
  }
  wide_ = special_ == Special::kNone && info->packedBits == 0;
  for (uint32_t i = 0; i < componentCount_; ++i) wide_ = wide_ && components_[i].bits == 64;
  valid_ = true;
}

namespace {

// Decoded values of every 8-bit UNORM and sRGB code, computed by the generic formulas below, so the tables give
// bit-identical results.
struct Byte8Tables {
  float unorm[256], srgb[256];
  Byte8Tables() {
    for (uint32_t i = 0; i < 256; ++i) {
      unorm[i] = static_cast<float>(static_cast<double>(i) / 255.0);
      srgb[i] = SrgbToLinear(static_cast<float>(i) / 255.0f);
    }
  }
};
const Byte8Tables kByte8;

uint8_t EncodeUnorm8(float f) {
  // As the generic path: NaN is 0, clamp to [0, 1], scale, round to nearest even.
  if (!(f > 0.0f)) return 0;
  if (f >= 1.0f) return 255;
  return static_cast<uint8_t>(std::nearbyint(static_cast<double>(f) * 255.0));
}

}  // namespace

const float* ColorCodec::byte8Table(uint32_t k) const {
  if (!bytes8_ || slotByte_[k & 3] == 0xff) return nullptr;
  return slotSrgb_[k & 3] ? kByte8.srgb : kByte8.unorm;
}

VkClearColorValue ColorCodec::Decode(const std::byte* texel) const {
#if defined(CRASHTEST_HAVE_UNORM4X8)
  if (unorm4x8_ != Unorm4x8::kNone) {
    VkClearColorValue value;
    _mm_storeu_ps(value.float32, DecodeUnorm4x8(texel, unorm4x8_));
    return value;
  }
#endif
  if (bytes8_) {
    // Each slot computed on its own (no stores through a run-time index): the result stays in registers.
    auto slot = [&](int k, float absent) {
      if (slotByte_[k] == 0xff) return absent;
      const auto code = static_cast<uint8_t>(texel[slotByte_[k]]);
      return slotSrgb_[k] ? kByte8.srgb[code] : kByte8.unorm[code];
    };
    VkClearColorValue value;
    value.float32[0] = slot(0, 0.0f);
    value.float32[1] = slot(1, 0.0f);
    value.float32[2] = slot(2, 0.0f);
    value.float32[3] = slot(3, 1.0f);
    return value;
  }
  VkClearColorValue out{};
  if (kind_ == ValueKind::kFloat) out.float32[3] = 1.0f; else out.uint32[3] = 1;
  if (special_ == Special::kSharedExponent) {
    DecodeSharedExponent(static_cast<uint32_t>(ReadWord(texel, 4)), out.float32);
    return out;
  }
  if (special_ == Special::kB10G11R11) {
    auto word = static_cast<uint32_t>(ReadWord(texel, 4));
    out.float32[0] = SmallFloatToFloat(word & 0x7ffu, 6);
    out.float32[1] = SmallFloatToFloat((word >> 11) & 0x7ffu, 6);
    out.float32[2] = SmallFloatToFloat(word >> 22, 5);
    return out;
  }
  for (uint32_t i = 0; i < componentCount_; ++i) {
    const Component& c = components_[i];
    uint64_t raw = (ReadWord(texel + c.byteOffset, c.wordBytes) >> c.shift) & LowMask(c.bits);
    uint64_t signBit = uint64_t{1} << (c.bits - 1);
    auto asSigned = static_cast<int64_t>((raw ^ signBit) - signBit);  // sign-extend
    float& f = out.float32[c.slot];
    switch (c.numeric) {
      case NumericFormat::kUnorm: f = static_cast<float>(static_cast<double>(raw) / static_cast<double>(LowMask(c.bits))); break;
      case NumericFormat::kSrgb: f = SrgbToLinear(static_cast<float>(raw) / static_cast<float>(LowMask(c.bits))); break;
      case NumericFormat::kSnorm:
        // "-2^(b-1) ... maps to -1.0" as well as the next value (Vulkan 1.3, 3.9.2 "Fixed-Point Data Conversions").
        f = std::max(-1.0f, static_cast<float>(static_cast<double>(asSigned) / static_cast<double>(LowMask(c.bits - 1))));
        break;
      case NumericFormat::kUscaled: f = static_cast<float>(raw); break;
      case NumericFormat::kSscaled: f = static_cast<float>(asSigned); break;
      case NumericFormat::kSfixed5: f = static_cast<float>(asSigned) / 32.0f; break;
      case NumericFormat::kUint: out.uint32[c.slot] = static_cast<uint32_t>(raw); break;
      case NumericFormat::kSint: out.int32[c.slot] = static_cast<int32_t>(asSigned); break;
      case NumericFormat::kUfloat: f = SmallFloatToFloat(static_cast<uint32_t>(raw), c.bits - 5); break;
      case NumericFormat::kSfloat:
        if (c.bits == 16) f = HalfToFloat(static_cast<uint16_t>(raw));
        else if (c.bits == 32) f = std::bit_cast<float>(static_cast<uint32_t>(raw));
        else f = static_cast<float>(std::bit_cast<double>(raw));
        break;
    }
  }
  return out;
}

void ColorCodec::Encode(const VkClearColorValue& value, std::byte* texel) const {
#if defined(CRASHTEST_HAVE_UNORM4X8)
  if (unorm4x8_ != Unorm4x8::kNone) {
    EncodeUnorm4x8(_mm_loadu_ps(value.float32), unorm4x8_, texel);
    return;
  }
#endif
  if (bytes8_) {
    for (uint32_t i = 0; i < componentCount_; ++i) {
      const Component& c = components_[i];
      float f = value.float32[c.slot];
      if (c.numeric == NumericFormat::kSrgb) f = LinearToSrgb(f);
      texel[c.byteOffset] = static_cast<std::byte>(EncodeUnorm8(f));
    }
    return;
  }
  if (special_ == Special::kSharedExponent) {
    WriteWord(texel, 4, EncodeSharedExponent(value.float32));
    return;
  }
  if (special_ == Special::kB10G11R11) {
    uint32_t word = FloatToSmallFloat(value.float32[0], 6) | FloatToSmallFloat(value.float32[1], 6) << 11 |
                    FloatToSmallFloat(value.float32[2], 5) << 22;
    WriteWord(texel, 4, word);
    return;
  }
  if (componentCount_ > 0 && components_[0].wordBytes < blockSize_ && components_[0].shift != 0)
    std::memset(texel, 0, blockSize_);  // padding bits of multi-word packed formats read as zero
  for (uint32_t i = 0; i < componentCount_; ++i) {
    const Component& c = components_[i];
    float f = value.float32[c.slot];
    uint64_t raw = 0;
    switch (c.numeric) {
      case NumericFormat::kUnorm:
      case NumericFormat::kSrgb: {
        if (c.numeric == NumericFormat::kSrgb) f = LinearToSrgb(f);
        double scaled = std::isnan(f) ? 0.0 : std::clamp(static_cast<double>(f), 0.0, 1.0) * static_cast<double>(LowMask(c.bits));
        raw = static_cast<uint64_t>(std::nearbyint(scaled));
        break;
      }
      case NumericFormat::kSnorm: {
        double scaled = std::isnan(f) ? 0.0 : std::clamp(static_cast<double>(f), -1.0, 1.0) * static_cast<double>(LowMask(c.bits - 1));
        raw = static_cast<uint64_t>(static_cast<int64_t>(std::nearbyint(scaled)));
        break;
      }
      case NumericFormat::kUscaled:
        raw = static_cast<uint64_t>(std::nearbyint(std::clamp(static_cast<double>(std::isnan(f) ? 0.0f : f), 0.0,
                                                               static_cast<double>(LowMask(c.bits)))));
        break;
      case NumericFormat::kSscaled:
      case NumericFormat::kSfixed5: {
        double limit = static_cast<double>(LowMask(c.bits - 1));
        double scaled = (std::isnan(f) ? 0.0 : static_cast<double>(f)) * (c.numeric == NumericFormat::kSfixed5 ? 32.0 : 1.0);
        raw = static_cast<uint64_t>(static_cast<int64_t>(std::nearbyint(std::clamp(scaled, -limit - 1.0, limit))));
        break;
      }
      // "Clear Values": integer clear values are truncated to the component width; 64-bit components extend.
      case NumericFormat::kUint: raw = value.uint32[c.slot]; break;
      case NumericFormat::kSint: raw = static_cast<uint64_t>(static_cast<int64_t>(value.int32[c.slot])); break;
      case NumericFormat::kUfloat: raw = FloatToSmallFloat(f, c.bits - 5u); break;
      case NumericFormat::kSfloat:
        if (c.bits == 16) raw = FloatToHalf(f);
        else if (c.bits == 32) raw = std::bit_cast<uint32_t>(f);
        else raw = std::bit_cast<uint64_t>(static_cast<double>(f));
        break;
    }
    raw &= LowMask(c.bits);
    if (c.shift == 0 && c.bits == c.wordBytes * 8u) {
      WriteWord(texel + c.byteOffset, c.wordBytes, raw);
    } else {
      uint64_t word = ReadWord(texel + c.byteOffset, c.wordBytes);
      if (i == 0 && components_[0].wordBytes == blockSize_) word = 0;  // one packed word: start from zero padding
      word = (word & ~(LowMask(c.bits) << c.shift)) | (raw << c.shift);
      WriteWord(texel + c.byteOffset, c.wordBytes, word);
    }
  }
}

void ColorCodec::Decode64(const std::byte* texel, uint64_t out[4]) const {
  out[0] = out[1] = out[2] = 0;
  out[3] = 1;
  if (!wide_) {
    // Narrower components: the 32-bit value, extended as the format's kind (floats keep their bits).
    const VkClearColorValue value = Decode(texel);
    for (int c = 0; c < 4; ++c)
      out[c] = kind_ == ValueKind::kSint ? static_cast<uint64_t>(static_cast<int64_t>(value.int32[c])) : value.uint32[c];
    return;
  }
  if (kind_ == ValueKind::kFloat) out[3] = std::bit_cast<uint64_t>(1.0);
  for (uint32_t i = 0; i < componentCount_; ++i)
    out[components_[i].slot] = ReadWord(texel + components_[i].byteOffset, 8);
}

void ColorCodec::Encode64(const uint64_t value[4], std::byte* texel) const {
  if (!wide_) {
    VkClearColorValue narrow;
    for (int c = 0; c < 4; ++c) narrow.uint32[c] = static_cast<uint32_t>(value[c]);
    Encode(narrow, texel);
    return;
  }
  for (uint32_t i = 0; i < componentCount_; ++i) WriteWord(texel + components_[i].byteOffset, 8, value[components_[i].slot]);
}

bool CodecSupports(VkFormat format) {
  if (IsDepthOrStencil(format)) return true;
  return ColorCodec(format).valid();
}

ValueKind ValueKindOf(VkFormat format) {
  if (HasStencil(format) && !HasDepth(format)) return ValueKind::kUint;
  if (HasDepth(format)) return ValueKind::kFloat;
  return ColorCodec(format).kind();
}

VkClearColorValue DecodeColor(VkFormat format, const std::byte* texel) { return ColorCodec(format).Decode(texel); }

void EncodeColor(VkFormat format, const VkClearColorValue& value, std::byte* texel) {
  ColorCodec(format).Encode(value, texel);
}

namespace {

// The depth component of a depth or depth/stencil format: its bit count and whether it is a float.
struct DepthComponent {
  uint32_t bits = 0;
  bool isFloat = false;
};

DepthComponent DepthOf(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  if (info == nullptr) return {};
  for (uint32_t i = 0; i < info->componentCount; ++i)
    if (info->components[i].name == ComponentName::kDepth)
      return {info->components[i].bits, info->components[i].numericFormat == NumericFormat::kSfloat};
  return {};
}

}  // namespace

float DecodeDepth(VkFormat format, const std::byte* texel) {
  DepthComponent depth = DepthOf(format);
  if (depth.isFloat) return std::bit_cast<float>(static_cast<uint32_t>(ReadWord(texel, 4)));
  if (depth.bits == 0) return 0.0f;
  // D24 lives in the low 24 bits of its 4 bytes; the top 8 are undefined ("Depth/Stencil Formats", 20.4).
  uint64_t raw = ReadWord(texel, depth.bits == 16 ? 2 : 4) & LowMask(depth.bits);
  return static_cast<float>(static_cast<double>(raw) / static_cast<double>(LowMask(depth.bits)));
}

void EncodeDepth(VkFormat format, float depth, std::byte* texel) {
  DepthComponent component = DepthOf(format);
  if (component.isFloat) {
    WriteWord(texel, 4, std::bit_cast<uint32_t>(depth));
    return;
  }
  if (component.bits == 0) return;
  double clamped = std::isnan(depth) ? 0.0 : std::clamp(static_cast<double>(depth), 0.0, 1.0);
  auto raw = static_cast<uint64_t>(std::nearbyint(clamped * static_cast<double>(LowMask(component.bits))));
  WriteWord(texel, component.bits == 16 ? 2 : 4, raw);
}

}  // namespace crashtest::format
