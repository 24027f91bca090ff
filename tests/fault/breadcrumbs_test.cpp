// Breadcrumbs through the real loader: VK_AMD_buffer_marker and VK_NV_device_diagnostic_checkpoints (with their
// synchronization2 forms) on a device whose profile lists them — absent from one whose profile does not. After a
// loss at a known command (entering the label region "Step 2") the marker buffer and the checkpoint data show
// exactly the last step completed before it, and the dump records both.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <crashtest/crashtest.h>
#include <crashtest/vulkan_compat.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "fault/dump/dump_reader.h"
#include "fault/dump/dump_report.h"
#include "fault_loader_fixture.h"

namespace {

using namespace crashtest::test;
namespace dump = crashtest::dump;

bool HasExtension(VkPhysicalDevice gpu, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(gpu, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(gpu, nullptr, &count, extensions.data());
  for (const VkExtensionProperties& e : extensions)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

TEST(Breadcrumbs, OfferedOnlyWhereTheProfileListsThem) {
  TempConfig config(R"({"devices": ["builtin:default", ")" CRASHTEST_FAULT_DATA_DIR R"(/breadcrumbs-gpu.json"]})");
  VkInstance instance = MakeInstance();
  ASSERT_NE(instance, VK_NULL_HANDLE);
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> gpus(count);
  vkEnumeratePhysicalDevices(instance, &count, gpus.data());
  int withBreadcrumbs = 0;
  for (VkPhysicalDevice gpu : gpus) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(gpu, &properties);
    const bool listed = std::strcmp(properties.deviceName, "Breadcrumbs GPU") == 0;
    EXPECT_EQ(HasExtension(gpu, VK_AMD_BUFFER_MARKER_EXTENSION_NAME), listed) << properties.deviceName;
    EXPECT_EQ(HasExtension(gpu, VK_NV_DEVICE_DIAGNOSTIC_CHECKPOINTS_EXTENSION_NAME), listed) << properties.deviceName;
    withBreadcrumbs += listed ? 1 : 0;
  }
  EXPECT_EQ(withBreadcrumbs, 1);
  vkDestroyInstance(instance, nullptr);
}

// "Provided by VK_AMD_buffer_marker with VK_VERSION_1_3 or VK_KHR_synchronization2" (and likewise
// vkGetQueueCheckpointData2NV with VK_NV_device_diagnostic_checkpoints): on this 1.1 device the synchronization2
// forms need both extensions enabled; either one alone leaves them NULL.
TEST(Breadcrumbs, Synchronization2FormsNeedTheBreadcrumbExtensionAndSynchronization2) {
  TempConfig config(R"({"devices": [")" CRASHTEST_FAULT_DATA_DIR R"(/breadcrumbs-gpu.json"]})");
  VkInstance instance = MakeInstance();
  ASSERT_NE(instance, VK_NULL_HANDLE);
  uint32_t count = 1;
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  ASSERT_GE(vkEnumeratePhysicalDevices(instance, &count, &gpu), VK_SUCCESS);
  struct Case {
    std::vector<const char*> extensions;
    bool marker, checkpoints, marker2, checkpoints2;
  };
  const Case cases[] = {
      {{VK_AMD_BUFFER_MARKER_EXTENSION_NAME, VK_NV_DEVICE_DIAGNOSTIC_CHECKPOINTS_EXTENSION_NAME}, true, true, false,
       false},
      {{VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME}, false, false, false, false},
      {{VK_AMD_BUFFER_MARKER_EXTENSION_NAME, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME}, true, false, true, false},
      {{VK_NV_DEVICE_DIAGNOSTIC_CHECKPOINTS_EXTENSION_NAME, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME}, false, true,
       false, true},
  };
  for (const Case& c : cases) {
    TestDevice device(gpu, nullptr, c.extensions);
    ASSERT_NE(device.device, VK_NULL_HANDLE);
    auto has = [&](const char* name) { return vkGetDeviceProcAddr(device.device, name) != nullptr; };
    const std::string what = std::to_string(c.extensions.size()) + " extensions, first " + c.extensions[0];
    EXPECT_EQ(has("vkCmdWriteBufferMarkerAMD"), c.marker) << what;
    EXPECT_EQ(has("vkGetQueueCheckpointDataNV"), c.checkpoints) << what;
    EXPECT_EQ(has("vkCmdWriteBufferMarker2AMD"), c.marker2) << what;
    EXPECT_EQ(has("vkGetQueueCheckpointData2NV"), c.checkpoints2) << what;
  }
  vkDestroyInstance(instance, nullptr);
}

// The other half of "with VK_VERSION_1_3 or VK_KHR_synchronization2": on a Vulkan 1.3 device (profile and
// application both at 1.3) the synchronization2 forms come with their breadcrumb extension alone — this profile
// does not even list VK_KHR_synchronization2 — and work: vkCmdWriteBufferMarker2AMD writes its marker and
// vkGetQueueCheckpointData2NV reports the checkpoint after a loss. The same device created by an application at
// 1.1 is a 1.1 device: the forms stay NULL.
TEST(Breadcrumbs, Synchronization2FormsOnAVulkan13DeviceNeedOnlyTheBreadcrumbExtension) {
  TempConfig config(R"({"devices": [")" CRASHTEST_FAULT_DATA_DIR R"(/breadcrumbs-gpu-13.json"]})");
  const std::vector<const char*> both = {VK_AMD_BUFFER_MARKER_EXTENSION_NAME,
                                         VK_NV_DEVICE_DIAGNOSTIC_CHECKPOINTS_EXTENSION_NAME};
  {
    VkInstance instance = MakeInstance(nullptr, {}, VK_API_VERSION_1_1);
    ASSERT_NE(instance, VK_NULL_HANDLE);
    uint32_t count = 1;
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    ASSERT_GE(vkEnumeratePhysicalDevices(instance, &count, &gpu), VK_SUCCESS);
    {
      TestDevice device(gpu, nullptr, both);
      ASSERT_NE(device.device, VK_NULL_HANDLE);
      EXPECT_NE(vkGetDeviceProcAddr(device.device, "vkCmdWriteBufferMarkerAMD"), nullptr);
      EXPECT_EQ(vkGetDeviceProcAddr(device.device, "vkCmdWriteBufferMarker2AMD"), nullptr) << "a 1.1 application";
      EXPECT_EQ(vkGetDeviceProcAddr(device.device, "vkGetQueueCheckpointData2NV"), nullptr) << "a 1.1 application";
    }
    vkDestroyInstance(instance, nullptr);
  }

  VkInstance instance = MakeInstance(nullptr, {}, VK_API_VERSION_1_3);
  ASSERT_NE(instance, VK_NULL_HANDLE);
  uint32_t count = 1;
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  ASSERT_GE(vkEnumeratePhysicalDevices(instance, &count, &gpu), VK_SUCCESS);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(gpu, &properties);
  ASSERT_GE(properties.apiVersion, VK_API_VERSION_1_3) << "the test needs a Vulkan 1.3 device";
  ASSERT_FALSE(HasExtension(gpu, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME));
  ASSERT_TRUE(HasExtension(gpu, VK_AMD_BUFFER_MARKER_EXTENSION_NAME));
  ASSERT_TRUE(HasExtension(gpu, VK_NV_DEVICE_DIAGNOSTIC_CHECKPOINTS_EXTENSION_NAME));
  // One breadcrumb extension alone: its own synchronization2 form only.
  for (const char* extension : both) {
    TestDevice device(gpu, nullptr, {extension});
    ASSERT_NE(device.device, VK_NULL_HANDLE);
    const bool marker = std::strcmp(extension, VK_AMD_BUFFER_MARKER_EXTENSION_NAME) == 0;
    EXPECT_EQ(vkGetDeviceProcAddr(device.device, "vkCmdWriteBufferMarker2AMD") != nullptr, marker) << extension;
    EXPECT_EQ(vkGetDeviceProcAddr(device.device, "vkGetQueueCheckpointData2NV") != nullptr, !marker) << extension;
  }

  // Both, with the synchronization2 feature (core in 1.3) that vkCmdWriteBufferMarker2AMD requires
  // (VUID-vkCmdWriteBufferMarker2AMD-synchronization2-03893).
  VkPhysicalDeviceSynchronization2Features sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
  sync2.synchronization2 = VK_TRUE;
  {
    TestDevice device(gpu, nullptr, both, &sync2);
    ASSERT_NE(device.device, VK_NULL_HANDLE);
    auto marker2 = reinterpret_cast<PFN_vkCmdWriteBufferMarker2AMD>(
        vkGetDeviceProcAddr(device.device, "vkCmdWriteBufferMarker2AMD"));
    auto checkpoint = reinterpret_cast<PFN_vkCmdSetCheckpointNV>(
        vkGetDeviceProcAddr(device.device, "vkCmdSetCheckpointNV"));
    auto data2 = reinterpret_cast<PFN_vkGetQueueCheckpointData2NV>(
        vkGetDeviceProcAddr(device.device, "vkGetQueueCheckpointData2NV"));
    auto inject = reinterpret_cast<PFN_crashtestInjectFault>(
        vkGetDeviceProcAddr(device.device, CRASHTEST_INJECT_FAULT_NAME));
    ASSERT_TRUE(marker2 && checkpoint && data2 && inject);

    VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bufferInfo.size = 16;
    bufferInfo.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateBuffer(device.device, &bufferInfo, nullptr, &buffer), VK_SUCCESS);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    ASSERT_EQ(device.Allocate(4096, &memory), VK_SUCCESS);
    ASSERT_EQ(vkBindBufferMemory(device.device, buffer, memory, 0), VK_SUCCESS);
    uint32_t* words = nullptr;
    ASSERT_EQ(vkMapMemory(device.device, memory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&words)), VK_SUCCESS);
    std::memset(words, 0, 16);
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool pool = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateCommandPool(device.device, &poolInfo, nullptr, &pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = pool;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    ASSERT_EQ(vkAllocateCommandBuffers(device.device, &info, &cb), VK_SUCCESS);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    ASSERT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
    static const int kStep = 0x13;
    marker2(cb, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, buffer, 8, 0x1300);
    checkpoint(cb, &kStep);
    ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    ASSERT_EQ(vkQueueSubmit(device.queues[0], 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
    ASSERT_EQ(vkQueueWaitIdle(device.queues[0]), VK_SUCCESS);
    EXPECT_EQ(words[2], 0x1300u) << "vkCmdWriteBufferMarker2AMD wrote its marker";

    ASSERT_EQ(inject(device.device, R"({"id": "after-step", "effect": "device-lost"})"), VK_ERROR_DEVICE_LOST);
    count = 0;
    data2(device.queues[0], &count, nullptr);
    ASSERT_EQ(count, 2u);
    std::vector<VkCheckpointData2NV> data(2, {VK_STRUCTURE_TYPE_CHECKPOINT_DATA_2_NV});
    data2(device.queues[0], &count, data.data());
    ASSERT_EQ(count, 2u);
    EXPECT_EQ(data[0].stage, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT);
    EXPECT_EQ(data[1].stage, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT);
    EXPECT_EQ(data[0].pCheckpointMarker, &kStep);
    EXPECT_EQ(data[1].pCheckpointMarker, &kStep);
    vkDestroyCommandPool(device.device, pool, nullptr);
    vkDestroyBuffer(device.device, buffer, nullptr);
    vkFreeMemory(device.device, memory, nullptr);
  }
  vkDestroyInstance(instance, nullptr);
}

class BreadcrumbLoss : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = std::make_unique<TempConfig>(R"({"devices": [")" CRASHTEST_FAULT_DATA_DIR R"(/breadcrumbs-gpu.json"]})");
    instance_ = MakeInstance(nullptr, {VK_EXT_DEBUG_UTILS_EXTENSION_NAME});
    ASSERT_NE(instance_, VK_NULL_HANDLE);
    uint32_t count = 1;
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    ASSERT_GE(vkEnumeratePhysicalDevices(instance_, &count, &gpu), VK_SUCCESS);
    VkPhysicalDeviceFaultFeaturesKHR fault{};
    fault.deviceFault = VK_TRUE;
    fault.deviceFaultVendorBinary = VK_TRUE;
    sync2_.synchronization2 = VK_TRUE;
    device_ = std::make_unique<TestDevice>(
        gpu, &fault,
        std::vector<const char*>{VK_KHR_DEVICE_FAULT_EXTENSION_NAME, VK_AMD_BUFFER_MARKER_EXTENSION_NAME,
                                 VK_NV_DEVICE_DIAGNOSTIC_CHECKPOINTS_EXTENSION_NAME,
                                 VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME},
        &sync2_);
    ASSERT_NE(device_->device, VK_NULL_HANDLE);
    VkDevice device = device_->device;
    marker_ = reinterpret_cast<PFN_vkCmdWriteBufferMarkerAMD>(vkGetDeviceProcAddr(device, "vkCmdWriteBufferMarkerAMD"));
    marker2_ = reinterpret_cast<PFN_vkCmdWriteBufferMarker2AMD>(vkGetDeviceProcAddr(device, "vkCmdWriteBufferMarker2AMD"));
    checkpoint_ = reinterpret_cast<PFN_vkCmdSetCheckpointNV>(vkGetDeviceProcAddr(device, "vkCmdSetCheckpointNV"));
    data_ = reinterpret_cast<PFN_vkGetQueueCheckpointDataNV>(vkGetDeviceProcAddr(device, "vkGetQueueCheckpointDataNV"));
    data2_ = reinterpret_cast<PFN_vkGetQueueCheckpointData2NV>(
        vkGetDeviceProcAddr(device, "vkGetQueueCheckpointData2NV"));
    inject_ = reinterpret_cast<PFN_crashtestInjectFault>(vkGetDeviceProcAddr(device, CRASHTEST_INJECT_FAULT_NAME));
    debugInfo_ = reinterpret_cast<PFN_vkGetDeviceFaultDebugInfoKHR>(
        vkGetDeviceProcAddr(device, "vkGetDeviceFaultDebugInfoKHR"));
    beginLabel_ = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance_, "vkCmdBeginDebugUtilsLabelEXT"));
    endLabel_ = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance_, "vkCmdEndDebugUtilsLabelEXT"));
    ASSERT_TRUE(marker_ && marker2_ && checkpoint_ && data_ && data2_ && inject_ && debugInfo_ && beginLabel_ &&
                endLabel_);

    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    ASSERT_EQ(vkCreateCommandPool(device, &poolInfo, nullptr, &pool_), VK_SUCCESS);
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
      vkDestroyBuffer(device, buffer_, nullptr);
      vkFreeMemory(device, memory_, nullptr);
      vkDestroyCommandPool(device, pool_, nullptr);
      device_.reset();
    }
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
  }

  std::unique_ptr<TempConfig> config_;
  VkInstance instance_ = VK_NULL_HANDLE;
  std::unique_ptr<TestDevice> device_;
  VkPhysicalDeviceSynchronization2Features sync2_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
  PFN_vkCmdWriteBufferMarkerAMD marker_ = nullptr;
  PFN_vkCmdWriteBufferMarker2AMD marker2_ = nullptr;
  PFN_vkCmdSetCheckpointNV checkpoint_ = nullptr;
  PFN_vkGetQueueCheckpointDataNV data_ = nullptr;
  PFN_vkGetQueueCheckpointData2NV data2_ = nullptr;
  PFN_crashtestInjectFault inject_ = nullptr;
  PFN_vkGetDeviceFaultDebugInfoKHR debugInfo_ = nullptr;
  PFN_vkCmdBeginDebugUtilsLabelEXT beginLabel_ = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT endLabel_ = nullptr;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  uint32_t* words_ = nullptr;
};

TEST_F(BreadcrumbLoss, MarkersAndCheckpointsShowTheLastCompletedStep) {
  uint32_t count = 5;
  data_(device_->queues[0], &count, nullptr);
  EXPECT_EQ(count, 0u) << "no checkpoint on a healthy device";

  // Steps 1 and 2 leave their breadcrumbs; the loss comes entering "Step 2", before step 3's.
  ASSERT_EQ(inject_(device_->device, R"({"id": "step-crash", "when": {"label": "Step 2"}, "effect": "device-lost"})"),
            VK_SUCCESS);
  VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = pool_;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  ASSERT_EQ(vkAllocateCommandBuffers(device_->device, &info, &cb), VK_SUCCESS);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  ASSERT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
  static const int kStep[4] = {0, 0x11, 0x22, 0x33};
  VkDebugUtilsLabelEXT step1{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
  step1.pLabelName = "Step 1";
  VkDebugUtilsLabelEXT step2{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
  step2.pLabelName = "Step 2";
  marker_(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, buffer_, 0, 1);  // command 0
  checkpoint_(cb, &kStep[1]);
  beginLabel_(cb, &step1);
  endLabel_(cb);
  marker2_(cb, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, buffer_, 0, 2);
  marker_(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, buffer_, 4, 20);
  checkpoint_(cb, &kStep[2]);
  beginLabel_(cb, &step2);  // command 7: the loss
  marker_(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, buffer_, 0, 3);
  checkpoint_(cb, &kStep[3]);
  endLabel_(cb);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  VkFence fence = device_->Fence();
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  ASSERT_EQ(vkQueueSubmit(device_->queues[0], 1, &submit, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_->device, 1, &fence, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST);
  vkDestroyFence(device_->device, fence, nullptr);
  vkQueueWaitIdle(device_->queues[0]);

  EXPECT_EQ(words_[0], 2u) << "the marker buffer holds the last marker written before the loss";
  EXPECT_EQ(words_[1], 20u);

  count = 0;
  data_(device_->queues[0], &count, nullptr);
  ASSERT_EQ(count, 2u);
  std::vector<VkCheckpointDataNV> data(2, {VK_STRUCTURE_TYPE_CHECKPOINT_DATA_NV});
  data_(device_->queues[0], &count, data.data());
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(data[0].stage, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
  EXPECT_EQ(data[1].stage, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
  EXPECT_EQ(data[0].pCheckpointMarker, &kStep[2]);
  EXPECT_EQ(data[1].pCheckpointMarker, &kStep[2]);
  count = 1;  // a short array gets the first entry
  std::vector<VkCheckpointData2NV> data2(2, {VK_STRUCTURE_TYPE_CHECKPOINT_DATA_2_NV});
  data2_(device_->queues[0], &count, data2.data());
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(data2[0].stage, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT);
  EXPECT_EQ(data2[0].pCheckpointMarker, &kStep[2]);

  VkDeviceFaultDebugInfoKHR debug{VK_STRUCTURE_TYPE_DEVICE_FAULT_DEBUG_INFO_KHR};
  ASSERT_EQ(debugInfo_(device_->device, &debug), VK_SUCCESS);
  std::vector<std::byte> bytes(debug.vendorBinarySize);
  debug.pVendorBinaryData = bytes.data();
  ASSERT_EQ(debugInfo_(device_->device, &debug), VK_SUCCESS);
  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(bytes, &d, &error)) << error;
  ASSERT_EQ(d.content.markers.size(), 1u);
  EXPECT_EQ(d.content.markers[0].value, 20u) << "the last marker written, at offset 4";
  EXPECT_EQ(d.content.markers[0].offset, 4u);
  ASSERT_EQ(d.content.checkpoints.size(), 2u);
  EXPECT_EQ(d.content.checkpoints[0].marker, reinterpret_cast<uint64_t>(&kStep[2]));
  ASSERT_EQ(d.content.submissions.size(), 1u);
  EXPECT_EQ(d.content.submissions[0].executing, 7u);
  const std::string text = dump::DumpText(d);
  EXPECT_NE(text.find("vkCmdWriteBufferMarker2AMD marker 2 to buffer"), std::string::npos) << text;
}

}  // namespace
