#include "sampling/texel_access.h"

#include <bit>
#include <cstring>

#include "format/texel_codec.h"

namespace crashtest::sampling {

std::byte* TexelAddress(const ImageDescriptor& image, uint32_t level, int32_t x, int32_t y, int32_t z, int32_t layer,
                        uint32_t sample) {
  if (!image.bound || level >= image.levels || image.decodeBlock != nullptr) return nullptr;
  const LevelView& l = image.level[level];
  if (image.texelBuffer) {
    if (x < 0 || static_cast<uint32_t>(x) >= l.width) return nullptr;
    return l.base + static_cast<uint64_t>(static_cast<uint32_t>(x)) * image.texelBytes;
  }
  if (x < 0 || y < 0 || z < 0 || layer < 0 || static_cast<uint32_t>(x) >= l.width ||
      static_cast<uint32_t>(y) >= l.height || static_cast<uint32_t>(z) >= l.depth ||
      static_cast<uint32_t>(layer) >= image.layers || sample >= image.samples)
    return nullptr;
  return l.base + static_cast<uint64_t>(static_cast<uint32_t>(layer)) * l.layerPitch +
         static_cast<uint64_t>(static_cast<uint32_t>(z)) * l.depthPitch +
         static_cast<uint64_t>(static_cast<uint32_t>(y)) * l.rowPitch +
         (static_cast<uint64_t>(static_cast<uint32_t>(x)) * image.samples + sample) * image.texelBytes;
}

namespace {

// Texel (x, y) of a block-compressed level: its block decoded, the texel picked. Levels whose extent is not a
// multiple of the block's end in partial blocks; the validation against the texel extent keeps reads inside them.
bool LoadCompressedTexel(const ImageDescriptor& image, uint32_t level, int32_t x, int32_t y, int32_t z,
                         int32_t layer, Texel* out) {
  if (!image.bound || level >= image.levels) return false;
  const LevelView& l = image.level[level];
  if (x < 0 || y < 0 || z < 0 || layer < 0 || static_cast<uint32_t>(x) >= l.width ||
      static_cast<uint32_t>(y) >= l.height || static_cast<uint32_t>(z) >= l.depth ||
      static_cast<uint32_t>(layer) >= image.layers)
    return false;
  const auto ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y);
  const std::byte* block = l.base + static_cast<uint64_t>(static_cast<uint32_t>(layer)) * l.layerPitch +
                           static_cast<uint64_t>(static_cast<uint32_t>(z)) * l.depthPitch +
                           static_cast<uint64_t>(uy / image.blockHeight) * l.rowPitch +
                           static_cast<uint64_t>(ux / image.blockWidth) * image.texelBytes;
  float texels[format::kMaxBlockTexels][4];
  image.decodeBlock(block, texels);
  std::memcpy(out->v, texels[(uy % image.blockHeight) * image.blockWidth + ux % image.blockWidth], sizeof out->v);
  return true;
}

}  // namespace

bool LoadTexel(const ImageDescriptor& image, uint32_t level, int32_t x, int32_t y, int32_t z, int32_t layer,
               uint32_t sample, Texel* out) {
  if (image.decodeBlock != nullptr) return sample == 0 && LoadCompressedTexel(image, level, x, y, z, layer, out);
  const std::byte* at = TexelAddress(image, level, x, y, z, layer, sample);
  if (at == nullptr) return false;
  *out = ReadTexel(image, at);
  return true;
}

Texel ReadTexel(const ImageDescriptor& image, const std::byte* texel) {
  Texel out;
  switch (image.aspect) {
    case Aspect::kDepth:
      out.v[0] = std::bit_cast<uint32_t>(format::DecodeDepth(image.format, texel));
      out.v[3] = std::bit_cast<uint32_t>(1.0f);
      return out;
    case Aspect::kStencil:
      out.v[0] = static_cast<uint32_t>(static_cast<uint8_t>(*texel));
      out.v[3] = 1;
      return out;
    case Aspect::kColor: {
      const VkClearColorValue value = image.codec.Decode(texel);
      std::memcpy(out.v, value.uint32, sizeof out.v);
      return out;
    }
  }
  return out;
}

Texel OutOfBoundsTexel(const ImageDescriptor& image) {
  if (!image.bound) return ZeroTexel();
  if (image.decodeBlock != nullptr) {
    // A block of zero bytes, as for uncompressed formats: black (opaque except for BC1 with alpha, BC2 and BC3). An
    // all-zero ASTC block is an error block (magenta): zeros instead, as robustImageAccess2 allows for any format.
    if (image.zeroBlockIsError) return ZeroTexel();
    const std::byte zeroBlock[16] = {};
    float texels[format::kMaxBlockTexels][4];
    image.decodeBlock(zeroBlock, texels);
    Texel out;
    std::memcpy(out.v, texels[0], sizeof out.v);
    return out;
  }
  const std::byte zeros[16] = {};
  return image.texelBytes <= sizeof zeros ? ReadTexel(image, zeros) : ZeroTexel();
}

Texel Swizzled(const ImageDescriptor& image, const Texel& texel) {
  const bool isFloat = image.kind == format::ValueKind::kFloat;
  const uint32_t one = isFloat ? std::bit_cast<uint32_t>(1.0f) : 1u;
  Texel out;
  for (int c = 0; c < 4; ++c) {
    const uint8_t pick = image.swizzle[c];
    out.v[c] = pick < 4 ? texel.v[pick] : pick == kSwizzleOne ? one : 0u;
  }
  return out;
}

void WriteTexel(const ImageDescriptor& image, const Texel& value, std::byte* texel) {
  if (image.aspect != Aspect::kColor || !image.codec.valid()) return;
  VkClearColorValue color;
  std::memcpy(color.uint32, value.v, sizeof value.v);
  image.codec.Encode(color, texel);
}

bool LoadWideTexel(const ImageDescriptor& image, uint32_t level, int32_t x, int32_t y, int32_t z, int32_t layer,
                   uint32_t sample, WideTexel* out) {
  if (image.aspect != Aspect::kColor || !image.codec.valid()) return false;
  const std::byte* at = TexelAddress(image, level, x, y, z, layer, sample);
  if (at == nullptr) return false;
  image.codec.Decode64(at, out->v);
  return true;
}

WideTexel OutOfBoundsWideTexel(const ImageDescriptor& image) {
  WideTexel out;
  const std::byte zeros[32] = {};
  if (image.bound && image.aspect == Aspect::kColor && image.codec.valid() && image.texelBytes <= sizeof zeros)
    image.codec.Decode64(zeros, out.v);
  return out;
}

void WriteWideTexel(const ImageDescriptor& image, const WideTexel& value, std::byte* texel) {
  if (image.aspect != Aspect::kColor || !image.codec.valid()) return;
  image.codec.Encode64(value.v, texel);
}

}  // namespace crashtest::sampling
