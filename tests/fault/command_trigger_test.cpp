// Command triggers through the real loader: faults that fire when a queue reaches the nth dispatch or draw (of
// any pipeline, of one named with VK_EXT_debug_utils, or of one whose shader hash matches) or a label region
// opened inside a command buffer. The work before the faulting command is done, the work after it is abandoned,
// and the reports say where the fault happened.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <crashtest/crashtest.h>
#include <crashtest/vulkan_compat.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "fault_loader_fixture.h"

namespace {

using namespace crashtest::test;

std::vector<uint32_t> ReadSpirv(const std::string& name) {
  std::ifstream in(std::string(CRASHTEST_FAULT_SHADER_DIR) + "/" + name, std::ios::binary | std::ios::ate);
  std::vector<uint32_t> words(in ? static_cast<size_t>(in.tellg()) / 4 : 0);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(words.size() * 4));
  EXPECT_FALSE(words.empty()) << name;
  return words;
}

// The device of these tests: masked faults reported, dynamic rendering (for draws without attachments) and
// pipeline executable statistics (for shader hashes).
class CommandTriggerTest : public FaultLoaderTest {
 protected:
  void Open(const std::string& faults) {
    Start(faults, R"(["builtin:default"])", {VK_EXT_DEBUG_UTILS_EXTENSION_NAME});
    VkPhysicalDeviceFaultFeaturesKHR fault{};
    fault.deviceFault = VK_TRUE;
    fault.deviceFaultReportMasked = VK_TRUE;
    executableInfo_.pipelineExecutableInfo = VK_TRUE;
    dynamicRendering_.dynamicRendering = VK_TRUE;
    dynamicRendering_.pNext = &executableInfo_;
    device_ = std::make_unique<TestDevice>(
        gpus_[0], &fault,
        std::vector<const char*>{VK_KHR_DEVICE_FAULT_EXTENSION_NAME, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME},
        &dynamicRendering_);
    ASSERT_NE(device_->device, VK_NULL_HANDLE);
    VkDevice device = device_->device;
    getReports_ = reinterpret_cast<PFN_vkGetDeviceFaultReportsKHR>(
        vkGetDeviceProcAddr(device, "vkGetDeviceFaultReportsKHR"));
    setName_ = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
        vkGetInstanceProcAddr(instance_, "vkSetDebugUtilsObjectNameEXT"));
    beginLabel_ = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance_, "vkCmdBeginDebugUtilsLabelEXT"));
    endLabel_ = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance_, "vkCmdEndDebugUtilsLabelEXT"));
    inject_ = reinterpret_cast<PFN_crashtestInjectFault>(vkGetDeviceProcAddr(device, CRASHTEST_INJECT_FAULT_NAME));
    fired_ = reinterpret_cast<PFN_crashtestGetFiredFaultCount>(
        vkGetDeviceProcAddr(device, CRASHTEST_GET_FIRED_FAULT_COUNT_NAME));
    ASSERT_TRUE(getReports_ && setName_ && beginLabel_ && endLabel_ && inject_ && fired_);

    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    ASSERT_EQ(vkCreateCommandPool(device, &poolInfo, nullptr, &pool_), VK_SUCCESS);
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    ASSERT_EQ(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout_), VK_SUCCESS);
    // Three words the command buffers fill, to see which work ran.
    VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bufferInfo.size = 16;
    bufferInfo.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    ASSERT_EQ(vkCreateBuffer(device, &bufferInfo, nullptr, &buffer_), VK_SUCCESS);
    ASSERT_EQ(device_->Allocate(4096, &memory_), VK_SUCCESS);
    ASSERT_EQ(vkBindBufferMemory(device, buffer_, memory_, 0), VK_SUCCESS);
    ASSERT_EQ(vkMapMemory(device, memory_, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&words_)), VK_SUCCESS);
    std::memset(words_, 0, 16);
  }

  void TearDown() override {
    if (device_) {
      VkDevice device = device_->device;
      for (VkPipeline p : pipelines_) vkDestroyPipeline(device, p, nullptr);
      for (VkShaderModule m : modules_) vkDestroyShaderModule(device, m, nullptr);
      vkDestroyPipelineLayout(device, layout_, nullptr);
      vkDestroyBuffer(device, buffer_, nullptr);
      vkFreeMemory(device, memory_, nullptr);
      vkDestroyCommandPool(device, pool_, nullptr);
      device_.reset();
    }
    FaultLoaderTest::TearDown();
  }

  VkShaderModule Module(const char* file) {
    std::vector<uint32_t> words = ReadSpirv(file);
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = words.size() * 4;
    info.pCode = words.data();
    VkShaderModule module = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateShaderModule(device_->device, &info, nullptr, &module), VK_SUCCESS);
    modules_.push_back(module);
    return module;
  }

  VkPipeline Compute(const char* file, const char* name = nullptr) {
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = Module(file);
    info.stage.pName = "main";
    info.layout = layout_;
    VkPipeline pipeline = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateComputePipelines(device_->device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_SUCCESS);
    pipelines_.push_back(pipeline);
    Name(pipeline, name);
    return pipeline;
  }

  // A vertex-only pipeline with rasterisation discarded, for dynamic rendering without attachments.
  VkPipeline Graphics(const char* name = nullptr) {
    VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    stage.stage = VK_SHADER_STAGE_VERTEX_BIT;
    stage.module = Module("fault_point.vert.spv");
    stage.pName = "main";
    VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.rasterizerDiscardEnable = VK_TRUE;
    raster.lineWidth = 1.0f;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    info.stageCount = 1;
    info.pStages = &stage;
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &assembly;
    info.pRasterizationState = &raster;
    info.layout = layout_;
    VkPipeline pipeline = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateGraphicsPipelines(device_->device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_SUCCESS);
    pipelines_.push_back(pipeline);
    Name(pipeline, name);
    return pipeline;
  }

  void Name(VkPipeline pipeline, const char* name) {
    if (name == nullptr) return;
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = VK_OBJECT_TYPE_PIPELINE;
    info.objectHandle = reinterpret_cast<uint64_t>(pipeline);
    info.pObjectName = name;
    EXPECT_EQ(setName_(device_->device, &info), VK_SUCCESS);
  }

  VkCommandBuffer Begin(VkCommandBufferLevel level = VK_COMMAND_BUFFER_LEVEL_PRIMARY) {
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = pool_;
    info.level = level;
    info.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateCommandBuffers(device_->device, &info, &cb), VK_SUCCESS);
    VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.pInheritanceInfo = &inheritance;
    EXPECT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
    return cb;
  }

  void Fill(VkCommandBuffer cb, uint32_t word, uint32_t value) {
    vkCmdFillBuffer(cb, buffer_, word * 4, 4, value);
  }

  void Dispatch(VkCommandBuffer cb, VkPipeline pipeline) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdDispatch(cb, 1, 1, 1);
  }

  void Draws(VkCommandBuffer cb, const std::vector<VkPipeline>& pipelines) {
    VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, {1, 1}};
    rendering.layerCount = 1;
    vkCmdBeginRendering(cb, &rendering);
    for (VkPipeline pipeline : pipelines) {
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      vkCmdDraw(cb, 3, 1, 0, 0);
    }
    vkCmdEndRendering(cb);
  }

  void Label(VkCommandBuffer cb, const char* name) {
    VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = name;
    beginLabel_(cb, &label);
  }

  // Ends and submits `cb`, then waits for the fence: VK_SUCCESS or VK_ERROR_DEVICE_LOST.
  VkResult Run(VkCommandBuffer cb) {
    EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkFence fence = device_->Fence();
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    // The fault happens where the work runs, not at the submit.
    EXPECT_EQ(vkQueueSubmit(device_->queues[0], 1, &submit, fence), VK_SUCCESS);
    VkResult result = vkWaitForFences(device_->device, 1, &fence, VK_TRUE, UINT64_MAX);
    vkDestroyFence(device_->device, fence, nullptr);
    return result;
  }

  std::vector<VkDeviceFaultInfoKHR> Reports() {
    std::vector<VkDeviceFaultInfoKHR> reports(16, VkDeviceFaultInfoKHR{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR});
    uint32_t count = static_cast<uint32_t>(reports.size());
    VkResult result = getReports_(device_->device, 0, &count, reports.data());
    EXPECT_TRUE(result == VK_SUCCESS || result == VK_TIMEOUT) << result;
    reports.resize(result == VK_TIMEOUT ? 0 : count);
    return reports;
  }

  // The "Shader hash" statistic of the pipeline's only executable.
  uint64_t ShaderHash(VkPipeline pipeline) {
    auto statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(device_->device, "vkGetPipelineExecutableStatisticsKHR"));
    EXPECT_NE(statistics, nullptr);
    if (statistics == nullptr) return 0;
    VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    info.pipeline = pipeline;
    uint32_t count = 0;
    EXPECT_EQ(statistics(device_->device, &info, &count, nullptr), VK_SUCCESS);
    std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    EXPECT_EQ(statistics(device_->device, &info, &count, stats.data()), VK_SUCCESS);
    for (const auto& s : stats)
      if (std::strcmp(s.name, "Shader hash") == 0) return s.value.u64;
    ADD_FAILURE() << "no \"Shader hash\" statistic";
    return 0;
  }

  std::unique_ptr<TestDevice> device_;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executableInfo_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  VkPhysicalDeviceDynamicRenderingFeatures dynamicRendering_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
  PFN_vkGetDeviceFaultReportsKHR getReports_ = nullptr;
  PFN_vkSetDebugUtilsObjectNameEXT setName_ = nullptr;
  PFN_vkCmdBeginDebugUtilsLabelEXT beginLabel_ = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT endLabel_ = nullptr;
  PFN_crashtestInjectFault inject_ = nullptr;
  PFN_crashtestGetFiredFaultCount fired_ = nullptr;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  uint32_t* words_ = nullptr;
  std::vector<VkPipeline> pipelines_;
  std::vector<VkShaderModule> modules_;
};

TEST_F(CommandTriggerTest, ThirdDispatchLosesTheDeviceWhereItRuns) {
  Open(R"([{"id": "third-dispatch", "when": {"dispatch": 3}, "effect": "device-lost",
            "report": {"address": {"type": "read-invalid", "address": "0x7f00", "precision": 256}}}])");
  VkPipeline kernel = Compute("fault_point.comp.spv");
  VkCommandBuffer first = Begin();
  Dispatch(first, kernel);  // dispatch 1
  ASSERT_EQ(Run(first), VK_SUCCESS);
  EXPECT_EQ(fired_(device_->device), 0u);

  // Dispatches 2 and 3 run inside a secondary, in place: the fault hits the second dispatch of the secondary.
  VkCommandBuffer secondary = Begin(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  Dispatch(secondary, kernel);  // dispatch 2
  Dispatch(secondary, kernel);  // dispatch 3: the fault
  Fill(secondary, 1, 0xbad);    // after the fault: abandoned
  ASSERT_EQ(vkEndCommandBuffer(secondary), VK_SUCCESS);
  VkCommandBuffer second = Begin();
  Fill(second, 0, 0x600d);  // before the fault: done
  vkCmdExecuteCommands(second, 1, &secondary);
  Fill(second, 2, 0xbad);
  EXPECT_EQ(Run(second), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(words_[0], 0x600du) << "the work before the faulting dispatch ran";
  EXPECT_EQ(words_[1], 0u) << "the work after it was abandoned";
  EXPECT_EQ(words_[2], 0u);
  EXPECT_EQ(fired_(device_->device), 1u);

  std::vector<VkDeviceFaultInfoKHR> reports = Reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].flags & VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR, 0u);
  EXPECT_NE(reports[0].flags & VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR, 0u);
  EXPECT_EQ(reports[0].faultAddressInfo.reportedAddress, 0x7f00u);
  const std::string description = reports[0].description;
  EXPECT_NE(description.find("dispatch 3"), std::string::npos) << description;
  EXPECT_NE(description.find("vkCmdDispatch"), std::string::npos) << description;
  EXPECT_NE(description.find("submission 2"), std::string::npos) << description;
}

TEST_F(CommandTriggerTest, DrawOfANamedPipelineCountsOnlyThatPipeline) {
  Open(R"([{"id": "shadow-draw", "when": {"draw": 2, "pipeline": "Shadow"}, "effect": "masked"}])");
  VkPipeline plain = Graphics();
  VkPipeline shadow = Graphics("Shadow");
  VkPipeline other = Graphics("Other");
  VkCommandBuffer cb = Begin();
  Draws(cb, {plain, shadow, other, plain, plain});  // one "Shadow" draw among five
  Fill(cb, 0, 1);
  ASSERT_EQ(Run(cb), VK_SUCCESS);
  EXPECT_EQ(fired_(device_->device), 0u);
  EXPECT_TRUE(Reports().empty());

  cb = Begin();
  Draws(cb, {other, shadow, plain});  // the second "Shadow" draw: a masked fault, the device lives
  Fill(cb, 1, 2);
  ASSERT_EQ(Run(cb), VK_SUCCESS);
  EXPECT_EQ(words_[1], 2u) << "a masked fault does not stop the work";
  EXPECT_EQ(fired_(device_->device), 1u);
  std::vector<VkDeviceFaultInfoKHR> reports = Reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].flags & VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR, 0u);
  const std::string description = reports[0].description;
  EXPECT_NE(description.find("draw 2 of pipeline \"Shadow\""), std::string::npos) << description;
  EXPECT_NE(description.find("vkCmdDraw"), std::string::npos) << description;
}

TEST_F(CommandTriggerTest, RepeatingDispatchTriggerFiresAtEveryNth) {
  Open(R"([{"id": "every-second", "when": {"dispatch": 2}, "effect": "masked", "repeat": true}])");
  VkPipeline kernel = Compute("fault_point.comp.spv");
  VkCommandBuffer cb = Begin();
  for (int i = 0; i < 5; ++i) Dispatch(cb, kernel);
  ASSERT_EQ(Run(cb), VK_SUCCESS);
  EXPECT_EQ(fired_(device_->device), 2u) << "dispatches 2 and 4";
  std::vector<VkDeviceFaultInfoKHR> reports = Reports();
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_NE(std::string(reports[0].description).find("dispatch 2"), std::string::npos) << reports[0].description;
  EXPECT_NE(std::string(reports[1].description).find("dispatch 4"), std::string::npos) << reports[1].description;
}

TEST_F(CommandTriggerTest, ShaderHashSelectsThePipelineArmedAtRunTime) {
  Open("[]");
  VkPipeline narrow = Compute("fault_point.comp.spv");
  VkPipeline wide = Compute("fault_point_wide.comp.spv");
  const uint64_t hash = ShaderHash(wide);
  ASSERT_NE(hash, ShaderHash(narrow)) << "different code, different hash";
  char fault[256];
  std::snprintf(fault, sizeof(fault),
                R"({"id": "by-hash", "when": {"dispatch": 1, "shaderHash": "0x%016)" PRIx64
                R"("}, "effect": "device-lost"})",
                hash);
  ASSERT_EQ(inject_(device_->device, fault), VK_SUCCESS) << "armed for its trigger, not fired";
  VkCommandBuffer cb = Begin();
  Dispatch(cb, narrow);
  Fill(cb, 0, 7);
  Dispatch(cb, wide);  // the first dispatch of the matching shader
  Fill(cb, 1, 7);
  EXPECT_EQ(Run(cb), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(words_[0], 7u);
  EXPECT_EQ(words_[1], 0u);
  std::vector<VkDeviceFaultInfoKHR> reports = Reports();
  ASSERT_EQ(reports.size(), 1u);
  char expected[64];
  std::snprintf(expected, sizeof(expected), "shader hash 0x%016" PRIx64, hash);
  EXPECT_NE(std::string(reports[0].description).find(expected), std::string::npos) << reports[0].description;
}

TEST_F(CommandTriggerTest, LabelRegionInsideACommandBuffer) {
  Open(R"([{"id": "shadows", "when": {"label": "Shadows"}, "effect": "device-lost"}])");
  VkCommandBuffer cb = Begin();
  Label(cb, "Opaque");
  Fill(cb, 0, 1);
  endLabel_(cb);
  Label(cb, "Shadows");  // the fault: entering this region
  Fill(cb, 1, 1);
  endLabel_(cb);
  EXPECT_EQ(Run(cb), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(words_[0], 1u);
  EXPECT_EQ(words_[1], 0u);
  std::vector<VkDeviceFaultInfoKHR> reports = Reports();
  ASSERT_EQ(reports.size(), 1u);
  const std::string description = reports[0].description;
  EXPECT_NE(description.find("label region \"Shadows\" in a command buffer"), std::string::npos) << description;
  EXPECT_NE(description.find("vkCmdBeginDebugUtilsLabelEXT"), std::string::npos) << description;
}

TEST_F(CommandTriggerTest, HangAtADispatchThenTheWatchdog) {
  Open(R"([{"id": "stuck", "when": {"dispatch": 1}, "effect": "hang", "watchdogMs": 50}])");
  VkPipeline kernel = Compute("fault_point.comp.spv");
  VkCommandBuffer cb = Begin();
  Fill(cb, 0, 3);
  Dispatch(cb, kernel);
  Fill(cb, 1, 3);
  EXPECT_EQ(Run(cb), VK_ERROR_DEVICE_LOST) << "the watchdog loses the device";
  EXPECT_EQ(words_[0], 3u);
  EXPECT_EQ(words_[1], 0u);
  std::vector<VkDeviceFaultInfoKHR> reports = Reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].flags & VK_DEVICE_FAULT_FLAG_WATCHDOG_TIMEOUT_BIT_KHR, 0u);
  EXPECT_NE(reports[0].flags & VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR, 0u);
}

TEST_F(CommandTriggerTest, CountsFollowSubmissionOrderNotRecording) {
  // Recorded once, submitted twice: the third dispatch is the first of the second submission.
  Open(R"([{"id": "third", "when": {"dispatch": 3}, "effect": "device-lost"}])");
  VkPipeline kernel = Compute("fault_point.comp.spv");
  VkCommandBuffer cb = Begin();
  Dispatch(cb, kernel);
  Fill(cb, 0, 5);
  Dispatch(cb, kernel);
  ASSERT_EQ(Run(cb), VK_SUCCESS);
  words_[0] = 0;
  VkFence fence = device_->Fence();
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  ASSERT_EQ(vkQueueSubmit(device_->queues[0], 1, &submit, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_->device, 1, &fence, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(words_[0], 0u) << "the fill after the faulting dispatch did not run";
  vkDestroyFence(device_->device, fence, nullptr);
}

}  // namespace
