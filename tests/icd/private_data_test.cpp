// Private data slots (Vulkan 1.3 / VK_EXT_private_data) through the real loader.
#include <cstring>
#include <string>
#include <vector>

#include "vk_test_env.h"

namespace crashtest::test {
namespace {

bool DeviceHasExtension(VkPhysicalDevice physical, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
  for (const auto& e : extensions)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

TEST_F(LoaderTest, PrivateDataSlotsKeepOneValuePerObject) {
  ASSERT_TRUE(DeviceHasExtension(physical_, VK_EXT_PRIVATE_DATA_EXTENSION_NAME));
  VkPhysicalDevicePrivateDataFeatures supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES};
  VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported};
  vkGetPhysicalDeviceFeatures2(physical_, &features2);
  ASSERT_TRUE(supported.privateData);

  VkPhysicalDevicePrivateDataFeatures enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES};
  enable.privateData = VK_TRUE;
  VkDevicePrivateDataCreateInfo reserve{VK_STRUCTURE_TYPE_DEVICE_PRIVATE_DATA_CREATE_INFO, &enable};
  reserve.privateDataSlotRequestCount = 2;
  VkDevice device = VK_NULL_HANDLE;
  ASSERT_EQ(CreateDeviceWithOneQueue(physical_, &device, {VK_EXT_PRIVATE_DATA_EXTENSION_NAME}, &reserve), VK_SUCCESS);

  auto create = reinterpret_cast<PFN_vkCreatePrivateDataSlotEXT>(vkGetDeviceProcAddr(device, "vkCreatePrivateDataSlotEXT"));
  auto destroy =
      reinterpret_cast<PFN_vkDestroyPrivateDataSlotEXT>(vkGetDeviceProcAddr(device, "vkDestroyPrivateDataSlotEXT"));
  auto set = reinterpret_cast<PFN_vkSetPrivateDataEXT>(vkGetDeviceProcAddr(device, "vkSetPrivateDataEXT"));
  auto get = reinterpret_cast<PFN_vkGetPrivateDataEXT>(vkGetDeviceProcAddr(device, "vkGetPrivateDataEXT"));
  ASSERT_NE(create, nullptr);
  ASSERT_NE(destroy, nullptr);
  ASSERT_NE(set, nullptr);
  ASSERT_NE(get, nullptr);

  VkPrivateDataSlotCreateInfo slotInfo{VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO};
  VkPrivateDataSlot a = VK_NULL_HANDLE, b = VK_NULL_HANDLE;
  ASSERT_EQ(create(device, &slotInfo, nullptr, &a), VK_SUCCESS);
  ASSERT_EQ(create(device, &slotInfo, nullptr, &b), VK_SUCCESS);
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device, 0, 0, &queue);
  const uint64_t deviceHandle = reinterpret_cast<uint64_t>(device);
  const uint64_t queueHandle = reinterpret_cast<uint64_t>(queue);

  uint64_t value = 99;
  // "If vkSetPrivateData has not been called ... *pData will be set to 0."
  get(device, VK_OBJECT_TYPE_DEVICE, deviceHandle, a, &value);
  EXPECT_EQ(value, 0u);
  EXPECT_EQ(set(device, VK_OBJECT_TYPE_DEVICE, deviceHandle, a, 0x1234), VK_SUCCESS);
  EXPECT_EQ(set(device, VK_OBJECT_TYPE_QUEUE, queueHandle, a, 7), VK_SUCCESS);
  EXPECT_EQ(set(device, VK_OBJECT_TYPE_DEVICE, deviceHandle, b, 0xBEEF), VK_SUCCESS);
  get(device, VK_OBJECT_TYPE_DEVICE, deviceHandle, a, &value);
  EXPECT_EQ(value, 0x1234u);
  get(device, VK_OBJECT_TYPE_QUEUE, queueHandle, a, &value);
  EXPECT_EQ(value, 7u);
  get(device, VK_OBJECT_TYPE_DEVICE, deviceHandle, b, &value);
  EXPECT_EQ(value, 0xBEEFu);
  EXPECT_EQ(set(device, VK_OBJECT_TYPE_DEVICE, deviceHandle, a, 5), VK_SUCCESS);  // overwritten
  get(device, VK_OBJECT_TYPE_DEVICE, deviceHandle, a, &value);
  EXPECT_EQ(value, 5u);

  destroy(device, a, nullptr);
  destroy(device, b, nullptr);
  destroy(device, VK_NULL_HANDLE, nullptr);
  vkDestroyDevice(device, nullptr);
}

}  // namespace
}  // namespace crashtest::test
