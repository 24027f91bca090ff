// Required subgroup sizes (Vulkan 1.3 / VK_EXT_subgroup_size_control) through the real loader, on the amd-rdna2
// built-in device (subgroup sizes 32..64, default 64, required sizes for compute): a
// VkPipelineShaderStageRequiredSubgroupSizeCreateInfo sets the executable's subgroupSize and the statistics that
// depend on it, and the valid-usage rules the driver can check are answered with VK_ERROR_VALIDATION_FAILED_EXT.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "test_shaders.h"

namespace crashtest::test {
namespace {

struct PipelineRequest {
  std::string file = "stats_shared_16k.comp.spv";  // 256 invocations, 16 KiB of workgroup memory
  VkPipelineShaderStageCreateFlags flags = 0;
  std::optional<uint32_t> requiredSubgroupSize;  // chained as VkPipelineShaderStageRequiredSubgroupSizeCreateInfo
  uint32_t localSizeX = 0;            // spec_constants.comp: constant 0 is local_size_x; 0 keeps the default
};

class SubgroupSizeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, "subgroup-size", 1, nullptr, 0,
                          VK_API_VERSION_1_3};
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, &app};
    ASSERT_EQ(vkCreateInstance(&info, nullptr, &instance_), VK_SUCCESS);
    uint32_t count = 1;
    ASSERT_GE(vkEnumeratePhysicalDevices(instance_, &count, &physical_), VK_SUCCESS);
    ASSERT_EQ(count, 1u);
    VkPhysicalDeviceSubgroupSizeControlProperties sizes{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &sizes};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    vkGetPhysicalDeviceProperties2(physical_, &properties);
    // The test's configuration (amd_rdna2_config.json) selects the built-in amd-rdna2 device.
    ASSERT_EQ(sizes.minSubgroupSize, 32u) << properties.properties.deviceName;
    ASSERT_EQ(sizes.maxSubgroupSize, 64u);
    ASSERT_EQ(subgroup.subgroupSize, 64u);
    ASSERT_NE(sizes.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT, 0u);
  }
  void TearDown() override {
    for (VkPipeline p : pipelines_) vkDestroyPipeline(device_, p, nullptr);
    for (VkPipelineLayout l : layouts_) vkDestroyPipelineLayout(device_, l, nullptr);
    for (VkDescriptorSetLayout l : setLayouts_) vkDestroyDescriptorSetLayout(device_, l, nullptr);
    for (VkShaderModule m : modules_) vkDestroyShaderModule(device_, m, nullptr);
    if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
  }

  // The device, with the two subgroup-size-control features enabled or not.
  void CreateDevice(bool subgroupSizeControl = true, bool computeFullSubgroups = true) {
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR, nullptr, VK_TRUE};
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &executable};
    v13.subgroupSizeControl = subgroupSizeControl;
    v13.computeFullSubgroups = computeFullSubgroups;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
    const char* extensions[] = {VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME};
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v13, 0, 1, &queue, 0, nullptr, 1, extensions};
    ASSERT_EQ(vkCreateDevice(physical_, &info, nullptr, &device_), VK_SUCCESS);
    getProperties_ = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        vkGetDeviceProcAddr(device_, "vkGetPipelineExecutablePropertiesKHR"));
    getStatistics_ = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(device_, "vkGetPipelineExecutableStatisticsKHR"));
    ASSERT_NE(getProperties_, nullptr);
    ASSERT_NE(getStatistics_, nullptr);
  }

  VkResult Create(const PipelineRequest& request, VkPipeline* pipeline) {
    std::vector<uint32_t> words = CorpusWords(request.file);
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, words.size() * 4,
                                        words.data()};
    VkShaderModule module = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateShaderModule(device_, &moduleInfo, nullptr, &module), VK_SUCCESS);
    modules_.push_back(module);
    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 2,
                                            bindings};
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &setInfo, nullptr, &setLayout), VK_SUCCESS);
    setLayouts_.push_back(setLayout);
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
    VkPipelineLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreatePipelineLayout(device_, &layoutInfo, nullptr, &layout), VK_SUCCESS);
    layouts_.push_back(layout);

    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO, nullptr,
        request.requiredSubgroupSize.value_or(0)};
    VkSpecializationMapEntry entry{0, 0, sizeof(uint32_t)};
    VkSpecializationInfo specialization{1, &entry, sizeof(uint32_t), &request.localSizeX};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  request.requiredSubgroupSize ? &required : nullptr,
                  request.flags,
                  VK_SHADER_STAGE_COMPUTE_BIT,
                  module,
                  "main",
                  request.localSizeX != 0 ? &specialization : nullptr};
    info.layout = layout;
    info.basePipelineIndex = -1;
    *pipeline = VK_NULL_HANDLE;
    VkResult result = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, pipeline);
    if (*pipeline != VK_NULL_HANDLE) pipelines_.push_back(*pipeline);
    return result;
  }
  VkPipeline Created(const PipelineRequest& request) {
    VkPipeline pipeline = VK_NULL_HANDLE;
    EXPECT_EQ(Create(request, &pipeline), VK_SUCCESS);
    return pipeline;
  }
  // Rejected with VK_ERROR_VALIDATION_FAILED_EXT, and no pipeline left behind.
  void ExpectRejected(const PipelineRequest& request) {
    VkPipeline pipeline = reinterpret_cast<VkPipeline>(uintptr_t{0x1234});
    EXPECT_EQ(Create(request, &pipeline), VK_ERROR_VALIDATION_FAILED_EXT)
        << request.file << " flags " << request.flags << " required " << request.requiredSubgroupSize.value_or(0)
        << " local x " << request.localSizeX;
    EXPECT_EQ(pipeline, VK_NULL_HANDLE);
  }

  uint32_t SubgroupSize(VkPipeline pipeline) {
    VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, nullptr, pipeline};
    uint32_t count = 1;
    VkPipelineExecutablePropertiesKHR properties{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR};
    EXPECT_EQ(getProperties_(device_, &info, &count, &properties), VK_SUCCESS);
    EXPECT_EQ(count, 1u);
    return properties.subgroupSize;
  }
  uint64_t Statistic(VkPipeline pipeline, const std::string& name) {
    VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipeline, 0};
    uint32_t count = 0;
    EXPECT_EQ(getStatistics_(device_, &info, &count, nullptr), VK_SUCCESS);
    std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    EXPECT_EQ(getStatistics_(device_, &info, &count, stats.data()), VK_SUCCESS);
    for (const auto& s : stats)
      if (name == s.name) return s.value.u64;
    ADD_FAILURE() << "no statistic " << name;
    return 0;
  }

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  PFN_vkGetPipelineExecutablePropertiesKHR getProperties_ = nullptr;
  PFN_vkGetPipelineExecutableStatisticsKHR getStatistics_ = nullptr;
  std::vector<VkShaderModule> modules_;
  std::vector<VkDescriptorSetLayout> setLayouts_;
  std::vector<VkPipelineLayout> layouts_;
  std::vector<VkPipeline> pipelines_;
};

TEST_F(SubgroupSizeTest, DefaultIsTheDeviceSubgroupSize) {
  CreateDevice();
  VkPipeline pipeline = Created({});
  EXPECT_EQ(SubgroupSize(pipeline), 64u);
  // amd-rdna2 reports RADV's statistics: 64 KiB of workgroup memory per core (a CU of two SIMDs) holds four
  // 16 KiB workgroups of four subgroups each, eight per SIMD.
  EXPECT_EQ(Statistic(pipeline, "LDS size"), 16384u);
  EXPECT_EQ(Statistic(pipeline, "Subgroups per SIMD"), 4u * 4u / 2u);
}

TEST_F(SubgroupSizeTest, RequiredSizeSetsTheExecutableAndItsStatistics) {
  CreateDevice();
  VkPipeline wave64 = Created({.requiredSubgroupSize = 64});
  VkPipeline wave32 = Created({.requiredSubgroupSize = 32});
  EXPECT_EQ(SubgroupSize(wave64), 64u);
  EXPECT_EQ(SubgroupSize(wave32), 32u);
  // The same four workgroups fit, each now eight subgroups of 32: 32 per CU (also the hardware cap), 16 per SIMD.
  EXPECT_EQ(Statistic(wave64, "Subgroups per SIMD"), 8u);
  EXPECT_EQ(Statistic(wave32, "Subgroups per SIMD"), 16u);
  // What the shader is does not change; the hash covers the subgroup size.
  EXPECT_EQ(Statistic(wave32, "Instructions"), Statistic(wave64, "Instructions"));
  EXPECT_EQ(Statistic(wave32, "VGPRs"), Statistic(wave64, "VGPRs"));
  EXPECT_NE(Statistic(wave32, "Hash"), Statistic(wave64, "Hash"));
}

TEST_F(SubgroupSizeTest, VaryingSizeAndFullSubgroupsAreAccepted) {
  CreateDevice();
  // ALLOW_VARYING: crashtest keeps the default size. REQUIRE_FULL with a workgroup X of 256: a multiple of
  // subgroupSize, maxSubgroupSize and any required size.
  EXPECT_EQ(SubgroupSize(Created({.flags = VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT})), 64u);
  EXPECT_EQ(SubgroupSize(Created({.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT})), 64u);
  EXPECT_EQ(SubgroupSize(Created({.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT,
                                  .requiredSubgroupSize = 32})),
            32u);
  // spec_constants.comp specialised to a workgroup X of 96: a multiple of 32 but not of 64.
  EXPECT_EQ(SubgroupSize(Created({.file = "spec_constants.comp.spv",
                                  .flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT,
                                  .requiredSubgroupSize = 32,
                                  .localSizeX = 96})),
            32u);
}

TEST_F(SubgroupSizeTest, InvalidRequiredSizesAreRejected) {
  CreateDevice();
  ExpectRejected({.requiredSubgroupSize = 48});   // not a power of two (-02760)
  ExpectRejected({.requiredSubgroupSize = 0});    // not a power of two either
  ExpectRejected({.requiredSubgroupSize = 16});   // below minSubgroupSize 32 (-02761)
  ExpectRejected({.requiredSubgroupSize = 128});  // above maxSubgroupSize 64 (-02762)
  // A required size and ALLOW_VARYING together (-02754).
  ExpectRejected({.flags = VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT,
                  .requiredSubgroupSize = 32});
}

TEST_F(SubgroupSizeTest, FullSubgroupsNeedAWorkgroupXThatIsAMultiple) {
  CreateDevice();
  const PipelineRequest x96{.file = "spec_constants.comp.spv",
                            .flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT,
                            .localSizeX = 96};
  ExpectRejected(x96);  // 96 is not a multiple of subgroupSize 64 (-02759)
  PipelineRequest varying = x96;
  varying.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT;
  ExpectRejected(varying);  // nor of maxSubgroupSize 64 (-02758)
  PipelineRequest required48 = x96;
  required48.localSizeX = 48;
  required48.requiredSubgroupSize = 32;
  ExpectRejected(required48);  // 48 is not a multiple of the required 32 (-02757)
}

TEST_F(SubgroupSizeTest, FeaturesMustBeEnabled) {
  CreateDevice(/*subgroupSizeControl=*/false, /*computeFullSubgroups=*/false);
  ExpectRejected({.requiredSubgroupSize = 32});                                            // -02755
  ExpectRejected({.flags = VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT});  // -02784
  ExpectRejected({.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT});      // -02785
  // Without any of it the stage runs at the default size.
  EXPECT_EQ(SubgroupSize(Created({})), 64u);
}

}  // namespace
}  // namespace crashtest::test
