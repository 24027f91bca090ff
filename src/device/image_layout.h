// Where each subresource of an image lives in its memory. crashtest stores every image linearly (optimal tiling
// too), so copies and clears address texel blocks directly and vkGetImageSubresourceLayout is exact.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace crashtest {

struct ImageLayoutInput {
  VkFormat format;
  VkImageType type;
  VkExtent3D extent;
  uint32_t mipLevels;
  uint32_t arrayLayers;
  VkSampleCountFlagBits samples;
  // Row pitch and subresource offsets are multiples of this (optimalBufferCopyRowPitchAlignment-like).
  uint32_t rowAlignment;
};

class ImageLayout {
 public:
  // False when the format is unknown to the format table.
  bool Compute(const ImageLayoutInput& input);

  VkDeviceSize size() const { return size_; }
  // One of the format's aspects (COLOR, DEPTH, STENCIL or PLANE_n); mipLevel and arrayLayer in range.
  VkSubresourceLayout Subresource(VkImageAspectFlagBits aspect, uint32_t mipLevel, uint32_t arrayLayer) const;
  uint32_t planeCount() const { return static_cast<uint32_t>(planes_.size()); }

 private:
  struct PlaneLevel {
    VkDeviceSize offset;     // of layer 0
    VkDeviceSize rowPitch;
    VkDeviceSize depthPitch;
    VkDeviceSize layerSize;  // array pitch
  };
  struct Plane {
    VkImageAspectFlagBits aspect;
    std::vector<PlaneLevel> levels;
  };
  std::vector<Plane> planes_;
  uint32_t arrayLayers_ = 1;
  VkDeviceSize size_ = 0;
};

}  // namespace crashtest
