// VK_KHR_pipeline_executable_properties through the real loader: the executables, statistics and internal
// representations of real pipelines, and statistics that respond to the shader the way a compiler's do.
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "pipeline_test_env.h"

namespace crashtest::test {
namespace {

class ExecutablePropertiesTest : public PipelineTest {
 protected:
  void SetUp() override {
    PipelineTest::SetUp();
    if (HasFatalFailure()) return;
    // The commands need the extension and its feature enabled on the device.
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR supported{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported};
    vkGetPhysicalDeviceFeatures2(physical_, &features2);
    ASSERT_TRUE(supported.pipelineExecutableInfo) << "the default device offers pipeline executable properties";
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR enable{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    enable.pipelineExecutableInfo = VK_TRUE;
    ASSERT_EQ(CreateDeviceWithOneQueue(physical_, &device_, {VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME},
                                       &enable),
              VK_SUCCESS);
    properties_fn_ = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        vkGetDeviceProcAddr(device_, "vkGetPipelineExecutablePropertiesKHR"));
    statistics_fn_ = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(device_, "vkGetPipelineExecutableStatisticsKHR"));
    representations_fn_ = reinterpret_cast<PFN_vkGetPipelineExecutableInternalRepresentationsKHR>(
        vkGetDeviceProcAddr(device_, "vkGetPipelineExecutableInternalRepresentationsKHR"));
    ASSERT_NE(properties_fn_, nullptr);
    ASSERT_NE(statistics_fn_, nullptr);
    ASSERT_NE(representations_fn_, nullptr);
  }

  // A compute pipeline of a corpus shader with one storage buffer at set 0 binding 0.
  VkPipeline StatsPipeline(const std::string& corpusFile, VkPipelineCreateFlags flags) {
    std::vector<uint32_t> words = CorpusWords(corpusFile);
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = words.size() * 4;
    moduleInfo.pCode = words.data();
    VkShaderModule module = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateShaderModule(device_, &moduleInfo, nullptr, &module), VK_SUCCESS) << corpusFile;
    modules_.push_back(module);
    VkComputePipelineCreateInfo info =
        ComputeInfo(module, Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}}));
    info.flags = flags;
    VkPipeline pipeline = VK_NULL_HANDLE;
    EXPECT_EQ(CreateCompute(info, &pipeline), VK_SUCCESS) << corpusFile;
    return pipeline;
  }

  std::map<std::string, VkPipelineExecutableStatisticKHR> Statistics(VkPipeline pipeline, uint32_t index = 0) {
    VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipeline, index};
    uint32_t count = 0;
    EXPECT_EQ(statistics_fn_(device_, &info, &count, nullptr), VK_SUCCESS);
    std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    EXPECT_EQ(statistics_fn_(device_, &info, &count, stats.data()), VK_SUCCESS);
    std::map<std::string, VkPipelineExecutableStatisticKHR> byName;
    for (const auto& s : stats) byName[s.name] = s;
    return byName;
  }
  uint64_t Value(VkPipeline pipeline, const std::string& name) {
    auto stats = Statistics(pipeline);
    EXPECT_TRUE(stats.count(name)) << name;
    return stats.count(name) ? stats[name].value.u64 : 0;
  }

  PFN_vkGetPipelineExecutablePropertiesKHR properties_fn_ = nullptr;
  PFN_vkGetPipelineExecutableStatisticsKHR statistics_fn_ = nullptr;
  PFN_vkGetPipelineExecutableInternalRepresentationsKHR representations_fn_ = nullptr;
};

constexpr VkPipelineCreateFlags kCaptureAll =
    VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR | VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR;

TEST_F(ExecutablePropertiesTest, OneComputeExecutableWithTheDevicesSubgroupSize) {
  VkPipeline pipeline = StatsPipeline("stats_pressure_04.comp.spv", kCaptureAll);
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, nullptr, pipeline};
  uint32_t count = 0;
  ASSERT_EQ(properties_fn_(device_, &info, &count, nullptr), VK_SUCCESS);
  ASSERT_EQ(count, 1u);
  VkPipelineExecutablePropertiesKHR properties{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR};
  ASSERT_EQ(properties_fn_(device_, &info, &count, &properties), VK_SUCCESS);
  EXPECT_EQ(properties.stages, static_cast<VkShaderStageFlags>(VK_SHADER_STAGE_COMPUTE_BIT));
  EXPECT_NE(std::string(properties.name).find("ompute"), std::string::npos) << properties.name;
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(physical_, &properties2);
  EXPECT_EQ(properties.subgroupSize, subgroup.subgroupSize);
}

TEST_F(ExecutablePropertiesTest, MoreLiveValuesNeedMoreRegisters) {
  uint64_t low = Value(StatsPipeline("stats_pressure_04.comp.spv", kCaptureAll), "Registers");
  uint64_t mid = Value(StatsPipeline("stats_pressure_32.comp.spv", kCaptureAll), "Registers");
  uint64_t high = Value(StatsPipeline("stats_pressure_64.comp.spv", kCaptureAll), "Registers");
  EXPECT_LT(low, mid);
  EXPECT_LT(mid, high);
}

TEST_F(ExecutablePropertiesTest, SharedMemoryIsTheDeclaredWorkgroupArrays) {
  EXPECT_EQ(Value(StatsPipeline("stats_shared_4k.comp.spv", kCaptureAll), "Workgroup memory size"), 4096u);
}

TEST_F(ExecutablePropertiesTest, WithoutTheCaptureFlagsThereAreNoStatisticsOrRepresentations) {
  VkPipeline pipeline = StatsPipeline("stats_pressure_04.comp.spv", 0);
  EXPECT_TRUE(Statistics(pipeline).empty());
  VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipeline, 0};
  uint32_t count = 7;
  EXPECT_EQ(representations_fn_(device_, &info, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 0u);
}

TEST_F(ExecutablePropertiesTest, InternalRepresentationsAreNulTerminatedTextEvenWhenTruncated) {
  VkPipeline pipeline = StatsPipeline("stats_loop_8.comp.spv", kCaptureAll);
  VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipeline, 0};
  uint32_t count = 0;
  ASSERT_EQ(representations_fn_(device_, &info, &count, nullptr), VK_SUCCESS);
  ASSERT_GE(count, 2u);  // the optimised SPIR-V and crashtest's IR
  std::vector<VkPipelineExecutableInternalRepresentationKHR> reps(
      count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR});
  ASSERT_EQ(representations_fn_(device_, &info, &count, reps.data()), VK_SUCCESS);  // sizes only
  std::vector<std::vector<char>> storage;
  for (auto& r : reps) {
    EXPECT_TRUE(r.isText);
    ASSERT_GT(r.dataSize, 16u);
    storage.emplace_back(r.dataSize, 'x');
    r.pData = storage.back().data();
  }
  ASSERT_EQ(representations_fn_(device_, &info, &count, reps.data()), VK_SUCCESS);
  for (size_t i = 0; i < reps.size(); ++i) EXPECT_EQ(storage[i].back(), '\0');
  // A buffer too small: VK_INCOMPLETE, and the text still ends in NUL.
  std::vector<char> small(8, 'x');
  reps[0].dataSize = small.size();
  reps[0].pData = small.data();
  uint32_t one = 1;
  EXPECT_EQ(representations_fn_(device_, &info, &one, reps.data()), VK_INCOMPLETE);
  EXPECT_EQ(small.back(), '\0');
}

// Every internal representation of executable 0 of `pipeline`, concatenated (the optimised SPIR-V's disassembly
// among them).
std::string AllRepresentations(PFN_vkGetPipelineExecutableInternalRepresentationsKHR fn, VkDevice device,
                               VkPipeline pipeline) {
  VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipeline, 0};
  uint32_t count = 0;
  EXPECT_EQ(fn(device, &info, &count, nullptr), VK_SUCCESS);
  std::vector<VkPipelineExecutableInternalRepresentationKHR> reps(
      count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR});
  EXPECT_EQ(fn(device, &info, &count, reps.data()), VK_SUCCESS);
  std::vector<std::vector<char>> storage;
  for (auto& r : reps) {
    storage.emplace_back(r.dataSize + 1, '\0');
    r.pData = storage.back().data();
  }
  EXPECT_EQ(fn(device, &info, &count, reps.data()), VK_SUCCESS);
  std::string text;
  for (const auto& chars : storage) text += std::string(chars.data()) + "\n";
  return text;
}

// OpSpecConstantOp Select with float results, on a boolean spec constant: used to fail pipeline creation with
// "lowering failed: unsupported constant instruction OpSpecConstantOp" (issue 18, defect 3). Both with the
// default and with an application value, with and without a function call (which routes the module through
// SPIRV-Tools first); the frozen constants carry the selected values.
TEST_F(ExecutablePropertiesTest, FloatSelectOnABooleanSpecConstantIsFrozen) {
  for (const char* file : {"spec_select.comp.spv", "spec_select_call.comp.spv"}) {
    for (const bool flag : {false, true}) {
      SCOPED_TRACE(std::string(file) + (flag ? " FLAG=true" : " FLAG=false (default)"));
      VkComputePipelineCreateInfo info = ComputeInfo(Module(file), Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}}));
      info.flags = kCaptureAll;
      const VkBool32 value = VK_TRUE;
      const VkSpecializationMapEntry entry{0, 0, sizeof(VkBool32)};
      const VkSpecializationInfo specialization{1, &entry, sizeof(value), &value};
      if (flag) info.stage.pSpecializationInfo = &specialization;
      VkPipeline pipeline = VK_NULL_HANDLE;
      ASSERT_EQ(CreateCompute(info, &pipeline), VK_SUCCESS);
      const std::string text = AllRepresentations(representations_fn_, device_, pipeline);
      EXPECT_EQ(text.find("OpSpecConstant"), std::string::npos) << text;
      EXPECT_NE(text.find(flag ? "%X = OpConstant %float 1\n" : "%X = OpConstant %float 0\n"), std::string::npos)
          << text;
      EXPECT_NE(text.find(flag ? "%V = OpConstantComposite %v2float %float_3 %float_4\n"
                               : "%V = OpConstantComposite %v2float %float_5 %float_6\n"),
                std::string::npos)
          << text;
    }
  }
}

}  // namespace
}  // namespace crashtest::test
