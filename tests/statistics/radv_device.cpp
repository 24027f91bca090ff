#include "radv_device.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>

#include "test_shaders.h"

namespace crashtest::test {

Radv::~Radv() {
  if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

std::string Radv::Open() {
  // Keep Mesa's driver mapped after the loader unloads it: otherwise LeakSanitizer reports the memory its
  // globals still reference (128 bytes, "<unknown module>") as leaked once the mapping is gone.
  dlopen("libvulkan_radeon.so", RTLD_NOW | RTLD_NODELETE);
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, "radv-calibration", 1, nullptr, 0,
                        VK_API_VERSION_1_3};
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, &app, 0, nullptr, 0, nullptr};
  if (vkCreateInstance(&info, nullptr, &instance_) != VK_SUCCESS) return "vkCreateInstance failed";
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance_, &count, devices.data());
  for (VkPhysicalDevice d : devices) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(d, &p);
    if (std::strstr(p.deviceName, "RADV") != nullptr) physical_ = d;
  }
  if (physical_ == VK_NULL_HANDLE) return "no RADV device";
  // Every feature the device has (the corpus uses 64-bit and 16-bit types, atomics, subgroup operations, BDA,
  // geometry and tessellation stages).
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR, nullptr, VK_TRUE};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &executable};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11, {}};
  vkGetPhysicalDeviceFeatures2(physical_, &features);
  executable.pipelineExecutableInfo = VK_TRUE;
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  const char* extensions[] = {VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME};
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features, 0, 1, &queue, 0, nullptr, 1,
                                extensions, nullptr};
  if (vkCreateDevice(physical_, &deviceInfo, nullptr, &device_) != VK_SUCCESS) return "vkCreateDevice failed";
  getProperties_ = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(device_, "vkGetPipelineExecutablePropertiesKHR"));
  getStatistics_ = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(device_, "vkGetPipelineExecutableStatisticsKHR"));
  return getProperties_ == nullptr || getStatistics_ == nullptr ? "no vkGetPipelineExecutable*KHR" : "";
}

// The union of the entries' bindings (a binding two stages share appears once), visible to `stages`; push
// constants as large as the largest block.
VkPipelineLayout Radv::CreateLayout(const std::vector<const CorpusEntry*>& entries, VkShaderStageFlags stages,
                                    std::vector<VkDescriptorSetLayout>& setLayouts) {
  std::map<uint32_t, VkDescriptorSetLayoutBinding> sets[4];
  uint32_t setCount = 0, pushConstantBytes = 0;
  for (const CorpusEntry* entry : entries) {
    pushConstantBytes = std::max(pushConstantBytes, entry->pushConstantBytes);
    for (uint32_t s = 0; s < 4; ++s)
      for (VkDescriptorSetLayoutBinding b : entry->bindings[s]) {
        b.stageFlags = stages;
        sets[s].emplace(b.binding, b);
        setCount = std::max(setCount, s + 1);
      }
  }
  for (uint32_t s = 0; s < setCount; ++s) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const auto& [binding, b] : sets[s]) bindings.push_back(b);
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0,
                                         static_cast<uint32_t>(bindings.size()), bindings.data()};
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout);
    setLayouts.push_back(layout);
  }
  VkPushConstantRange range{stages, 0, pushConstantBytes};
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, setCount,
                                        setLayouts.data(), pushConstantBytes != 0 ? 1u : 0u, &range};
  VkPipelineLayout layout = VK_NULL_HANDLE;
  vkCreatePipelineLayout(device_, &layoutInfo, nullptr, &layout);
  return layout;
}

VkShaderModule Radv::CreateModule(const std::string& file) {
  std::vector<uint32_t> words = CorpusWords(file);
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, words.size() * 4,
                                words.data()};
  VkShaderModule module = VK_NULL_HANDLE;
  vkCreateShaderModule(device_, &info, nullptr, &module);
  return module;
}

std::vector<RadvExecutable> Radv::Executables(VkPipeline pipeline) {
  VkPipelineInfoKHR pipelineInfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, nullptr, pipeline};
  uint32_t count = 0;
  getProperties_(device_, &pipelineInfo, &count, nullptr);
  std::vector<VkPipelineExecutablePropertiesKHR> properties(count,
                                                            {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  getProperties_(device_, &pipelineInfo, &count, properties.data());
  std::vector<RadvExecutable> executables;
  for (uint32_t i = 0; i < count; ++i) {
    RadvExecutable e{properties[i].stages, properties[i].name, {}};
    VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipeline, i};
    uint32_t statisticCount = 0;
    getStatistics_(device_, &info, &statisticCount, nullptr);
    std::vector<VkPipelineExecutableStatisticKHR> stats(statisticCount,
                                                        {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    getStatistics_(device_, &info, &statisticCount, stats.data());
    for (const auto& s : stats) e.statistics[s.name] = s.value.u64;
    executables.push_back(std::move(e));
  }
  return executables;
}

std::vector<RadvExecutable> Radv::Compute(const CorpusEntry& entry) {
  std::vector<VkDescriptorSetLayout> setLayouts;
  VkPipelineLayout layout = CreateLayout({&entry}, VK_SHADER_STAGE_COMPUTE_BIT, setLayouts);
  VkShaderModule module = CreateModule(entry.file);
  VkComputePipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, nullptr,
                                           VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, {}, layout,
                                           VK_NULL_HANDLE, -1};
  pipelineInfo.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                        module, "main", nullptr};
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<RadvExecutable> executables;
  if (vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &pipeline) == VK_SUCCESS) {
    executables = Executables(pipeline);
    vkDestroyPipeline(device_, pipeline, nullptr);
  }
  vkDestroyShaderModule(device_, module, nullptr);
  vkDestroyPipelineLayout(device_, layout, nullptr);
  for (VkDescriptorSetLayout l : setLayouts) vkDestroyDescriptorSetLayout(device_, l, nullptr);
  return executables;
}

std::vector<RadvExecutable> Radv::Graphics(const GraphicsRecipe& recipe,
                                           const std::map<std::string, CorpusEntry>& corpus) {
  std::vector<const CorpusEntry*> entries;
  std::vector<VkShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  for (const auto& [stage, file] : recipe.stages) {
    if (auto it = corpus.find(file); it != corpus.end()) entries.push_back(&it->second);
    modules.push_back(CreateModule(file));
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, modules.back(), "main",
                      nullptr});
  }
  std::vector<VkDescriptorSetLayout> setLayouts;
  VkPipelineLayout layout = CreateLayout(entries, VK_SHADER_STAGE_ALL_GRAPHICS, setLayouts);

  // A render pass rather than dynamic rendering: tonemap_subpass.frag reads an input attachment.
  std::vector<VkAttachmentDescription> attachments;
  std::vector<VkAttachmentReference> colours;
  for (VkFormat format : recipe.colorAttachments) {
    colours.push_back({static_cast<uint32_t>(attachments.size()), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
    attachments.push_back({0, format, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                           VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                           VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
  }
  VkAttachmentReference input{static_cast<uint32_t>(attachments.size()), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  if (recipe.inputAttachment)
    attachments.push_back({0, VK_FORMAT_R16G16B16A16_SFLOAT, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_LOAD,
                           VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                           VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
  VkSubpassDescription subpass{0, VK_PIPELINE_BIND_POINT_GRAPHICS, recipe.inputAttachment ? 1u : 0u, &input,
                               static_cast<uint32_t>(colours.size()), colours.data(), nullptr, nullptr, 0, nullptr};
  VkRenderPassCreateInfo passInfo{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, nullptr, 0,
                                  static_cast<uint32_t>(attachments.size()), attachments.data(), 1, &subpass, 0,
                                  nullptr};
  VkRenderPass renderPass = VK_NULL_HANDLE;
  vkCreateRenderPass(device_, &passInfo, nullptr, &renderPass);

  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attributes;
  for (uint32_t i = 0; i < recipe.vertexAttributes.size(); ++i) {
    bindings.push_back({i, 64, VK_VERTEX_INPUT_RATE_VERTEX});
    attributes.push_back({i, i, recipe.vertexAttributes[i], 0});
  }
  VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                                                   nullptr, 0, static_cast<uint32_t>(bindings.size()),
                                                   bindings.data(), static_cast<uint32_t>(attributes.size()),
                                                   attributes.data()};
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                  nullptr, 0, recipe.topology, VK_FALSE};
  VkPipelineTessellationStateCreateInfo tessellation{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
                                                     nullptr, 0, recipe.patchControlPoints};
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1,
                                             nullptr, 1, nullptr};
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  std::vector<VkPipelineColorBlendAttachmentState> blend(colours.size());
  for (auto& b : blend) b.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo colourBlend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  colourBlend.attachmentCount = static_cast<uint32_t>(blend.size());
  colourBlend.pAttachments = blend.data();
  VkDynamicState dynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 2,
                                           dynamicStates};
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  info.stageCount = static_cast<uint32_t>(stages.size());
  info.pStages = stages.data();
  info.pVertexInputState = &vertexInput;
  info.pInputAssemblyState = &assembly;
  info.pTessellationState = recipe.patchControlPoints != 0 ? &tessellation : nullptr;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pColorBlendState = &colourBlend;
  info.pDynamicState = &dynamic;
  info.layout = layout;
  info.renderPass = renderPass;
  info.basePipelineIndex = -1;
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<RadvExecutable> executables;
  if (vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_SUCCESS) {
    executables = Executables(pipeline);
    vkDestroyPipeline(device_, pipeline, nullptr);
  }
  vkDestroyRenderPass(device_, renderPass, nullptr);
  vkDestroyPipelineLayout(device_, layout, nullptr);
  for (VkDescriptorSetLayout l : setLayouts) vkDestroyDescriptorSetLayout(device_, l, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(device_, m, nullptr);
  return executables;
}

}  // namespace crashtest::test
