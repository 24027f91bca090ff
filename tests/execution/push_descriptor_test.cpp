// VK_KHR_push_descriptor through the real loader: the same command buffer on crashtest and on Mesa's lavapipe (the
// oracle), every buffer and image compared, plus crashtest's own answers to the expected values. One command buffer
// pushes set 0 three times with a dispatch after each (each dispatch must see its own descriptors: a full push, an
// incremental push through an update template, and an incremental push of two descriptors), binds an ordinary set 1
// after the first push (which must not disturb set 0), and reads and writes both pushed buffers and a pushed storage
// image. Also: the extension's properties and entry points on crashtest, and a buffer destroyed after it was pushed
// faulting like one of a bound set (queue/resource_liveness.cpp).
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "vk_compute.h"
#include "vk_rig.h"

namespace crashtest::test {
namespace {

constexpr uint32_t kWords = kRigWords;


struct PushOutcome {
  VkResult result = VK_SUCCESS;
  std::vector<std::vector<uint32_t>> buffers;  // dstA, dstB, dstC, imageA, imageB (the images as float bits)
};

VkDescriptorBufferInfo Whole(VkBuffer b) { return {b, 0, VK_WHOLE_SIZE}; }

// The command buffer described at the top. `destroySource`: srcA is destroyed after recording (a misuse the queue
// must catch as a use after free).
PushOutcome RunPushes(VkRig& rig, bool destroySource) {
  PushOutcome out;
  VkDevice dev = rig.device;
  std::vector<uint32_t*> maps(8);
  VkBuffer srcA = rig.Buffer(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, {1, 2, 3, 4}, &maps[0]);
  VkBuffer srcB = rig.Buffer(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, {100, 200, 300, 400}, &maps[1]);
  std::vector<uint32_t> zeros(kWords, 0), imageZeros(kWords * 4, 0);
  VkBuffer dst[3];
  for (int i = 0; i < 3; ++i) dst[i] = rig.Buffer(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, zeros, &maps[2 + i]);
  VkBuffer readback[2];
  for (int i = 0; i < 2; ++i) readback[i] = rig.Buffer(VK_BUFFER_USAGE_TRANSFER_DST_BIT, imageZeros, &maps[5 + i]);
  VkBuffer scale = rig.Buffer(VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, {3, 0, 0, 0}, &maps[7]);
  VkImageView viewA = VK_NULL_HANDLE, viewB = VK_NULL_HANDLE;
  VkImage images[2] = {rig.Image(&viewA), rig.Image(&viewB)};

  // Set 0: push descriptors; set 1: an ordinary set.
  VkDescriptorSetLayoutBinding pushBindings[3] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  setInfo.bindingCount = 3;
  setInfo.pBindings = pushBindings;
  VkDescriptorSetLayout setLayouts[2] = {};
  vkCreateDescriptorSetLayout(dev, &setInfo, nullptr, &setLayouts[0]);
  VkDescriptorSetLayoutBinding uniformBinding{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                              nullptr};
  setInfo.flags = 0;
  setInfo.bindingCount = 1;
  setInfo.pBindings = &uniformBinding;
  vkCreateDescriptorSetLayout(dev, &setInfo, nullptr, &setLayouts[1]);
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 2;
  layoutInfo.pSetLayouts = setLayouts;
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  vkCreatePipelineLayout(dev, &layoutInfo, nullptr, &layout);

  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1};
  VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.maxSets = 1;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  vkCreateDescriptorPool(dev, &poolInfo, nullptr, &pool);
  VkDescriptorSetAllocateInfo allocInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocInfo.descriptorPool = pool;
  allocInfo.descriptorSetCount = 1;
  allocInfo.pSetLayouts = &setLayouts[1];
  VkDescriptorSet set1 = VK_NULL_HANDLE;
  vkAllocateDescriptorSets(dev, &allocInfo, &set1);
  VkDescriptorBufferInfo scaleInfo = Whole(scale);
  VkWriteDescriptorSet scaleWrite{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  scaleWrite.dstSet = set1;
  scaleWrite.descriptorCount = 1;
  scaleWrite.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  scaleWrite.pBufferInfo = &scaleInfo;
  vkUpdateDescriptorSets(dev, 1, &scaleWrite, 0, nullptr);

  // The template pushes binding 1 (a buffer) and binding 2 (an image) from one struct.
  struct TemplateData {
    VkDescriptorBufferInfo dst;
    VkDescriptorImageInfo image;
  };
  VkDescriptorUpdateTemplateEntry entries[2] = {
      {1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(TemplateData, dst), sizeof(TemplateData)},
      {2, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, offsetof(TemplateData, image), sizeof(TemplateData)}};
  VkDescriptorUpdateTemplateCreateInfo templateInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  templateInfo.descriptorUpdateEntryCount = 2;
  templateInfo.pDescriptorUpdateEntries = entries;
  templateInfo.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR;
  templateInfo.pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
  templateInfo.pipelineLayout = layout;
  templateInfo.set = 0;
  VkDescriptorUpdateTemplate updateTemplate = VK_NULL_HANDLE;
  vkCreateDescriptorUpdateTemplate(dev, &templateInfo, nullptr, &updateTemplate);

  const std::vector<uint32_t> spirv =
      ReadSpirv(std::string(CRASHTEST_EXECUTION_SHADER_DIR) + "/push_descriptor.comp.spv");
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
  vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &pipeline);

  VkCommandPoolCreateInfo cmdPoolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool cmdPool = VK_NULL_HANDLE;
  vkCreateCommandPool(dev, &cmdPoolInfo, nullptr, &cmdPool);
  VkCommandBufferAllocateInfo cbInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cbInfo.commandPool = cmdPool;
  cbInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cbInfo.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  vkAllocateCommandBuffers(dev, &cbInfo, &cb);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cb, &begin);

  VkMemoryBarrier all{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT,
                      VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  auto barrier = [&] {
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &all, 0,
                         nullptr, 0, nullptr);
  };
  // Both images to GENERAL, cleared to 1 and 2.
  for (int i = 0; i < 2; ++i) {
    VkImageMemoryBarrier toGeneral{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    toGeneral.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toGeneral.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    toGeneral.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    toGeneral.srcQueueFamilyIndex = toGeneral.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toGeneral.image = images[i];
    toGeneral.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &toGeneral);
    const float v = static_cast<float>(i + 1);
    VkClearColorValue color{};
    color.float32[0] = color.float32[1] = color.float32[2] = color.float32[3] = v;
    VkImageSubresourceRange whole{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cb, images[i], VK_IMAGE_LAYOUT_GENERAL, &color, 1, &whole);
  }
  barrier();
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);

  // Push 1: the whole set (srcA, dstA, image A), from arrays that are overwritten right after recording.
  VkDescriptorBufferInfo bufferInfos[2] = {Whole(srcA), Whole(dst[0])};
  VkDescriptorImageInfo imageInfo{VK_NULL_HANDLE, viewA, VK_IMAGE_LAYOUT_GENERAL};
  VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
  writes[0].dstBinding = 0;
  writes[0].descriptorCount = 2;  // bindings 0 and 1: the write runs on into the next binding
  writes[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  writes[0].pBufferInfo = bufferInfos;
  writes[1].dstBinding = 2;
  writes[1].descriptorCount = 1;
  writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  writes[1].pImageInfo = &imageInfo;
  rig.push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, writes);
  bufferInfos[0] = bufferInfos[1] = Whole(srcB);  // consumed at record time: this must change nothing
  imageInfo.imageView = viewB;
  // Set 1 bound after the push: compatible for set 0, which stays.
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 1, 1, &set1, 0, nullptr);
  uint32_t tag = 10;
  vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &tag);
  vkCmdDispatch(cb, 1, 1, 1);
  barrier();

  // Push 2, through the template: dstB and image B; binding 0 keeps srcA.
  TemplateData data{Whole(dst[1]), {VK_NULL_HANDLE, viewB, VK_IMAGE_LAYOUT_GENERAL}};
  rig.pushTemplate(cb, updateTemplate, layout, 0, &data);
  data.dst = Whole(dst[0]);
  tag = 20;
  vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &tag);
  vkCmdDispatch(cb, 1, 1, 1);
  barrier();

  // Push 3: srcB and dstC; image B stays.
  VkDescriptorBufferInfo third[2] = {Whole(srcB), Whole(dst[2])};
  VkWriteDescriptorSet write3{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write3.dstBinding = 0;
  write3.descriptorCount = 2;
  write3.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write3.pBufferInfo = third;
  rig.push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &write3);
  tag = 30;
  vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &tag);
  vkCmdDispatch(cb, 1, 1, 1);
  barrier();

  for (int i = 0; i < 2; ++i) {
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {kWords, 1, 1};
    vkCmdCopyImageToBuffer(cb, images[i], VK_IMAGE_LAYOUT_GENERAL, readback[i], 1, &copy);
  }
  VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr,
                       0, nullptr);
  out.result = vkEndCommandBuffer(cb);
  // The template, its data and the set layouts may go once recording is over: the pushes hold what they need.
  vkDestroyDescriptorUpdateTemplate(dev, updateTemplate, nullptr);
  data = TemplateData{};
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkDescriptorSetLayout l : setLayouts) vkDestroyDescriptorSetLayout(dev, l, nullptr);
  if (out.result == VK_SUCCESS && destroySource) rig.DestroyBuffer(srcA);

  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  if (out.result == VK_SUCCESS) out.result = vkQueueSubmit(rig.queue, 1, &submit, VK_NULL_HANDLE);
  if (out.result == VK_SUCCESS) out.result = vkQueueWaitIdle(rig.queue);
  vkDeviceWaitIdle(dev);
  if (out.result == VK_SUCCESS) {
    for (int i = 0; i < 3; ++i) out.buffers.emplace_back(maps[2 + i], maps[2 + i] + kWords);
    for (int i = 0; i < 2; ++i) out.buffers.emplace_back(maps[5 + i], maps[5 + i] + kWords * 4);
  }
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyShaderModule(dev, module, nullptr);
  vkDestroyCommandPool(dev, cmdPool, nullptr);
  vkDestroyDescriptorPool(dev, pool, nullptr);
  return out;
}

class PushDescriptors : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    instance_ = CreateTestInstance(&error);
    ASSERT_NE(instance_, VK_NULL_HANDLE) << error;
  }
  void TearDown() override { vkDestroyInstance(instance_, nullptr); }
  VkInstance instance_ = VK_NULL_HANDLE;
};

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

TEST_F(PushDescriptors, EachDispatchSeesItsOwnPushAsOnLavapipe) {
  PushOutcome mine, theirs;
  {
    VkRig rig(instance_, true);
    ASSERT_NE(rig.physical, VK_NULL_HANDLE) << "no crashtest device";
    ASSERT_TRUE(rig.hasPush) << "crashtest does not offer VK_KHR_push_descriptor";
    ASSERT_NE(rig.device, VK_NULL_HANDLE);
    ASSERT_NE(rig.push, nullptr);
    ASSERT_NE(rig.pushTemplate, nullptr);
    mine = RunPushes(rig, false);
  }
  {
    VkRig rig(instance_, false);
    ASSERT_TRUE(rig.hasPush && rig.device != VK_NULL_HANDLE) << "no lavapipe device with VK_KHR_push_descriptor";
    theirs = RunPushes(rig, false);
  }
  ASSERT_EQ(mine.result, VK_SUCCESS);
  ASSERT_EQ(theirs.result, VK_SUCCESS);
  ASSERT_EQ(mine.buffers.size(), theirs.buffers.size());
  for (size_t b = 0; b < mine.buffers.size(); ++b) EXPECT_EQ(mine.buffers[b], theirs.buffers[b]) << "buffer " << b;
  // The values themselves: dispatch 1 reads srcA and image A (1), dispatch 2 srcA and image B (2), dispatch 3 srcB
  // and image B as dispatch 2 left it (22).
  const std::vector<uint32_t> dstA = {1 * 3 + 10 + 1, 2 * 3 + 10 + 1, 3 * 3 + 10 + 1, 4 * 3 + 10 + 1};
  const std::vector<uint32_t> dstB = {1 * 3 + 20 + 2, 2 * 3 + 20 + 2, 3 * 3 + 20 + 2, 4 * 3 + 20 + 2};
  const std::vector<uint32_t> dstC = {100 * 3 + 30 + 22, 200 * 3 + 30 + 22, 300 * 3 + 30 + 22, 400 * 3 + 30 + 22};
  ASSERT_EQ(mine.buffers.size(), 5u);
  EXPECT_EQ(mine.buffers[0], dstA);
  EXPECT_EQ(mine.buffers[1], dstB);
  EXPECT_EQ(mine.buffers[2], dstC);
  EXPECT_EQ(mine.buffers[3][0], Bits(11.0f));
  EXPECT_EQ(mine.buffers[4][0], Bits(52.0f));
}

TEST_F(PushDescriptors, PropertiesAndEntryPoints) {
  VkRig rig(instance_, true);
  ASSERT_NE(rig.physical, VK_NULL_HANDLE);
  ASSERT_TRUE(rig.hasPush);
  VkPhysicalDevicePushDescriptorPropertiesKHR push{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &push};
  vkGetPhysicalDeviceProperties2(rig.physical, &props);
  EXPECT_EQ(push.maxPushDescriptors, 32u);  // the default profile's, as lavapipe
  EXPECT_NE(rig.push, nullptr);
  EXPECT_NE(rig.pushTemplate, nullptr);

  // A push layout holds at most maxPushDescriptors descriptors (VUID-VkDescriptorSetLayoutCreateInfo-flags-00281).
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, push.maxPushDescriptors + 1,
                                       VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  info.bindingCount = 1;
  info.pBindings = &binding;
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateDescriptorSetLayout(rig.device, &info, nullptr, &layout), VK_ERROR_VALIDATION_FAILED_EXT);

  // Pushing to a set whose layout is not a push layout is a misuse vkEndCommandBuffer reports
  // (VUID-vkCmdPushDescriptorSetKHR-set-00365).
  info.flags = 0;
  binding.descriptorCount = 1;
  ASSERT_EQ(vkCreateDescriptorSetLayout(rig.device, &info, nullptr, &layout), VK_SUCCESS);
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &layout;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineLayout(rig.device, &layoutInfo, nullptr, &pipelineLayout), VK_SUCCESS);
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateCommandPool(rig.device, &poolInfo, nullptr, &pool), VK_SUCCESS);
  VkCommandBufferAllocateInfo cbInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                     VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cb = VK_NULL_HANDLE;
  ASSERT_EQ(vkAllocateCommandBuffers(rig.device, &cbInfo, &cb), VK_SUCCESS);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cb, &begin);
  VkDescriptorBufferInfo bufferInfo{VK_NULL_HANDLE, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &bufferInfo;
  rig.push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout, 0, 1, &write);
  EXPECT_EQ(vkEndCommandBuffer(cb), VK_ERROR_VALIDATION_FAILED_EXT);
  vkDestroyCommandPool(rig.device, pool, nullptr);
  vkDestroyPipelineLayout(rig.device, pipelineLayout, nullptr);
  vkDestroyDescriptorSetLayout(rig.device, layout, nullptr);
}

// A buffer destroyed after it was pushed is a use after free when the dispatch reads it, as for a bound set: the
// device is lost (the default fault mode) instead of the interpreter touching freed memory.
TEST_F(PushDescriptors, DestroyedPushedBufferFaults) {
  VkRig rig(instance_, true);
  ASSERT_NE(rig.device, VK_NULL_HANDLE);
  const PushOutcome outcome = RunPushes(rig, true);
  EXPECT_EQ(outcome.result, VK_ERROR_DEVICE_LOST);
}

}  // namespace
}  // namespace crashtest::test
