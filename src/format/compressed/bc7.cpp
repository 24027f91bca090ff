// BC7 (BPTC UNORM): eight modes of one to three subsets, optional p-bits, separate alpha indices and component
// rotation. Khronos Data Format Specification, "BPTC Compressed Texture Image Formats" (RGBA).
#include <cstring>
#include <utility>

#include "format/compressed/block_decoder.h"
#include "format/compressed/bptc_tables.h"

namespace crashtest::format {
namespace {

using bptc::BlockBits;

struct Bc7Mode {
  uint8_t subsets, partitionBits, rotationBits, indexSelectionBits;
  uint8_t colorBits, alphaBits;  // per endpoint component, without the p-bit
  uint8_t pBits;                 // 0, one per subset (shared), or one per endpoint
  uint8_t indexBits, secondaryIndexBits;
};

// Table "Mode descriptions for BPTC" (modes 0-7).
constexpr Bc7Mode kModes[8] = {
    {3, 4, 0, 0, 4, 0, 6, 3, 0}, {2, 6, 0, 0, 6, 0, 2, 3, 0}, {3, 6, 0, 0, 5, 0, 0, 2, 0},
    {2, 6, 0, 0, 7, 0, 4, 2, 0}, {1, 0, 2, 1, 5, 6, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 2, 4, 0}, {2, 6, 0, 0, 5, 5, 4, 2, 0},
};

const uint8_t* Weights(uint32_t bits) {
  return bits == 2 ? bptc::kWeights2 : bits == 3 ? bptc::kWeights3 : bptc::kWeights4;
}

// "Unquantize": the endpoint's bits (with the p-bit appended) replicated into 8 bits.
uint32_t Expand(uint32_t value, uint32_t bits) {
  value <<= 8 - bits;
  return value | (value >> bits);
}

uint32_t Interpolate(uint32_t e0, uint32_t e1, uint32_t weight) {
  return ((64 - weight) * e0 + weight * e1 + 32) >> 6;
}

}  // namespace

void DecodeBc7(const std::byte* block, float texels[16][4]) {
  BlockBits bits(block);
  uint32_t mode = 0;
  while (mode < 8 && bits.Read(1) == 0) ++mode;
  if (mode == 8) {
    // A first byte of zero names no mode: the block is reserved and decodes to (0, 0, 0, 0).
    std::memset(texels, 0, sizeof(float) * 16 * 4);
    return;
  }
  const Bc7Mode& m = kModes[mode];
  const uint32_t partition = bits.Read(m.partitionBits);
  const uint32_t rotation = bits.Read(m.rotationBits);
  const uint32_t indexSelection = bits.Read(m.indexSelectionBits);
  const uint32_t endpoints = 2u * m.subsets;
  uint32_t e[6][4] = {};
  for (uint32_t c = 0; c < 3; ++c)
    for (uint32_t i = 0; i < endpoints; ++i) e[i][c] = bits.Read(m.colorBits);
  for (uint32_t i = 0; i < endpoints; ++i) e[i][3] = bits.Read(m.alphaBits);
  uint32_t colorBits = m.colorBits, alphaBits = m.alphaBits;
  if (m.pBits != 0) {
    uint32_t p[6];
    for (uint32_t i = 0; i < m.pBits; ++i) p[i] = bits.Read(1);
    for (uint32_t i = 0; i < endpoints; ++i) {
      // One p-bit per endpoint, or one shared by both endpoints of a subset (mode 1).
      const uint32_t pb = m.pBits == endpoints ? p[i] : p[i / 2];
      for (uint32_t c = 0; c < 4; ++c) e[i][c] = (e[i][c] << 1) | pb;
    }
    ++colorBits;
    if (alphaBits != 0) ++alphaBits;
  }
  for (uint32_t i = 0; i < endpoints; ++i) {
    for (uint32_t c = 0; c < 3; ++c) e[i][c] = Expand(e[i][c], colorBits);
    e[i][3] = alphaBits != 0 ? Expand(e[i][3], alphaBits) : 255u;
  }

  const char* shape = m.subsets == 2 ? bptc::kPartitions2[partition] : m.subsets == 3 ? bptc::kPartitions3[partition]
                                                                                    : nullptr;
  auto isAnchor = [&](uint32_t texel) {
    if (texel == 0) return true;
    if (m.subsets == 2) return texel == bptc::kAnchor2[partition];
    if (m.subsets == 3) return texel == bptc::kAnchor3Second[partition] || texel == bptc::kAnchor3Third[partition];
    return false;
  };
  uint32_t primary[16], secondary[16] = {};
  for (uint32_t t = 0; t < 16; ++t) primary[t] = bits.Read(m.indexBits - (isAnchor(t) ? 1u : 0u));
  if (m.secondaryIndexBits != 0)
    for (uint32_t t = 0; t < 16; ++t) secondary[t] = bits.Read(m.secondaryIndexBits - (t == 0 ? 1u : 0u));

  // Mode 4's index selection bit swaps which index set (2- or 3-bit) drives colour and which alpha.
  uint32_t colorIndexBits = m.indexBits;
  uint32_t alphaIndexBits = m.secondaryIndexBits != 0 ? m.secondaryIndexBits : m.indexBits;
  const uint32_t* colorIndex = primary;
  const uint32_t* alphaIndex = m.secondaryIndexBits != 0 ? secondary : primary;
  if (indexSelection != 0) {
    std::swap(colorIndex, alphaIndex);
    std::swap(colorIndexBits, alphaIndexBits);
  }
  const uint8_t* colorWeights = Weights(colorIndexBits);
  const uint8_t* alphaWeights = Weights(alphaIndexBits);
  for (uint32_t t = 0; t < 16; ++t) {
    const uint32_t subset = shape != nullptr ? static_cast<uint32_t>(shape[t] - '0') : 0;
    const uint32_t* a = e[2 * subset];
    const uint32_t* b = e[2 * subset + 1];
    uint32_t rgba[4];
    for (uint32_t c = 0; c < 3; ++c) rgba[c] = Interpolate(a[c], b[c], colorWeights[colorIndex[t]]);
    rgba[3] = Interpolate(a[3], b[3], alphaWeights[alphaIndex[t]]);
    // Rotation 1, 2, 3 swaps alpha with red, green, blue after interpolation.
    if (rotation != 0) std::swap(rgba[3], rgba[rotation - 1]);
    for (uint32_t c = 0; c < 4; ++c) texels[t][c] = static_cast<float>(rgba[c]) / 255.0f;
  }
}

}  // namespace crashtest::format
