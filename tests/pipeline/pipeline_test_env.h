// Shared setup of the pipeline tests through the real loader: a device (with geometry and tessellation shaders
// enabled when the device advertises them), shader modules from tests/pipeline/shaders (the corpus shaders there
// are compiled for Vulkan 1.0, so every device accepts them), set and pipeline layouts, a render pass, and
// compute / graphics create-info builders. Every object a helper creates is destroyed in TearDown.
//
// Test-only accessors: non-dispatchable handles are crashtest object pointers (no layers run in these tests), so
// the tests read a pipeline's stages through its header (FromHandle(pipeline)->stages()), as the memory tests do.
#pragma once

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <string>
#include <vector>

#include "../icd/vk_test_env.h"
#include "pipeline/pipeline.h"
#include "test_shaders.h"

namespace crashtest::test {

struct BindingSpec {
  uint32_t binding;
  VkDescriptorType type;
  uint32_t count = 1;
  VkShaderStageFlags stages = VK_SHADER_STAGE_COMPUTE_BIT;
};

class PipelineTest : public LoaderTest {
 protected:
  void SetUp() override {
    LoaderTest::SetUp();
    VkPhysicalDeviceFeatures supported{};
    vkGetPhysicalDeviceFeatures(physical_, &supported);
    VkPhysicalDeviceFeatures enabled{};
    enabled.geometryShader = supported.geometryShader;
    enabled.tessellationShader = supported.tessellationShader;
    geometry_ = supported.geometryShader;
    tessellation_ = supported.tessellationShader;
    vkGetPhysicalDeviceProperties(physical_, &properties_);
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.pEnabledFeatures = &enabled;
    ASSERT_EQ(vkCreateDevice(physical_, &info, nullptr, &device_), VK_SUCCESS);
  }
  void TearDown() override {
    for (VkPipeline p : pipelines_) vkDestroyPipeline(device_, p, nullptr);
    for (VkPipelineCache c : caches_) vkDestroyPipelineCache(device_, c, nullptr);
    for (VkShaderModule m : modules_) vkDestroyShaderModule(device_, m, nullptr);
    for (VkPipelineLayout l : pipelineLayouts_) vkDestroyPipelineLayout(device_, l, nullptr);
    for (VkDescriptorSetLayout l : setLayouts_) vkDestroyDescriptorSetLayout(device_, l, nullptr);
    for (VkRenderPass r : renderPasses_) vkDestroyRenderPass(device_, r, nullptr);
    if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
    LoaderTest::TearDown();
  }

  VkShaderModule Module(const std::string& file) {
    std::vector<uint32_t> words = CompilerTestWords(file);
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = words.size() * 4;
    info.pCode = words.data();
    VkShaderModule module = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateShaderModule(device_, &info, nullptr, &module), VK_SUCCESS) << file;
    modules_.push_back(module);
    return module;
  }

  VkDescriptorSetLayout SetLayout(const std::vector<BindingSpec>& bindings) {
    std::vector<VkDescriptorSetLayoutBinding> vk;
    for (const BindingSpec& b : bindings) vk.push_back({b.binding, b.type, b.count, b.stages, nullptr});
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = static_cast<uint32_t>(vk.size());
    info.pBindings = vk.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout), VK_SUCCESS);
    setLayouts_.push_back(layout);
    return layout;
  }

  VkPipelineLayout Layout(const std::vector<std::vector<BindingSpec>>& sets,
                          const std::vector<VkPushConstantRange>& pushRanges = {}) {
    std::vector<VkDescriptorSetLayout> layouts;
    for (const auto& set : sets) layouts.push_back(SetLayout(set));
    VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    info.setLayoutCount = static_cast<uint32_t>(layouts.size());
    info.pSetLayouts = layouts.data();
    info.pushConstantRangeCount = static_cast<uint32_t>(pushRanges.size());
    info.pPushConstantRanges = pushRanges.data();
    VkPipelineLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreatePipelineLayout(device_, &info, nullptr, &layout), VK_SUCCESS);
    pipelineLayouts_.push_back(layout);
    return layout;
  }

  // saxpy.comp: two storage buffers and an 8-byte push-constant block.
  VkPipelineLayout SaxpyLayout() {
    return Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}},
                  {{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8}});
  }

  static VkComputePipelineCreateInfo ComputeInfo(VkShaderModule module, VkPipelineLayout layout,
                                                 const VkSpecializationInfo* specialization = nullptr,
                                                 const char* entry = "main") {
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = entry;
    info.stage.pSpecializationInfo = specialization;
    info.layout = layout;
    info.basePipelineIndex = -1;
    return info;
  }

  // Creates and tracks; returns the result.
  VkResult CreateCompute(const VkComputePipelineCreateInfo& info, VkPipeline* pipeline,
                         VkPipelineCache cache = VK_NULL_HANDLE) {
    VkResult result = vkCreateComputePipelines(device_, cache, 1, &info, nullptr, pipeline);
    if (*pipeline != VK_NULL_HANDLE) pipelines_.push_back(*pipeline);
    return result;
  }
  void Track(const VkPipeline* pipelines, size_t count) {
    for (size_t i = 0; i < count; ++i)
      if (pipelines[i] != VK_NULL_HANDLE) pipelines_.push_back(pipelines[i]);
  }

  VkRenderPass ColourPass(VkFormat format = VK_FORMAT_R8G8B8A8_UNORM) {
    VkAttachmentDescription attachment{};
    attachment.format = format;
    attachment.samples = VK_SAMPLE_COUNT_1_BIT;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &reference;
    VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    info.attachmentCount = 1;
    info.pAttachments = &attachment;
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    VkRenderPass pass = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateRenderPass(device_, &info, nullptr, &pass), VK_SUCCESS);
    renderPasses_.push_back(pass);
    return pass;
  }

  // A graphics create info whose pointers stay valid while the builder lives.
  struct GraphicsBuilder {
    std::vector<VkPipelineShaderStageCreateInfo> stages;
    VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo inputAssembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    VkPipelineTessellationStateCreateInfo tessellation{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    VkPipelineRasterizationStateCreateInfo rasterization{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    VkPipelineColorBlendAttachmentState blendAttachment{};
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    std::vector<VkDynamicState> dynamicStates{VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};

    void AddStage(VkShaderStageFlagBits stage, VkShaderModule module) {
      VkPipelineShaderStageCreateInfo s{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
      s.stage = stage;
      s.module = module;
      s.pName = "main";
      stages.push_back(s);
    }
    const VkGraphicsPipelineCreateInfo& Build(VkPipelineLayout layout, VkRenderPass pass) {
      inputAssembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
      viewport.viewportCount = 1;
      viewport.scissorCount = 1;
      rasterization.lineWidth = 1.0f;
      multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
      blendAttachment.colorWriteMask = 0xf;
      blend.attachmentCount = 1;
      blend.pAttachments = &blendAttachment;
      dynamic.dynamicStateCount = static_cast<uint32_t>(dynamicStates.size());
      dynamic.pDynamicStates = dynamicStates.data();
      return Refresh(layout, pass);
    }
    // Re-points the info at the builder's members (after the test changed some of them).
    const VkGraphicsPipelineCreateInfo& Refresh(VkPipelineLayout layout, VkRenderPass pass) {
      info.stageCount = static_cast<uint32_t>(stages.size());
      info.pStages = stages.data();
      info.pVertexInputState = &vertexInput;
      info.pInputAssemblyState = &inputAssembly;
      info.pTessellationState = &tessellation;
      info.pViewportState = &viewport;
      info.pRasterizationState = &rasterization;
      info.pMultisampleState = &multisample;
      info.pColorBlendState = &blend;
      dynamic.dynamicStateCount = static_cast<uint32_t>(dynamicStates.size());
      dynamic.pDynamicStates = dynamicStates.data();
      info.pDynamicState = &dynamic;
      info.layout = layout;
      info.renderPass = pass;
      info.basePipelineIndex = -1;
      return info;
    }
  };

  VkResult CreateGraphics(const VkGraphicsPipelineCreateInfo& info, VkPipeline* pipeline,
                          VkPipelineCache cache = VK_NULL_HANDLE) {
    VkResult result = vkCreateGraphicsPipelines(device_, cache, 1, &info, nullptr, pipeline);
    if (*pipeline != VK_NULL_HANDLE) pipelines_.push_back(*pipeline);
    return result;
  }

  VkPipelineCache Cache(const void* data = nullptr, size_t size = 0, VkPipelineCacheCreateFlags flags = 0) {
    VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    info.flags = flags;
    info.initialDataSize = size;
    info.pInitialData = data;
    VkPipelineCache cache = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreatePipelineCache(device_, &info, nullptr, &cache), VK_SUCCESS);
    caches_.push_back(cache);
    return cache;
  }

  std::vector<uint8_t> CacheData(VkPipelineCache cache) {
    size_t size = 0;
    EXPECT_EQ(vkGetPipelineCacheData(device_, cache, &size, nullptr), VK_SUCCESS);
    std::vector<uint8_t> data(size);
    EXPECT_EQ(vkGetPipelineCacheData(device_, cache, &size, data.data()), VK_SUCCESS);
    data.resize(size);
    return data;
  }

  VkDevice device_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  bool geometry_ = false;
  bool tessellation_ = false;
  std::vector<VkPipeline> pipelines_;
  std::vector<VkPipelineCache> caches_;
  std::vector<VkShaderModule> modules_;
  std::vector<VkPipelineLayout> pipelineLayouts_;
  std::vector<VkDescriptorSetLayout> setLayouts_;
  std::vector<VkRenderPass> renderPasses_;
};

// Captures stderr (the driver's log) for the lifetime of the object.
class LogCapture {
 public:
  LogCapture() { ::testing::internal::CaptureStderr(); }
  std::string Take() {
    if (!taken_) text_ = ::testing::internal::GetCapturedStderr(), taken_ = true;
    return text_;
  }
  ~LogCapture() { Take(); }

 private:
  std::string text_;
  bool taken_ = false;
};

}  // namespace crashtest::test
