// What a shader sees of an image view, a texel buffer view or a sampler, flattened from the Vulkan objects before
// a dispatch (or draw) starts: plain pointers, pitches, extents and the sampler's parameters, so the shader engine
// and the texel operations here never look at a Vulkan object or take a lock. Built by the queue side
// (src/queue/sampling_bindings.cpp); read by src/execution's image operations and by sampler.h.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

#include "format/color_codec.h"
#include "format/compressed/block_decoder.h"

namespace crashtest::sampling {

// Mip levels a view may hold: images are at most 2^15 texels wide in every real device's limits.
inline constexpr uint32_t kMaxLevels = 16;

// SPIR-V's image dimensionality (OpTypeImage's Dim operand) as far as the engine cares.
enum class Dim : uint8_t { k1D = 0, k2D = 1, k3D = 2, kCube = 3, kRect = 4, kBuffer = 5, kSubpassData = 6 };

// Which part of a texel the view reads: the colour components, or the depth or stencil aspect of a
// depth/stencil format (crashtest stores each aspect in its own plane).
enum class Aspect : uint8_t { kColor, kDepth, kStencil };

// One mip level of a view: where texel (0, 0, 0) of the view's first layer lives and how texels are strided.
// Samples of a multisampled image follow each other inside a texel (transfer/surface.h).
struct LevelView {
  std::byte* base = nullptr;
  uint64_t rowPitch = 0, depthPitch = 0, layerPitch = 0;
  uint32_t width = 0, height = 0, depth = 0;
};

// Component swizzle after "Conversion to RGBA": 0-3 pick R, G, B, A; 4 is zero, 5 is one.
inline constexpr uint8_t kSwizzleZero = 4, kSwizzleOne = 5;

struct ImageDescriptor {
  bool bound = false;        // false: no descriptor; reads give zero, writes and atomics are dropped
  bool texelBuffer = false;  // a uniform or storage texel buffer: level[0] is the buffer, width its texels
  Aspect aspect = Aspect::kColor;
  VkFormat format = VK_FORMAT_UNDEFINED;  // the view's format (it may differ from the image's)
  format::ColorCodec codec;               // for Aspect::kColor of uncompressed formats
  // Block-compressed formats (BC1-BC7, ETC2, EAC): texels are read by decoding their block; texelBytes is then the block's
  // size and the level's rowPitch strides rows of blocks. Never written (no storage or attachment use).
  format::DecodeBlockFn decodeBlock = nullptr;
  uint8_t blockWidth = 4, blockHeight = 4;  // the block's footprint (ASTC: up to 12x12)
  bool zeroBlockIsError = false;            // reads outside the image give zeros, not a decoded zero block
  format::ValueKind kind = format::ValueKind::kFloat;
  bool unormDepth = false;   // D16/D24: Dref is clamped to [0, 1] before the comparison
  uint32_t texelBytes = 0;   // bytes of one sample of one texel in this aspect
  uint32_t samples = 1;
  uint32_t levels = 0;       // the view's level count
  uint32_t layers = 0;       // the view's layer count (six per cube)
  bool cube = false;         // a cube or cube-array view
  float minLod = 0.0f;       // VK_EXT_image_view_min_lod (0 without it)
  uint8_t swizzle[4] = {0, 1, 2, 3};
  LevelView level[kMaxLevels];
};

struct SamplerDescriptor {
  bool bound = false;
  VkFilter magFilter = VK_FILTER_NEAREST, minFilter = VK_FILTER_NEAREST;
  VkSamplerMipmapMode mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  VkSamplerAddressMode address[3] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                     VK_SAMPLER_ADDRESS_MODE_REPEAT};
  float mipLodBias = 0.0f, minLod = 0.0f, maxLod = 0.0f;
  float maxLodBias = 0.0f;  // the device's maxSamplerLodBias: the bias is clamped to it
  bool compareEnable = false;
  VkCompareOp compareOp = VK_COMPARE_OP_NEVER;
  bool unnormalized = false;
  // VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT: no cube map edge handling; the address modes apply per face.
  bool nonSeamlessCube = false;
  VkSamplerReductionMode reduction = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
  // The border colour as the shader would read it: float bits for float formats, else integers.
  VkClearColorValue border{};
  bool borderIsInteger = false;
};

// One entry of a dispatch's image table: a storage image, a sampled image, a separate sampler, a combined image
// sampler (both halves) or a texel buffer. A shader's image value holds an index into the table.
struct ImageTableEntry {
  ImageDescriptor image;
  SamplerDescriptor sampler;
};

}  // namespace crashtest::sampling
