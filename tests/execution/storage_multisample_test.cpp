// Multisampled storage images (shaderStorageImageMultisample) through the real loader: one 8x8 RGBA32F image of
// four samples, written and read per sample by a compute shader (OpImageWrite / OpImageRead with the Sample
// operand, OpImageQuerySamples), on crashtest and on lavapipe; the shader copies what it reads into a buffer, since
// multisampled images cannot be copied out.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <bit>
#include <string>
#include <vector>

#include "vk_compute.h"
#include "vk_rig.h"

namespace crashtest::test {
namespace {

constexpr uint32_t kSide = 8, kFloats = kSide * kSide * 5 * 4;

// The words of the output buffer, or empty with *error set.
std::vector<uint32_t> RunMultisample(VkRig& rig, std::string* error) {
  VkDevice dev = rig.device;
  uint32_t* mapped = nullptr;
  VkBuffer out = rig.Buffer(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, std::vector<uint32_t>(kFloats, 0), &mapped);
  VkImageView view = VK_NULL_HANDLE;
  VkImage image = rig.Image(&view, kSide, kSide, VK_SAMPLE_COUNT_4_BIT);
  if (image == VK_NULL_HANDLE) {
    *error = "vkCreateImage failed for a 4-sample storage image";
    return {};
  }
  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  setInfo.bindingCount = 2;
  setInfo.pBindings = bindings;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  vkCreateDescriptorSetLayout(dev, &setInfo, nullptr, &setLayout);
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &setLayout;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  vkCreatePipelineLayout(dev, &layoutInfo, nullptr, &layout);
  const std::vector<uint32_t> spirv =
      ReadSpirv(std::string(CRASHTEST_EXECUTION_SHADER_DIR) + "/storage_multisample.comp.spv");
  VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  moduleInfo.codeSize = spirv.size() * 4;
  moduleInfo.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  vkCreateShaderModule(dev, &moduleInfo, nullptr, &module);
  VkComputePipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipelineInfo.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                        module, "main", nullptr};
  pipelineInfo.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  if (vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &pipeline) != VK_SUCCESS)
    *error = "vkCreateComputePipelines failed";

  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool = VK_NULL_HANDLE;
  vkCreateCommandPool(dev, &poolInfo, nullptr, &pool);
  VkCommandBufferAllocateInfo cbInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                     VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cb = VK_NULL_HANDLE;
  vkAllocateCommandBuffers(dev, &cbInfo, &cb);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cb, &begin);
  VkImageMemoryBarrier toGeneral{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  toGeneral.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
  toGeneral.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  toGeneral.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  toGeneral.srcQueueFamilyIndex = toGeneral.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  toGeneral.image = image;
  toGeneral.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toGeneral);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  VkDescriptorImageInfo imageInfo{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
  VkDescriptorBufferInfo bufferInfo{out, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
  writes[0].dstBinding = 0;
  writes[0].descriptorCount = 1;
  writes[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  writes[0].pImageInfo = &imageInfo;
  writes[1].dstBinding = 1;
  writes[1].descriptorCount = 1;
  writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  writes[1].pBufferInfo = &bufferInfo;
  rig.push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, writes);
  vkCmdDispatch(cb, kSide / 4, kSide / 4, 1);
  VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr,
                       0, nullptr);
  VkResult result = vkEndCommandBuffer(cb);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  if (result == VK_SUCCESS && error->empty()) result = vkQueueSubmit(rig.queue, 1, &submit, VK_NULL_HANDLE);
  if (result == VK_SUCCESS) result = vkQueueWaitIdle(rig.queue);
  if (result != VK_SUCCESS && error->empty()) *error = "submission failed: " + std::to_string(result);
  std::vector<uint32_t> words;
  if (error->empty()) words.assign(mapped, mapped + kFloats);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyShaderModule(dev, module, nullptr);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  return words;
}

TEST(StorageMultisample, SameSamplesAsLavapipe) {
  std::string error;
  VkInstance instance = CreateTestInstance(&error);
  ASSERT_NE(instance, VK_NULL_HANDLE) << error;
  VkPhysicalDeviceFeatures features{};
  features.shaderStorageImageMultisample = VK_TRUE;
  std::vector<uint32_t> mine, theirs;
  {
    VkRig rig(instance, true, features);
    ASSERT_NE(rig.device, VK_NULL_HANDLE) << "crashtest: no device with shaderStorageImageMultisample";
    mine = RunMultisample(rig, &error);
    ASSERT_TRUE(error.empty()) << "crashtest: " << error;
  }
  {
    VkRig rig(instance, false, features);
    ASSERT_NE(rig.device, VK_NULL_HANDLE) << "lavapipe: no device with shaderStorageImageMultisample";
    theirs = RunMultisample(rig, &error);
    ASSERT_TRUE(error.empty()) << "lavapipe: " << error;
  }
  vkDestroyInstance(instance, nullptr);
  ASSERT_EQ(mine.size(), theirs.size());
  EXPECT_EQ(mine, theirs);
  // Texel (3, 5), read sample 0 rotated: sample 1's value (3, 5, 1, 351); the sample count 4.
  const size_t at = (5 * kSide + 3) * 5 * 4;
  EXPECT_EQ(mine[at + 3], std::bit_cast<uint32_t>(351.0f));
  EXPECT_EQ(mine[at + 16], std::bit_cast<uint32_t>(4.0f));
}

}  // namespace
}  // namespace crashtest::test
