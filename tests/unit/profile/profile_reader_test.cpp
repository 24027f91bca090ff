#include "profile/profile_reader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "profile/crashtest_key.h"
#include "test_support.h"

namespace crashtest {
namespace {

using test::AllMessages;
using test::DataPath;
using test::Member;

DeviceDescription LoadOk(const std::string& relative, const std::string& profileName = "") {
  DeviceDescription d;
  Diagnostics diagnostics;
  ProfileReadOptions options;
  options.profileName = profileName;
  EXPECT_TRUE(ReadProfileFile(DataPath(relative), options, d, diagnostics)) << AllMessages(diagnostics);
  return d;
}

TEST(ProfileReader, LoadsTheLlvmpipeExport) {
  DeviceDescription d = LoadOk("profiles/llvmpipe-mesa-22.3.6.json");
  EXPECT_STREQ(d.properties.deviceName, "llvmpipe (LLVM 15.0.6, 256 bits)");
  EXPECT_EQ(d.properties.deviceType, VK_PHYSICAL_DEVICE_TYPE_CPU);
  EXPECT_EQ(d.properties.apiVersion, 4206822u);
  EXPECT_EQ(d.profileName, "VP_VULKANINFO_llvmpipe_(LLVM_15_0_6,_256_bits)_0_0_1");
  EXPECT_EQ(d.properties.limits.maxImageDimension2D, 16384u);
  EXPECT_EQ(d.properties.limits.maxComputeWorkGroupSize[2], 1024u);
  EXPECT_EQ(d.properties.limits.maxComputeSharedMemorySize, 32768u);
  EXPECT_EQ(d.features.geometryShader, VK_TRUE);
  EXPECT_EQ(Member<VkBool32>(d, "VkPhysicalDeviceVulkan12Features", "timelineSemaphore"), VK_TRUE);
  EXPECT_EQ(Member<VkDriverId>(d, "VkPhysicalDeviceDriverProperties", "driverID"), VK_DRIVER_ID_MESA_LLVMPIPE);

  ASSERT_EQ(d.queueFamilies.size(), 1u);
  EXPECT_EQ(d.queueFamilies[0].queueFlags, VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT);
  EXPECT_EQ(d.queueFamilies[0].timestampValidBits, 64u);

  EXPECT_TRUE(d.HasExtension("VK_EXT_robustness2"));
  EXPECT_EQ(d.ExtensionSpecVersion("VK_EXT_custom_border_color"), 12u);
  EXPECT_FALSE(d.HasExtension("VK_KHR_ray_query"));
  for (std::size_t i = 1; i < d.extensions.size(); ++i)
    EXPECT_LT(std::strcmp(d.extensions[i - 1].extensionName, d.extensions[i].extensionName), 0);

  auto rgba = d.formats.find(VK_FORMAT_B4G4R4A4_UNORM_PACK16);
  ASSERT_NE(rgba, d.formats.end());
  EXPECT_NE(rgba->second.optimalTilingFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT, 0u);
  EXPECT_EQ(rgba->second.bufferFeatures,
            VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT | VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT);
}

TEST(ProfileReader, ReportsConformanceZeroAndKeepsGivenUuids) {
  DeviceDescription d = LoadOk("profiles/llvmpipe-mesa-22.3.6.json");
  // The export says 1.3.1.1; crashtest has passed no conformance run.
  auto conformance = Member<VkConformanceVersion>(d, "VkPhysicalDeviceDriverProperties", "conformanceVersion");
  EXPECT_EQ(conformance.major, 0);
  EXPECT_EQ(conformance.patch, 0);
  EXPECT_EQ(Member<VkConformanceVersion>(d, "VkPhysicalDeviceVulkan12Properties", "conformanceVersion").minor, 0);
  auto uuid = Member<std::array<uint8_t, VK_UUID_SIZE>>(d, "VkPhysicalDeviceIDProperties", "deviceUUID");
  EXPECT_EQ(uuid[0], 109);  // 'm' of "mesa22.3.6", as the profile gives it
}

TEST(ProfileReader, KeepsAggregateAndIndividualStructsConsistent) {
  DeviceDescription d = LoadOk("profiles/llvmpipe-mesa-22.3.6.json");
  EXPECT_EQ(Member<uint32_t>(d, "VkPhysicalDeviceSubgroupProperties", "supportedStages"),
            Member<uint32_t>(d, "VkPhysicalDeviceVulkan11Properties", "subgroupSupportedStages"));
  EXPECT_EQ(Member<uint32_t>(d, "VkPhysicalDeviceSubgroupProperties", "supportedStages"),
            static_cast<uint32_t>(VK_SHADER_STAGE_FRAGMENT_BIT | VK_SHADER_STAGE_COMPUTE_BIT));

  // minimal-discrete gives the individual timeline struct (by its KHR alias) and only part of Vulkan12Properties.
  DeviceDescription m = LoadOk("profiles/minimal-discrete.json");
  EXPECT_EQ(Member<VkBool32>(m, "VkPhysicalDeviceVulkan12Features", "timelineSemaphore"), VK_TRUE);
  EXPECT_EQ(Member<uint64_t>(m, "VkPhysicalDeviceTimelineSemaphoreProperties", "maxTimelineSemaphoreValueDifference"),
            2147483647u);
  EXPECT_EQ(Member<VkDriverId>(m, "VkPhysicalDeviceVulkan12Properties", "driverID"), VK_DRIVER_ID_NVIDIA_PROPRIETARY);
}

TEST(ProfileReader, AggregateWinsWhenBothAreGiven) {
  const char* text = R"({"capabilities": {"d": {
      "properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.2.0"}},
      "features": {"VkPhysicalDeviceVulkan11Features": {"multiview": false},
                   "VkPhysicalDeviceMultiviewFeatures": {"multiview": true, "multiviewGeometryShader": true}}}}})";
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(ReadProfileText(text, {"inline.json", "", false}, d, diagnostics)) << AllMessages(diagnostics);
  EXPECT_EQ(Member<VkBool32>(d, "VkPhysicalDeviceMultiviewFeatures", "multiview"), VK_FALSE);
  EXPECT_EQ(Member<VkBool32>(d, "VkPhysicalDeviceVulkan11Features", "multiviewGeometryShader"), VK_TRUE);
}

TEST(ProfileReader, SelectsProfilesMergesBlocksAndTakesFirstAlternative) {
  DeviceDescription d = LoadOk("profiles/minimal-discrete.json");
  EXPECT_EQ(d.profileName, "VP_TEST_discrete");  // the first entry by default
  EXPECT_EQ(d.properties.apiVersion, VK_MAKE_API_VERSION(0, 1, 2, 198));
  EXPECT_EQ(d.properties.limits.maxComputeWorkGroupSize[2], 64u);
  EXPECT_FLOAT_EQ(d.properties.limits.pointSizeRange[1], 2047.9375f);
  ASSERT_EQ(d.queueFamilies.size(), 2u);
  EXPECT_EQ(d.queueFamilies[1].queueFlags, static_cast<VkQueueFlags>(VK_QUEUE_TRANSFER_BIT));
  EXPECT_EQ(d.queueFamilies[1].queueCount, 2u);
  // 32-bit VkFormatProperties only: the same bits in the 64-bit store.
  EXPECT_EQ(d.formats.at(VK_FORMAT_R8G8B8A8_UNORM).optimalTilingFeatures,
            VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT);

  DeviceDescription b = LoadOk("profiles/minimal-discrete.json", "VP_TEST_baseline_only");
  EXPECT_EQ(b.profileName, "VP_TEST_baseline_only");
  // The "extra" block is not part of this profile: its Vulkan12Properties value is absent.
  EXPECT_EQ(Member<uint64_t>(b, "VkPhysicalDeviceTimelineSemaphoreProperties", "maxTimelineSemaphoreValueDifference"),
            0u);
}

TEST(ProfileReader, CreatesZeroedStructsForCoreVersionsAndExtensions) {
  DeviceDescription d = LoadOk("profiles/minimal-discrete.json");
  EXPECT_NE(d.FindFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES), nullptr);
  EXPECT_NE(d.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES), nullptr);
  EXPECT_EQ(d.FindFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES), nullptr);  // device is 1.2
  const StructBlob* blob = d.FindFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  ASSERT_NE(blob, nullptr);
  EXPECT_EQ(blob->bytes.size(), sizeof(VkPhysicalDevice16BitStorageFeatures));
  auto* f = static_cast<const VkPhysicalDevice16BitStorageFeatures*>(blob->data());
  EXPECT_EQ(f->sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  EXPECT_EQ(f->pNext, nullptr);
  EXPECT_EQ(f->storageBuffer16BitAccess, VK_FALSE);
}

TEST(ProfileReader, ReadsTheCrashtestKey) {
  DeviceDescription d = LoadOk("profiles/minimal-discrete.json");
  ASSERT_EQ(d.memory.memoryHeapCount, 1u);
  EXPECT_EQ(d.memory.memoryHeaps[0].size, 1073741824u);
  ASSERT_EQ(d.memory.memoryTypeCount, 1u);
  EXPECT_EQ(d.memory.memoryTypes[0].propertyFlags,
            static_cast<VkMemoryPropertyFlags>(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT));
  EXPECT_EQ(d.machine.registerBudget, 200u);
  EXPECT_EQ(d.machine.latency.alu, 5u);
  EXPECT_EQ(d.machine.registerFilePerLane, DefaultMachine(VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU).registerFilePerLane);
  auto conformance = Member<VkConformanceVersion>(d, "VkPhysicalDeviceVulkan12Properties", "conformanceVersion");
  EXPECT_EQ(conformance.major, 1);
  EXPECT_EQ(conformance.minor, 3);
  auto uuid = Member<std::array<uint8_t, VK_UUID_SIZE>>(d, "VkPhysicalDeviceVulkan11Properties", "deviceUUID");
  EXPECT_EQ(uuid[15], 16);
  EXPECT_EQ(Member<decltype(uuid)>(d, "VkPhysicalDeviceIDProperties", "deviceUUID"), uuid);
}

TEST(ProfileReader, ReadsTheStatisticsDialectAndScalarUnit) {
  const char* good = R"({"capabilities": {"d": {"properties": {"VkPhysicalDeviceProperties": {
      "apiVersion": "1.1.0", "deviceName": "X", "vendorID": 1, "deviceID": 2,
      "deviceType": "VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU"}}}},
      "crashtest": {"machine": {"statisticDialect": "nvidia", "scalarRegisterBudget": 63, "simdsPerCore": 4,
                                "scalarAllocationGranule": 1, "privateArrayRegisterLimit": 16}}})";
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(ReadProfileText(good, {"good.json", "", false}, d, diagnostics)) << AllMessages(diagnostics);
  EXPECT_EQ(d.machine.dialect, StatisticDialect::Nvidia);
  EXPECT_EQ(d.machine.scalarRegisterBudget, 63u);
  EXPECT_EQ(d.machine.simdsPerCore, 4u);
  EXPECT_EQ(d.machine.scalarAllocationGranule, 1u);
  EXPECT_EQ(d.machine.privateArrayRegisterLimit, 16u);
  // Without the keys: crashtest's own statistics and no scalar unit.
  EXPECT_EQ(DefaultMachine(VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU).dialect, StatisticDialect::Crashtest);
  EXPECT_EQ(DefaultMachine(VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU).scalarRegisterBudget, 0u);
  std::string bad = good;
  bad.replace(bad.find("\"nvidia\""), 8, "\"amdgpu\"");
  DeviceDescription e;
  Diagnostics badDiagnostics;
  EXPECT_FALSE(ReadProfileText(bad, {"bad.json", "", false}, e, badDiagnostics));
  std::string messages = AllMessages(badDiagnostics);
  EXPECT_NE(messages.find("statisticDialect"), std::string::npos) << messages;
  EXPECT_NE(messages.find("\"radv\""), std::string::npos) << messages;
}

TEST(ProfileReader, DefaultsByDeviceTypeAndStableDerivedUuids) {
  const char* text = R"({"capabilities": {"d": {"properties": {"VkPhysicalDeviceProperties": {
      "apiVersion": "1.1.0", "deviceName": "X", "vendorID": 1, "deviceID": 2,
      "deviceType": "VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU"}}}}})";
  DeviceDescription a;
  DeviceDescription b;
  Diagnostics diagnostics;
  ASSERT_TRUE(ReadProfileText(text, {"a.json", "", false}, a, diagnostics)) << AllMessages(diagnostics);
  ASSERT_TRUE(ReadProfileText(text, {"b.json", "", false}, b, diagnostics));
  EXPECT_EQ(a.memory.memoryHeapCount, 1u);
  EXPECT_EQ(a.machine.registerBudget, DefaultMachine(VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU).registerBudget);
  EXPECT_EQ(std::memcmp(a.properties.pipelineCacheUUID, b.properties.pipelineCacheUUID, VK_UUID_SIZE), 0);
  auto uuid = Member<std::array<uint8_t, VK_UUID_SIZE>>(a, "VkPhysicalDeviceIDProperties", "deviceUUID");
  EXPECT_EQ(uuid, (Member<std::array<uint8_t, VK_UUID_SIZE>>(b, "VkPhysicalDeviceIDProperties", "deviceUUID")));
  EXPECT_NE(uuid, (std::array<uint8_t, VK_UUID_SIZE>{}));
  ASSERT_EQ(a.queueFamilies.size(), 1u);  // a profile without queue families still gets one
  EXPECT_EQ(DefaultMemory(VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU).memoryHeapCount, 2u);
}

}  // namespace
}  // namespace crashtest
