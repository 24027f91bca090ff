// Update-after-bind (VK_EXT_descriptor_indexing, Vulkan 1.2): a descriptor written after its set was bound in a
// command buffer is the one the submission uses ("the submission will use the most recently set descriptors for
// this binding and the updates do not invalidate the command buffer", VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT).
// Issue 18: every device advertised the extension without these features.
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "work_test_env.h"

namespace crashtest::test {
namespace {

class UpdateAfterBindTest : public WorkTest {};

// saxpy.comp of the corpus (y = a * x + y over n elements, 64 invocations a workgroup) with both buffers in
// update-after-bind bindings.
struct UpdateAfterBindSaxpy {
  VkDevice device;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  explicit UpdateAfterBindSaxpy(VkDevice d) : device(d) {
    std::ifstream file(std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/saxpy.comp.spv", std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    const VkDescriptorBindingFlags flags[2] = {VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT,
                                               VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT};
    VkDescriptorSetLayoutBindingFlagsCreateInfo bindingFlags{
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, nullptr, 2, flags};
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, &bindingFlags};
    setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT;
    setInfo.bindingCount = 2;
    setInfo.pBindings = bindings;
    EXPECT_EQ(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout), VK_SUCCESS);
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    EXPECT_EQ(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout), VK_SUCCESS);
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = bytes.size();
    moduleInfo.pCode = reinterpret_cast<const uint32_t*>(bytes.data());
    EXPECT_EQ(vkCreateShaderModule(device, &moduleInfo, nullptr, &module), VK_SUCCESS);
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.layout = layout;
    EXPECT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_SUCCESS);
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT;
    poolInfo.maxSets = 1;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &size;
    EXPECT_EQ(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool), VK_SUCCESS);
    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &setLayout};
    EXPECT_EQ(vkAllocateDescriptorSets(device, &allocate, &set), VK_SUCCESS);
  }
  void Write(uint32_t binding, VkBuffer buffer) const {
    VkDescriptorBufferInfo info{buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.dstBinding = binding;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &info;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
  }
  ~UpdateAfterBindSaxpy() {
    vkDestroyDescriptorPool(device, pool, nullptr);
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyShaderModule(device, module, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  }
};

void FillFloats(HostBuffer* buffer, float value, uint32_t count) {
  std::vector<float> values(count, value);
  std::memcpy(buffer->mapped, values.data(), count * sizeof(float));
}

TEST_F(UpdateAfterBindTest, TheSubmissionUsesTheDescriptorsWrittenAfterTheBind) {
  if (!descriptorIndexing_.descriptorBindingStorageBufferUpdateAfterBind)
    FAIL() << "descriptorBindingStorageBufferUpdateAfterBind is not advertised (VK_EXT_descriptor_indexing promises it)";
  constexpr uint32_t kCount = 64;
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  HostBuffer* bound = CreateHostBuffer(kCount * 4, usage);
  HostBuffer* written = CreateHostBuffer(kCount * 4, usage);
  HostBuffer* yBound = CreateHostBuffer(kCount * 4, usage);
  HostBuffer* yWritten = CreateHostBuffer(kCount * 4, usage);
  FillFloats(bound, 1.0f, kCount);
  FillFloats(written, 5.0f, kCount);
  FillFloats(yBound, 0.0f, kCount);
  FillFloats(yWritten, 100.0f, kCount);
  UpdateAfterBindSaxpy saxpy(device_);
  saxpy.Write(0, bound->buffer);
  saxpy.Write(1, yBound->buffer);

  VkCommandBuffer cb = AllocateCommandBuffer();
  Begin(cb);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, saxpy.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, saxpy.layout, 0, 1, &saxpy.set, 0, nullptr);
  const struct {
    float a;
    uint32_t n;
  } push{2.0f, kCount};
  vkCmdPushConstants(cb, saxpy.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  vkCmdDispatch(cb, 1, 1, 1);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  // After recording, before the submission: both descriptors change.
  saxpy.Write(0, written->buffer);
  saxpy.Write(1, yWritten->buffer);
  ASSERT_EQ(SubmitAndWait(queues_[0].queue, cb), VK_SUCCESS);

  std::vector<float> y(kCount), old(kCount);
  std::memcpy(y.data(), yWritten->mapped, kCount * 4);
  std::memcpy(old.data(), yBound->mapped, kCount * 4);
  for (uint32_t i = 0; i < kCount; ++i) {
    EXPECT_EQ(y[i], 110.0f) << i;  // 2 * 5 + 100: the written x and y
    EXPECT_EQ(old[i], 0.0f) << i;  // the y bound at record time is untouched
  }
  vkFreeCommandBuffers(device_, pools_[0], 1, &cb);
}

}  // namespace
}  // namespace crashtest::test
