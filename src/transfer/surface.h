// Plain-memory views of buffers and images, the level at which the transfer operations work. transfer_ops.cpp
// builds them from Buffer, Image and ImageView objects; unit tests build them on their own memory.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

#include "device/image_layout.h"

namespace crashtest::transfer {

struct BufferBytes {
  std::byte* data;  // nullptr while the buffer is unbound: operations on it are skipped
  VkDeviceSize size;
};

struct ImageSurface {
  std::byte* data;  // nullptr while the image is unbound
  VkFormat format;
  VkImageType type;
  VkExtent3D extent;
  uint32_t mipLevels;
  uint32_t arrayLayers;
  VkSampleCountFlagBits samples;
  const ImageLayout* layout;
};

// One aspect of one mip level and array layer: where its texel blocks are and how they are strided. Samples of a
// multisampled image are interleaved per texel, so a block at (bx, by, z) starts at
// base + z * depthPitch + by * rowPitch + bx * blockSize * samples.
struct PlaneView {
  std::byte* base = nullptr;
  VkDeviceSize rowPitch = 0;
  VkDeviceSize depthPitch = 0;
  uint32_t blockSize = 0;      // bytes of one sample of one block, as TexelBlockSize reports it
  VkExtent3D blockExtent{1, 1, 1};
  VkExtent3D extent{0, 0, 0};  // texels of this plane at this mip level
  uint32_t samples = 1;

  std::byte* Block(uint32_t bx, uint32_t by, uint32_t z) const {
    return base + z * depthPitch + by * rowPitch + static_cast<VkDeviceSize>(bx) * blockSize * samples;
  }
  uint32_t BlocksWide() const { return (extent.width + blockExtent.width - 1) / blockExtent.width; }
  uint32_t BlocksHigh() const { return (extent.height + blockExtent.height - 1) / blockExtent.height; }
};

// base == nullptr when the image is unbound, the aspect is not one of the format's or mip/layer are out of range.
PlaneView PlaneAt(const ImageSurface& image, VkImageAspectFlagBits aspect, uint32_t mipLevel, uint32_t arrayLayer);

// VK_REMAINING_ARRAY_LAYERS / VK_REMAINING_MIP_LEVELS resolved against the image.
uint32_t ResolveLayerCount(const ImageSurface& image, uint32_t baseLayer, uint32_t layerCount);
uint32_t ResolveLevelCount(const ImageSurface& image, uint32_t baseLevel, uint32_t levelCount);

// Copies `slices` × `rows` rows of `rowBytes` between two strided layouts, merging rows and slices into single
// memcpy calls when both sides are contiguous (whole-image fast path).
void CopyBox(const std::byte* src, VkDeviceSize srcRowPitch, VkDeviceSize srcSlicePitch, std::byte* dst,
             VkDeviceSize dstRowPitch, VkDeviceSize dstSlicePitch, VkDeviceSize rowBytes, uint32_t rows,
             uint32_t slices);

// Fills `bytes` bytes at `dst` with repetitions of the `patternSize`-byte pattern (bytes a multiple of it).
void FillPattern(std::byte* dst, VkDeviceSize bytes, const std::byte* pattern, uint32_t patternSize);

}  // namespace crashtest::transfer
