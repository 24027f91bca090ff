// Buffers and images on plain memory for the transfer unit tests: the same ImageLayout the driver computes for
// its images, over a std::vector the test can inspect byte by byte.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "device/image_layout.h"
#include "transfer/surface.h"

namespace crashtest::transfer::test {

struct TestBuffer {
  explicit TestBuffer(VkDeviceSize size, std::byte fill = std::byte{0}) : bytes(size, fill) {}
  BufferBytes view() { return {bytes.data(), bytes.size()}; }
  template <typename T>
  T At(size_t offset) const {
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
  }
  std::vector<std::byte> bytes;
};

struct TestImage {
  TestImage(VkFormat format, VkExtent3D extent, uint32_t mipLevels = 1, uint32_t arrayLayers = 1,
            VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT, VkImageType type = VK_IMAGE_TYPE_2D,
            uint32_t rowAlignment = 256)
      : surface{nullptr, format, type, extent, mipLevels, arrayLayers, samples, &layout} {
    layout.Compute({format, type, extent, mipLevels, arrayLayers, samples, rowAlignment});
    bytes.assign(layout.size(), std::byte{0xcd});
    surface.data = bytes.data();
  }
  TestImage(const TestImage&) = delete;

  // The address of a block of one aspect (COLOR, DEPTH, STENCIL or PLANE_n), sample 0.
  std::byte* Block(VkImageAspectFlagBits aspect, uint32_t bx, uint32_t by, uint32_t z = 0, uint32_t mip = 0,
                   uint32_t layer = 0) {
    PlaneView plane = PlaneAt(surface, aspect, mip, layer);
    return plane.Block(bx, by, z);
  }
  std::byte* Texel(uint32_t x, uint32_t y, uint32_t layer = 0) { return Block(VK_IMAGE_ASPECT_COLOR_BIT, x, y, 0, 0, layer); }

  ImageLayout layout;
  std::vector<std::byte> bytes;
  ImageSurface surface;
};

inline std::byte B(unsigned value) { return static_cast<std::byte>(value); }

// A buffer whose byte i is (i * 7 + seed) & 0xff: every byte differs from its neighbours, so misplaced copies show.
inline TestBuffer PatternBuffer(VkDeviceSize size, unsigned seed = 1) {
  TestBuffer buffer(size);
  for (size_t i = 0; i < size; ++i) buffer.bytes[i] = B(static_cast<unsigned>(i * 7 + seed) & 0xffu);
  return buffer;
}

inline VkBufferImageCopy2 BufferImageRegion(VkDeviceSize bufferOffset, uint32_t rowLength, uint32_t imageHeight,
                                            VkImageAspectFlags aspect, uint32_t mip, uint32_t baseLayer,
                                            uint32_t layerCount, VkOffset3D offset, VkExtent3D extent) {
  return {VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2, nullptr, bufferOffset, rowLength, imageHeight,
          {aspect, mip, baseLayer, layerCount}, offset, extent};
}

}  // namespace crashtest::transfer::test
