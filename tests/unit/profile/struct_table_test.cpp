#include "profile/struct_table.h"

#include <gtest/gtest.h>

#include <cstddef>

namespace crashtest {
namespace {

TEST(StructTable, FindsBaseAndExtendedStructsWithLayoutFromTheCompiler) {
  const StructInfo* limits = FindStruct("VkPhysicalDeviceLimits");
  ASSERT_NE(limits, nullptr);
  EXPECT_EQ(limits->size, sizeof(VkPhysicalDeviceLimits));
  EXPECT_FALSE(limits->hasSType);
  const MemberInfo* dim2d = limits->FindMember("maxImageDimension2D");
  ASSERT_NE(dim2d, nullptr);
  EXPECT_EQ(dim2d->offset, offsetof(VkPhysicalDeviceLimits, maxImageDimension2D));
  EXPECT_EQ(dim2d->kind, MemberKind::UInt32);
  const MemberInfo* wgSize = limits->FindMember("maxComputeWorkGroupSize");
  ASSERT_NE(wgSize, nullptr);
  EXPECT_EQ(wgSize->arrayLength, 3u);
  EXPECT_EQ(wgSize->elementSize, 4u);
  EXPECT_EQ(limits->FindMember("pointSizeRange")->kind, MemberKind::Float);
  EXPECT_EQ(limits->FindMember("bufferImageGranularity")->kind, MemberKind::UInt64);
  EXPECT_EQ(limits->FindMember("framebufferColorSampleCounts")->enumType, "VkSampleCountFlagBits");

  const StructInfo* props = FindStruct("VkPhysicalDeviceProperties");
  ASSERT_NE(props, nullptr);
  EXPECT_EQ(props->role, StructRole::Properties);
  EXPECT_EQ(props->FindMember("deviceName")->kind, MemberKind::String);
  EXPECT_EQ(props->FindMember("deviceName")->arrayLength, static_cast<uint32_t>(VK_MAX_PHYSICAL_DEVICE_NAME_SIZE));
  EXPECT_EQ(props->FindMember("pipelineCacheUUID")->kind, MemberKind::UInt8);
  EXPECT_EQ(props->FindMember("deviceType")->kind, MemberKind::Enum);
  EXPECT_EQ(props->FindMember("limits")->kind, MemberKind::Struct);
  EXPECT_EQ(props->FindMember("limits")->offset, offsetof(VkPhysicalDeviceProperties, limits));
}

TEST(StructTable, AcceptsAliasesAndSTypes) {
  const StructInfo* timeline = FindStruct("VkPhysicalDeviceTimelineSemaphoreFeaturesKHR");
  ASSERT_NE(timeline, nullptr);
  EXPECT_EQ(timeline->name, "VkPhysicalDeviceTimelineSemaphoreFeatures");
  EXPECT_EQ(timeline->role, StructRole::Features);
  EXPECT_EQ(timeline->sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES);
  EXPECT_EQ(timeline->coreVersion, VK_API_VERSION_1_2);
  ASSERT_EQ(timeline->extensions.size(), 1u);
  EXPECT_EQ(timeline->extensions[0], "VK_KHR_timeline_semaphore");
  EXPECT_EQ(FindStruct(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES), timeline);
  EXPECT_EQ(FindStruct("VkPhysicalDeviceNoSuchThing"), nullptr);

  const StructInfo* driver = FindStruct(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
  ASSERT_NE(driver, nullptr);
  EXPECT_EQ(driver->FindMember("conformanceVersion")->typeName, "VkConformanceVersion");
  EXPECT_NE(FindStruct("VkConformanceVersion"), nullptr);  // nested structs are in the table too
}

TEST(StructTable, CoversEveryFeatures2AndProperties2ExtensionTheHeadersDeclare) {
  EXPECT_NE(FindStruct("VkPhysicalDeviceVulkan13Features"), nullptr);
  EXPECT_NE(FindStruct("VkPhysicalDeviceMeshShaderPropertiesEXT"), nullptr);
  EXPECT_NE(FindStruct("VkFormatProperties3"), nullptr);
  // VK_KHR_portability_subset is provisional: its structs need VK_ENABLE_BETA_EXTENSIONS.
  EXPECT_EQ(FindStruct("VkPhysicalDevicePortabilitySubsetFeaturesKHR"), nullptr);
  std::size_t features = 0;
  std::size_t properties = 0;
  for (const StructInfo& s : AllStructs()) {
    if (s.role == StructRole::Features && s.hasSType) ++features;
    if (s.role == StructRole::Properties && s.hasSType) ++properties;
  }
  EXPECT_GT(features, 100u);
  EXPECT_GT(properties, 50u);
}

TEST(StructTable, LinksAggregateMembersIncludingRenamedSubgroupMembers) {
  const StructInfo* subgroup = FindStruct("VkPhysicalDeviceSubgroupProperties");
  ASSERT_NE(subgroup, nullptr);
  bool found = false;
  for (const MemberLinkInfo* link : MemberLinksOf(*subgroup)) {
    if (link->individualMember->name == "supportedStages") {
      EXPECT_EQ(link->aggregate->name, "VkPhysicalDeviceVulkan11Properties");
      EXPECT_EQ(link->aggregateMember->name, "subgroupSupportedStages");
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST(StructTable, EnumLookupsBothWays) {
  EXPECT_EQ(FindEnumValue("VkFormat", "VK_FORMAT_R8G8B8A8_UNORM"), VK_FORMAT_R8G8B8A8_UNORM);
  EXPECT_EQ(FindEnumValue("VkFormat", "VK_FORMAT_G8B8G8R8_422_UNORM_KHR"), VK_FORMAT_G8B8G8R8_422_UNORM);  // alias
  EXPECT_EQ(FindEnumValue("VkResult", "VK_ERROR_DEVICE_LOST"), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(FindEnumValue("VkFormatFeatureFlagBits2", "VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT"),
            static_cast<int64_t>(VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT));
  EXPECT_EQ(FindEnumValue("VkDriverId", "VK_DRIVER_ID_MESA_LLVMPIPE"), VK_DRIVER_ID_MESA_LLVMPIPE);
  EXPECT_EQ(FindEnumValue("VkFormat", "VK_FORMAT_NOPE"), std::nullopt);
  EXPECT_EQ(FindEnumValue("VkNoSuchType", "VK_FORMAT_R8_UNORM"), std::nullopt);
  EXPECT_EQ(EnumValueName("VkResult", VK_ERROR_OUT_OF_DATE_KHR), "VK_ERROR_OUT_OF_DATE_KHR");
  EXPECT_EQ(EnumValueName("VkStructureType", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES),
            "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES");
  EXPECT_EQ(EnumValueName("VkQueueFlagBits", VK_QUEUE_COMPUTE_BIT), "VK_QUEUE_COMPUTE_BIT");
  EXPECT_EQ(EnumValueName("VkQueueFlagBits", 1 << 30), "");
}

}  // namespace
}  // namespace crashtest
