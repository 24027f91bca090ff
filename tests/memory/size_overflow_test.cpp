// Sizes no memory can hold (issue 18, defect 2): vkCreateBuffer with 2^64-1 bytes used to succeed with a memory
// requirement of 0 bytes, so binding it to a 4 KiB allocation and filling it overflowed the heap; sizes above
// maxBufferSize were accepted too. Buffers and images whose size the device cannot hold now fail with
// VK_ERROR_OUT_OF_DEVICE_MEMORY, and no requirement ever wraps to less than the resource's size.
#include "memory_test_env.h"

namespace crashtest::test {
namespace {

VkDeviceSize MaxBufferSize(VkPhysicalDevice physical) {
  VkPhysicalDeviceMaintenance4Properties maintenance4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &maintenance4};
  vkGetPhysicalDeviceProperties2(physical, &properties);
  return maintenance4.maxBufferSize;
}

TEST_F(MemoryTest, BufferSizesNoMemoryCanHoldAreOutOfDeviceMemory) {
  const VkDeviceSize maxBufferSize = MaxBufferSize(physical_);
  ASSERT_GT(maxBufferSize, 0u) << "the default device reports maxBufferSize";
  VkDeviceSize largestHeap = 0;
  for (uint32_t i = 0; i < memory_.memoryHeapCount; ++i) largestHeap = std::max(largestHeap, memory_.memoryHeaps[i].size);
  for (VkDeviceSize size : {~VkDeviceSize{0}, ~VkDeviceSize{0} - 15, VkDeviceSize{1} << 63, maxBufferSize + 1,
                            largestHeap + 1}) {
    SCOPED_TRACE(size);
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateBuffer(device_, &info, nullptr, &buffer), VK_ERROR_OUT_OF_DEVICE_MEMORY);
  }
}

TEST_F(MemoryTest, BufferRequirementsNeverWrapBelowTheSize) {
  const VkDeviceSize maxBufferSize = MaxBufferSize(physical_);
  VkDeviceSize largestHeap = 0;
  for (uint32_t i = 0; i < memory_.memoryHeapCount; ++i) largestHeap = std::max(largestHeap, memory_.memoryHeaps[i].size);
  const VkDeviceSize limit = std::min(maxBufferSize, largestHeap);
  for (VkDeviceSize size : {limit, limit - 1, VkDeviceSize{1}}) {
    SCOPED_TRACE(size);
    VkBuffer buffer = CreateBuffer(size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    ASSERT_NE(buffer, VK_NULL_HANDLE);
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(device_, buffer, &requirements);
    EXPECT_GE(requirements.size, size);
    EXPECT_EQ(requirements.size % requirements.alignment, 0u);
    // A small allocation cannot hold it (VUID-vkBindBufferMemory-size-01037), so nothing can be written past it.
    if (size > 4096) {
      VkDeviceMemory memory = Allocate(4096, FindType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT));
      EXPECT_NE(vkBindBufferMemory(device_, buffer, memory, 0), VK_SUCCESS);
      vkFreeMemory(device_, memory, nullptr);
    }
    vkDestroyBuffer(device_, buffer, nullptr);
  }
}

TEST_F(MemoryTest, ImagesWhoseSizeOverflowsAreOutOfDeviceMemory) {
  // Far beyond the device's limits (a misuse), but the size computation must not wrap to a small image.
  struct Case {
    VkExtent3D extent;
    uint32_t layers;
  };
  for (const Case& c : {Case{{0xffffffffu, 0xffffffffu, 1}, 0xffffffffu}, Case{{1u << 20, 1u << 20, 1}, 1u << 16},
                        Case{{65536, 65536, 1}, 65536}}) {
    SCOPED_TRACE(std::to_string(c.extent.width) + "x" + std::to_string(c.extent.height) + " layers " +
                 std::to_string(c.layers));
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = VK_FORMAT_R32G32B32A32_SFLOAT;
    info.extent = c.extent;
    info.mipLevels = 1;
    info.arrayLayers = c.layers;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkImage image = VK_NULL_HANDLE;
    VkResult result = vkCreateImage(device_, &info, nullptr, &image);
    if (result == VK_SUCCESS) {
      VkMemoryRequirements requirements{};
      vkGetImageMemoryRequirements(device_, image, &requirements);
      vkDestroyImage(device_, image, nullptr);
      FAIL() << "created, with a memory requirement of " << requirements.size << " bytes";
    }
    EXPECT_EQ(result, VK_ERROR_OUT_OF_DEVICE_MEMORY);
  }
}

}  // namespace
}  // namespace crashtest::test
