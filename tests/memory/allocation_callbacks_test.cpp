// Every object of the memory and descriptor areas takes its host memory from VkAllocationCallbacks and gives all of
// it back; a failing callback yields VK_ERROR_OUT_OF_HOST_MEMORY and leaks nothing.
#include <cstdlib>
#include <map>
#include <mutex>

#include "memory_test_env.h"

namespace crashtest::test {
namespace {

struct CountingAllocator {
  std::mutex mutex;
  std::map<void*, size_t> live;
  size_t total = 0;
  bool fail = false;

  static void* VKAPI_CALL Allocate(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
    auto* self = static_cast<CountingAllocator*>(user);
    std::lock_guard lock(self->mutex);
    if (self->fail) return nullptr;
    void* p = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    self->live[p] = size;
    ++self->total;
    return p;
  }
  static void* VKAPI_CALL Reallocate(void*, void*, size_t, size_t, VkSystemAllocationScope) { return nullptr; }
  static void VKAPI_CALL Free(void* user, void* p) {
    if (p == nullptr) return;
    auto* self = static_cast<CountingAllocator*>(user);
    std::lock_guard lock(self->mutex);
    self->live.erase(p);
    std::free(p);
  }
  VkAllocationCallbacks callbacks() { return {this, Allocate, Reallocate, Free, nullptr, nullptr}; }
};

TEST_F(MemoryTest, EveryObjectReturnsItsHostMemory) {
  CountingAllocator counter;
  VkAllocationCallbacks callbacks = counter.callbacks();
  const VkAllocationCallbacks* cb = &callbacks;

  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, 1 << 20,
                                FindType(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)};
  VkDeviceMemory memory;
  ASSERT_EQ(vkAllocateMemory(device_, &allocate, cb, &memory), VK_SUCCESS);
  VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bufferInfo.size = 4096;
  bufferInfo.usage = VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer;
  ASSERT_EQ(vkCreateBuffer(device_, &bufferInfo, cb, &buffer), VK_SUCCESS);
  ASSERT_EQ(vkBindBufferMemory(device_, buffer, memory, 0), VK_SUCCESS);
  VkBufferViewCreateInfo bufferViewInfo{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO, nullptr, 0, buffer,
                                        VK_FORMAT_R32_UINT, 0, VK_WHOLE_SIZE};
  VkBufferView bufferView;
  ASSERT_EQ(vkCreateBufferView(device_, &bufferViewInfo, cb, &bufferView), VK_SUCCESS);
  VkImageCreateInfo imageInfo{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  imageInfo.imageType = VK_IMAGE_TYPE_2D;
  imageInfo.format = VK_FORMAT_R8G8B8A8_UNORM;
  imageInfo.extent = {16, 16, 1};
  imageInfo.mipLevels = 1;
  imageInfo.arrayLayers = 1;
  imageInfo.samples = VK_SAMPLE_COUNT_1_BIT;
  imageInfo.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  VkImage image;
  ASSERT_EQ(vkCreateImage(device_, &imageInfo, cb, &image), VK_SUCCESS);
  ASSERT_EQ(vkBindImageMemory(device_, image, memory, 65536), VK_SUCCESS);
  VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  viewInfo.image = image;
  viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D;
  viewInfo.format = VK_FORMAT_R8G8B8A8_UNORM;
  viewInfo.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView imageView;
  ASSERT_EQ(vkCreateImageView(device_, &viewInfo, cb, &imageView), VK_SUCCESS);
  VkSamplerCreateInfo samplerInfo{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  VkSampler sampler;
  ASSERT_EQ(vkCreateSampler(device_, &samplerInfo, cb, &sampler), VK_SUCCESS);
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_ALL, &sampler};
  VkDescriptorSetLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1,
                                             &binding};
  VkDescriptorSetLayout setLayout;
  ASSERT_EQ(vkCreateDescriptorSetLayout(device_, &layoutInfo, cb, &setLayout), VK_SUCCESS);
  VkPipelineLayoutCreateInfo pipelineLayoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1,
                                                &setLayout};
  VkPipelineLayout pipelineLayout;
  ASSERT_EQ(vkCreatePipelineLayout(device_, &pipelineLayoutInfo, cb, &pipelineLayout), VK_SUCCESS);
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4};
  VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr,
                                      VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT, 4, 1, &size};
  VkDescriptorPool pool;
  ASSERT_EQ(vkCreateDescriptorPool(device_, &poolInfo, cb, &pool), VK_SUCCESS);
  VkDescriptorSetLayout layouts[2] = {setLayout, setLayout};
  VkDescriptorSetAllocateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 2, layouts};
  VkDescriptorSet sets[2];
  ASSERT_EQ(vkAllocateDescriptorSets(device_, &setInfo, sets), VK_SUCCESS);
  vkFreeDescriptorSets(device_, pool, 1, &sets[0]);
  EXPECT_GE(counter.total, 10u) << "every object went through the callbacks";

  // Failing callbacks: each create reports OUT_OF_HOST_MEMORY and takes nothing.
  counter.fail = true;
  size_t liveBefore = counter.live.size();
  VkBuffer noBuffer;
  EXPECT_EQ(vkCreateBuffer(device_, &bufferInfo, cb, &noBuffer), VK_ERROR_OUT_OF_HOST_MEMORY);
  VkDeviceMemory noMemory;
  EXPECT_EQ(vkAllocateMemory(device_, &allocate, cb, &noMemory), VK_ERROR_OUT_OF_HOST_MEMORY);
  VkSampler noSampler;
  EXPECT_EQ(vkCreateSampler(device_, &samplerInfo, cb, &noSampler), VK_ERROR_OUT_OF_HOST_MEMORY);
  VkDescriptorSetLayout noLayout;
  EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &layoutInfo, cb, &noLayout), VK_ERROR_OUT_OF_HOST_MEMORY);
  VkDescriptorSet noSet;
  setInfo.descriptorSetCount = 1;
  EXPECT_EQ(vkAllocateDescriptorSets(device_, &setInfo, &noSet), VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(counter.live.size(), liveBefore);
  counter.fail = false;

  // Destroyed in an order that leaves users alive after what they use was destroyed.
  vkDestroyDescriptorSetLayout(device_, setLayout, cb);
  vkDestroySampler(device_, sampler, cb);
  vkDestroyPipelineLayout(device_, pipelineLayout, cb);
  vkDestroyDescriptorPool(device_, pool, cb);
  vkDestroyImageView(device_, imageView, cb);
  vkDestroyBufferView(device_, bufferView, cb);
  vkDestroyImage(device_, image, cb);
  vkDestroyBuffer(device_, buffer, cb);
  vkFreeMemory(device_, memory, cb);
  EXPECT_TRUE(counter.live.empty()) << counter.live.size() << " allocations were not returned";
}

}  // namespace
}  // namespace crashtest::test
