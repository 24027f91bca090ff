// The image side of the compute harness (vk_compute.h): images, views, texel buffers and samplers for a job's
// ImageSpecs, filled before the dispatch and read back after it.
#pragma once

#include <vulkan/vulkan.h>

#include <functional>
#include <string>
#include <vector>

#include "vk_compute.h"

namespace crashtest::test {

class ImageResources {
 public:
  ImageResources(VkDevice device, VkQueue queue, uint32_t family, const VkPhysicalDeviceMemoryProperties& memory)
      : device_(device), queue_(queue), family_(family), memory_(memory) {}
  ~ImageResources();
  ImageResources(const ImageResources&) = delete;
  ImageResources& operator=(const ImageResources&) = delete;

  // Creates every spec's objects and uploads its contents; false with *error naming the failed call.
  bool Create(const std::vector<ImageSpec>& specs, std::string* error);
  static VkDescriptorSetLayoutBinding LayoutBinding(const ImageSpec& spec);
  // Writes spec i's descriptor into sets[spec.set].
  void WriteDescriptors(const std::vector<ImageSpec>& specs, const std::vector<VkDescriptorSet>& sets);
  // Every spec's contents after the work (samplers: empty).
  bool ReadBack(const std::vector<ImageSpec>& specs, std::vector<std::vector<uint32_t>>* out, std::string* error);

 private:
  struct Resource {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkBuffer buffer = VK_NULL_HANDLE;  // texel buffers
    VkBufferView bufferView = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkSampler sampler = VK_NULL_HANDLE;
    void* mapped = nullptr;  // texel buffers
  };
  struct Staging {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
  };
  uint32_t MemoryType(uint32_t bits, bool hostVisible) const;
  bool CreateBuffer(VkDeviceSize bytes, VkBufferUsageFlags usage, Staging* out, std::string* error);
  void Destroy(Staging& staging);
  bool Submit(const std::function<void(VkCommandBuffer)>& record, std::string* error);

  VkDevice device_;
  VkQueue queue_;
  uint32_t family_;
  VkPhysicalDeviceMemoryProperties memory_;
  std::vector<Resource> resources_;
};

}  // namespace crashtest::test
