// A small compute harness through the real loader, for the execution tests: one device of a chosen driver
// (crashtest or Mesa's lavapipe, both listed in VK_ICD_FILENAMES), host-visible buffers, a compute pipeline
// whose layout is reflected from the SPIR-V, one dispatch, and the buffers read back.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace crashtest::test {

struct BufferSpec {
  uint32_t set = 0, binding = 0;
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  uint32_t count = 1;                           // descriptors in the binding (arrays)
  std::vector<std::vector<uint32_t>> contents;  // one per descriptor
  bool bound = true;               // false: not in a descriptor set, reached only through its device address
  int pushAddressWord = -1;        // >= 0: its device address is pushed at this push-constant word (two words)
  bool freeBeforeSubmit = false;   // its memory is freed after recording, before the submission
  bool null = false;               // written as a VK_NULL_HANDLE descriptor (needs nullDescriptor)
  // Device addresses written into the contents once every buffer exists (linked structures): words `word` and
  // `word + 1` of descriptor 0 get the address of buffer spec `target`'s first buffer plus `offset`.
  struct Relocation {
    uint32_t word = 0, target = 0;
    uint64_t offset = 0;
  };
  std::vector<Relocation> relocations;
};

// An image, texel buffer or sampler descriptor (vk_compute_images.cpp). Images are created in optimal tiling,
// filled through a staging buffer and read back the same way after the dispatch.
struct ImageSpec {
  uint32_t set = 0, binding = 0;
  // STORAGE_IMAGE, SAMPLED_IMAGE, COMBINED_IMAGE_SAMPLER, SAMPLER, UNIFORM_TEXEL_BUFFER or STORAGE_TEXEL_BUFFER.
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
  VkImageViewType viewType = VK_IMAGE_VIEW_TYPE_2D;
  VkExtent3D extent{16, 16, 1};  // texel buffers: width texels
  uint32_t levels = 1, layers = 1;
  // Every level in order, each with all its layers, tightly packed as vkCmdCopyBufferToImage reads them (texel
  // buffers: the texels). Missing words are zero.
  std::vector<uint32_t> contents;
  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};  // COMBINED_IMAGE_SAMPLER and SAMPLER
  VkComponentMapping components{};
  // sliceCount > 0: a 3D image (extent.depth slices) created 2D_VIEW_COMPATIBLE, seen through a 2D (array) view of
  // slices [sliceBase, sliceBase + sliceCount) as VK_EXT_image_2d_view_of_3d allows.
  uint32_t sliceBase = 0, sliceCount = 0;
};

// Bytes of one texel of the formats the harness handles (0 for others); of one block for compressed formats.
uint32_t TexelBytes(VkFormat format);
// Bytes of one block of a BC, ETC2, EAC or ASTC format, 0 for other formats.
uint32_t CompressedBlockBytes(VkFormat format);
// The block footprint of those formats (4x4 but for ASTC), {0, 0} for other formats.
VkExtent2D CompressedBlockExtent(VkFormat format);
// The extent of one level of an ImageSpec.
VkExtent3D LevelExtent(const ImageSpec& spec, uint32_t level);
// Bytes of one level of an ImageSpec (all its layers), tightly packed as vkCmdCopyBufferToImage reads them.
size_t LevelBytes(const ImageSpec& spec, uint32_t level);
// Words of an ImageSpec's contents: every level and layer.
size_t ImageWords(const ImageSpec& spec);

struct ComputeJob {
  std::vector<uint32_t> spirv;
  std::vector<BufferSpec> buffers;
  std::vector<ImageSpec> images;
  std::vector<uint32_t> pushConstants;  // words, pushed at offset 0
  uint32_t groups[3] = {1, 1, 1};
  uint32_t requiredSubgroupSize = 0;    // 0: the device's
};

struct ComputeResult {
  VkResult result = VK_SUCCESS;  // of the submission and wait
  std::string error;             // set up failed (the message names the call)
  std::vector<std::vector<std::vector<uint32_t>>> buffers;  // [buffer spec][descriptor] contents after the run
  std::vector<std::vector<uint32_t>> images;  // [image spec] contents after the run (samplers: empty)
  std::vector<uint64_t> addresses;  // device address of each spec's first buffer (0 without buffer device address)
  // After VK_ERROR_DEVICE_LOST on a device with VK_EXT_device_fault: vkGetDeviceFaultInfoEXT's answer.
  std::string faultDescription;
  std::vector<VkDeviceFaultAddressInfoEXT> faultAddresses;
};

class ComputeDevice {
 public:
  // The first physical device whose name contains `nameFragment` ("crashtest", "llvmpipe"); nullptr if none.
  // With `faults`, also enables buffer device addresses and VK_EXT_device_fault when the device offers them.
  // `crashtest`: 1 only a device of crashtest (which always offers VK_KHR_device_fault), 0 only another
  // driver's, -1 either (a crashtest device may emulate lavapipe's profile, name and all).
  // With `nullDescriptor`, also enables VK_EXT_robustness2's nullDescriptor when the device offers it.
  static std::unique_ptr<ComputeDevice> Open(VkInstance instance, const std::string& nameFragment, std::string* error,
                                             bool faults = false, int crashtest = -1, bool nullDescriptor = false);
  ~ComputeDevice();
  ComputeResult Run(const ComputeJob& job);
  VkDevice device() const { return device_; }
  const std::string& name() const { return name_; }
  uint32_t subgroupSize() const { return subgroupSize_; }
  VkPhysicalDeviceFeatures features() const { return features_; }
  bool hasExtension(const char* name) const;
  // vulkanMemoryModelAvailabilityVisibilityChains is offered (and enabled).
  bool memoryModelChains() const { return memoryModelChains_; }

 private:
  uint32_t MemoryType(uint32_t bits) const;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  std::string name_;
  uint32_t subgroupSize_ = 0;
  VkPhysicalDeviceFeatures features_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  std::vector<std::string> extensions_;
  bool addresses_ = false;
  bool deviceFault_ = false;
  bool memoryModelChains_ = false;
};

// An instance over every driver VK_ICD_FILENAMES lists.
VkInstance CreateTestInstance(std::string* error);

// Reads a .spv file; empty on failure.
std::vector<uint32_t> ReadSpirv(const std::string& path);

}  // namespace crashtest::test
