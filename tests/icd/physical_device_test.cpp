// Instance and physical-device behaviour through the real loader: enumeration protocol, every query vulkaninfo
// makes, and the identity of the built-in default device.
#include <cstring>
#include <set>
#include <string>

#include "vk_test_env.h"

namespace crashtest::test {
namespace {

TEST(Instance, ReportsVulkan13) {
  uint32_t version = 0;
  ASSERT_EQ(vkEnumerateInstanceVersion(&version), VK_SUCCESS);
  EXPECT_GE(version, VK_API_VERSION_1_3);
}

TEST(Instance, AdvertisesPropertiesAndExternalCapabilityExtensions) {
  uint32_t count = 0;
  ASSERT_EQ(vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr), VK_SUCCESS);
  std::vector<VkExtensionProperties> extensions(count);
  ASSERT_EQ(vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data()), VK_SUCCESS);
  std::set<std::string> names;
  for (const auto& e : extensions) names.insert(e.extensionName);
  for (const char* required :
       {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_EXTENSION_NAME,
        VK_KHR_EXTERNAL_FENCE_CAPABILITIES_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_EXTENSION_NAME})
    EXPECT_TRUE(names.count(required)) << required;
}

TEST(Instance, UnknownExtensionIsRejected) {
  VkResult result = VK_SUCCESS;
  VkInstance instance = CreateInstance(VK_API_VERSION_1_3, {"VK_crashtest_no_such_extension"}, nullptr, &result);
  EXPECT_EQ(instance, VK_NULL_HANDLE);
  EXPECT_EQ(result, VK_ERROR_EXTENSION_NOT_PRESENT);
}

TEST(Instance, AcceptsOlderAndNewerApiVersions) {
  for (uint32_t version : {0u, VK_API_VERSION_1_0, VK_API_VERSION_1_1, VK_MAKE_API_VERSION(0, 1, 9, 0)}) {
    VkInstance instance = CreateInstance(version);
    ASSERT_NE(instance, VK_NULL_HANDLE) << version;
    vkDestroyInstance(instance, nullptr);
  }
}

TEST_F(LoaderTest, DefaultDeviceIdentity) {
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, &driver};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id};
  vkGetPhysicalDeviceProperties2(physical_, &properties);
  EXPECT_STREQ(properties.properties.deviceName, "crashtest default GPU");
  EXPECT_EQ(properties.properties.vendorID, 0x43525348u);
  EXPECT_EQ(properties.properties.deviceType, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
  EXPECT_STREQ(driver.driverName, "crashtest");
  EXPECT_NE(std::string(driver.driverInfo).find("crashtest"), std::string::npos);
  EXPECT_EQ(driver.conformanceVersion.major, 0);
  EXPECT_EQ(driver.conformanceVersion.minor, 0);
  // The caller's chain is kept.
  EXPECT_EQ(id.sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES);
  EXPECT_EQ(id.pNext, &driver);
  EXPECT_EQ(driver.pNext, nullptr);
  // UUIDs are set and stable across instances.
  uint8_t zero[VK_UUID_SIZE] = {};
  EXPECT_NE(std::memcmp(id.deviceUUID, zero, VK_UUID_SIZE), 0);
  EXPECT_NE(std::memcmp(id.driverUUID, zero, VK_UUID_SIZE), 0);
  VkInstance second = CreateInstance();
  ASSERT_NE(second, VK_NULL_HANDLE);
  VkPhysicalDeviceIDProperties id2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id2};
  vkGetPhysicalDeviceProperties2(PhysicalDevices(second)[0], &properties2);
  EXPECT_EQ(std::memcmp(id.deviceUUID, id2.deviceUUID, VK_UUID_SIZE), 0);
  vkDestroyInstance(second, nullptr);
}

TEST_F(LoaderTest, PropertiesOneAndTwoAgree) {
  VkPhysicalDeviceProperties one{};
  vkGetPhysicalDeviceProperties(physical_, &one);
  VkPhysicalDeviceProperties2 two{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  vkGetPhysicalDeviceProperties2(physical_, &two);
  EXPECT_EQ(std::memcmp(&one, &two.properties, sizeof(one)), 0);
  EXPECT_GE(one.apiVersion, VK_API_VERSION_1_0);
  EXPECT_GT(one.limits.maxImageDimension2D, 4096u);
  EXPECT_GT(one.limits.timestampPeriod, 0.0f);
}

TEST_F(LoaderTest, FeaturesOneAndTwoAgree) {
  VkPhysicalDeviceFeatures one{};
  vkGetPhysicalDeviceFeatures(physical_, &one);
  VkPhysicalDeviceFeatures2 two{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  vkGetPhysicalDeviceFeatures2(physical_, &two);
  EXPECT_EQ(std::memcmp(&one, &two.features, sizeof(one)), 0);
}

TEST_F(LoaderTest, QueueFamiliesOneAndTwoAgreeWithIncomplete) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, nullptr);
  ASSERT_GE(count, 1u);
  std::vector<VkQueueFamilyProperties> one(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, one.data());
  EXPECT_NE(one[0].queueFlags & VK_QUEUE_GRAPHICS_BIT, 0u);
  std::vector<VkQueueFamilyProperties2> two(count, {VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2});
  vkGetPhysicalDeviceQueueFamilyProperties2(physical_, &count, two.data());
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_EQ(std::memcmp(&one[i], &two[i].queueFamilyProperties, sizeof(one[i])), 0) << i;
    EXPECT_GE(one[i].queueCount, 1u);
  }
  if (count > 1) {
    uint32_t smaller = 1;
    std::vector<VkQueueFamilyProperties> partial(2);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &smaller, partial.data());
    EXPECT_EQ(smaller, 1u);
  }
}

TEST_F(LoaderTest, MemoryPropertiesHaveHostVisibleCoherentType) {
  VkPhysicalDeviceMemoryProperties one{};
  vkGetPhysicalDeviceMemoryProperties(physical_, &one);
  VkPhysicalDeviceMemoryProperties2 two{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
  vkGetPhysicalDeviceMemoryProperties2(physical_, &two);
  EXPECT_EQ(std::memcmp(&one, &two.memoryProperties, sizeof(one)), 0);
  ASSERT_GE(one.memoryHeapCount, 1u);
  bool hostVisibleCoherent = false;
  for (uint32_t i = 0; i < one.memoryTypeCount; ++i) {
    EXPECT_LT(one.memoryTypes[i].heapIndex, one.memoryHeapCount);
    VkMemoryPropertyFlags f = one.memoryTypes[i].propertyFlags;
    if ((f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) && (f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
      hostVisibleCoherent = true;
  }
  // "There must be at least one memory type with both the HOST_VISIBLE and HOST_COHERENT bits set".
  EXPECT_TRUE(hostVisibleCoherent);
}

TEST_F(LoaderTest, FormatPropertiesOneTwoAndThreeAgree) {
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32_SFLOAT, VK_FORMAT_D32_SFLOAT,
                          VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_FORMAT_R64G64B64A64_SFLOAT}) {
    VkFormatProperties one{};
    vkGetPhysicalDeviceFormatProperties(physical_, format, &one);
    VkFormatProperties3 three{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
    VkFormatProperties2 two{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &three};
    vkGetPhysicalDeviceFormatProperties2(physical_, format, &two);
    EXPECT_EQ(one.optimalTilingFeatures, two.formatProperties.optimalTilingFeatures) << format;
    EXPECT_EQ(one.linearTilingFeatures, two.formatProperties.linearTilingFeatures) << format;
    EXPECT_EQ(one.bufferFeatures, two.formatProperties.bufferFeatures) << format;
    // The 32-bit flags are the 64-bit ones below bit 31.
    EXPECT_EQ(one.optimalTilingFeatures, three.optimalTilingFeatures & 0x7FFFFFFFull) << format;
    EXPECT_EQ(three.pNext, nullptr);
  }
  VkFormatProperties rgba{};
  vkGetPhysicalDeviceFormatProperties(physical_, VK_FORMAT_R8G8B8A8_UNORM, &rgba);
  EXPECT_NE(rgba.optimalTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_DST_BIT, 0u);
}

TEST_F(LoaderTest, ImageFormatProperties) {
  VkImageFormatProperties one{};
  ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties(physical_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                     VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0,
                                                     &one),
            VK_SUCCESS);
  EXPECT_GE(one.maxExtent.width, 4096u);
  EXPECT_GE(one.maxMipLevels, 13u);
  EXPECT_NE(one.sampleCounts & VK_SAMPLE_COUNT_1_BIT, 0u);

  VkPhysicalDeviceImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2};
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.type = VK_IMAGE_TYPE_2D;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImageFormatProperties2 two{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
  ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties2(physical_, &info, &two), VK_SUCCESS);
  EXPECT_EQ(std::memcmp(&one, &two.imageFormatProperties, sizeof(one)), 0);

  // Sparse images are not supported: VK_ERROR_FORMAT_NOT_SUPPORTED, as for a depth format in linear tiling.
  EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties(physical_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                     VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT,
                                                     VK_IMAGE_CREATE_SPARSE_BINDING_BIT, &one),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties(physical_, VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D,
                                                     VK_IMAGE_TILING_LINEAR,
                                                     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, &one),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
}

TEST_F(LoaderTest, NoSparseImageFormats) {
  uint32_t count = 99;
  vkGetPhysicalDeviceSparseImageFormatProperties(physical_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                 VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_USAGE_SAMPLED_BIT,
                                                 VK_IMAGE_TILING_OPTIMAL, &count, nullptr);
  EXPECT_EQ(count, 0u);
  VkPhysicalDeviceSparseImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SPARSE_IMAGE_FORMAT_INFO_2};
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.type = VK_IMAGE_TYPE_2D;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  count = 99;
  vkGetPhysicalDeviceSparseImageFormatProperties2(physical_, &info, &count, nullptr);
  EXPECT_EQ(count, 0u);
}

TEST_F(LoaderTest, NoExternalHandleTypes) {
  VkPhysicalDeviceExternalBufferInfo bufferInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
  bufferInfo.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  bufferInfo.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkExternalBufferProperties buffer{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  std::memset(&buffer.externalMemoryProperties, 0xff, sizeof(buffer.externalMemoryProperties));
  vkGetPhysicalDeviceExternalBufferProperties(physical_, &bufferInfo, &buffer);
  EXPECT_EQ(buffer.externalMemoryProperties.externalMemoryFeatures, 0u);
  EXPECT_EQ(buffer.externalMemoryProperties.compatibleHandleTypes, 0u);

  VkPhysicalDeviceExternalFenceInfo fenceInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO};
  fenceInfo.handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkExternalFenceProperties fence{VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES};
  fence.externalFenceFeatures = ~0u;
  vkGetPhysicalDeviceExternalFenceProperties(physical_, &fenceInfo, &fence);
  EXPECT_EQ(fence.externalFenceFeatures, 0u);

  VkPhysicalDeviceExternalSemaphoreInfo semaphoreInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO};
  semaphoreInfo.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkExternalSemaphoreProperties semaphore{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
  semaphore.externalSemaphoreFeatures = ~0u;
  vkGetPhysicalDeviceExternalSemaphoreProperties(physical_, &semaphoreInfo, &semaphore);
  EXPECT_EQ(semaphore.externalSemaphoreFeatures, 0u);
}

TEST_F(LoaderTest, DeviceExtensionsAndLayers) {
  uint32_t count = 0;
  ASSERT_EQ(vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, nullptr), VK_SUCCESS);
  std::vector<VkExtensionProperties> all(count);
  ASSERT_EQ(vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, all.data()), VK_SUCCESS);
  std::set<std::string> names;
  for (const auto& e : all) names.insert(e.extensionName);
  EXPECT_EQ(names.size(), all.size()) << "duplicate extension names";
  // The default device has a graphics queue, so it presents (docs/wsi.md).
  EXPECT_EQ(names.count("VK_KHR_swapchain"), 1u);
  uint32_t layers = 5;
  ASSERT_EQ(vkEnumerateDeviceLayerProperties(physical_, &layers, nullptr), VK_SUCCESS);
  EXPECT_EQ(layers, 0u);
}

TEST_F(LoaderTest, ToolPropertiesAreEmptyForTheDriver) {
  auto getTools =
      reinterpret_cast<PFN_vkGetPhysicalDeviceToolProperties>(vkGetInstanceProcAddr(instance_, "vkGetPhysicalDeviceToolProperties"));
  ASSERT_NE(getTools, nullptr);
  uint32_t count = 7;
  ASSERT_EQ(getTools(physical_, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 0u);
}

TEST_F(LoaderTest, PhysicalDeviceGroups) {
  uint32_t count = 0;
  ASSERT_EQ(vkEnumeratePhysicalDeviceGroups(instance_, &count, nullptr), VK_SUCCESS);
  ASSERT_EQ(count, 1u);
  VkPhysicalDeviceGroupProperties group{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES};
  ASSERT_EQ(vkEnumeratePhysicalDeviceGroups(instance_, &count, &group), VK_SUCCESS);
  EXPECT_EQ(group.physicalDeviceCount, 1u);
  EXPECT_EQ(group.physicalDevices[0], physical_);
}

TEST(Enumeration, TwoConfiguredDevicesAndIncomplete) {
  ScopedConfig config("two_devices.json");
  VkInstance instance = CreateInstance();
  ASSERT_NE(instance, VK_NULL_HANDLE);
  uint32_t count = 0;
  ASSERT_EQ(vkEnumeratePhysicalDevices(instance, &count, nullptr), VK_SUCCESS);
  ASSERT_EQ(count, 2u);
  VkPhysicalDevice one[2] = {};
  uint32_t capacity = 1;
  EXPECT_EQ(vkEnumeratePhysicalDevices(instance, &capacity, one), VK_INCOMPLETE);
  EXPECT_EQ(capacity, 1u);
  EXPECT_NE(one[0], VK_NULL_HANDLE);
  EXPECT_EQ(one[1], VK_NULL_HANDLE);
  capacity = 2;
  EXPECT_EQ(vkEnumeratePhysicalDevices(instance, &capacity, one), VK_SUCCESS);
  EXPECT_EQ(capacity, 2u);
  EXPECT_NE(one[0], one[1]);
  vkDestroyInstance(instance, nullptr);
}

TEST(Enumeration, BadConfigurationFailsInstanceCreation) {
  ScopedConfig config("malformed.json");
  VkResult result = VK_SUCCESS;
  VkInstance instance = CreateInstance(VK_API_VERSION_1_3, {}, nullptr, &result);
  EXPECT_EQ(instance, VK_NULL_HANDLE);
  // The loader reports the driver's VK_ERROR_INITIALIZATION_FAILED, or INCOMPATIBLE_DRIVER when no other ICD
  // created an instance.
  EXPECT_TRUE(result == VK_ERROR_INITIALIZATION_FAILED || result == VK_ERROR_INCOMPATIBLE_DRIVER) << result;
}

}  // namespace
}  // namespace crashtest::test
