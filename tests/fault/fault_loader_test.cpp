// Faults through the real loader: a configuration with a fault plan (written by each test), then the device-lost
// semantics the application sees — the triggering call's result, every wait returning VK_ERROR_DEVICE_LOST and
// never hanging, masked and out-of-memory faults leaving the device alive, hang + watchdog, a second device
// untouched, bad plans failing vkCreateInstance.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <crashtest/crashtest.h>
#include <crashtest/vulkan_compat.h>

#include "fault_loader_fixture.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace crashtest::test;

TEST_F(FaultLoaderTest, ThirdSubmitLosesTheDeviceAndEveryCommandSaysSo) {
  Start(R"([{"id": "third", "when": {"submit": 3}, "effect": "device-lost"}])");
  TestDevice d(gpus_[0]);
  VkFence done = d.Fence();
  ASSERT_EQ(d.Submit(0), VK_SUCCESS);
  ASSERT_EQ(d.Submit(0, done), VK_SUCCESS);
  ASSERT_EQ(vkWaitForFences(d.device, 1, &done, VK_TRUE, UINT64_MAX), VK_SUCCESS);

  // Objects made before the loss, to probe afterwards.
  VkFence pending = d.Fence();
  VkEventCreateInfo eventInfo{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  VkEvent event = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateEvent(d.device, &eventInfo, nullptr, &event), VK_SUCCESS);
  VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  queryInfo.queryType = VK_QUERY_TYPE_OCCLUSION;
  queryInfo.queryCount = 1;
  VkQueryPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateQueryPool(d.device, &queryInfo, nullptr, &pool), VK_SUCCESS);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  ASSERT_EQ(d.Allocate(4096, &memory), VK_SUCCESS);

  EXPECT_EQ(d.Submit(0, pending), VK_ERROR_DEVICE_LOST) << "the triggering submit";
  EXPECT_EQ(d.Submit(0), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkQueueWaitIdle(d.queues[0]), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkDeviceWaitIdle(d.device), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkWaitForFences(d.device, 1, &pending, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST) << "never hangs";
  EXPECT_EQ(vkWaitForFences(d.device, 1, &done, VK_TRUE, 0), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkGetFenceStatus(d.device, pending), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkGetEventStatus(d.device, event), VK_ERROR_DEVICE_LOST);
  uint64_t result = 0;
  EXPECT_EQ(vkGetQueryPoolResults(d.device, pool, 0, 1, sizeof(result), &result, sizeof(result),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_ERROR_DEVICE_LOST);
  if (d.timeline) {
    VkSemaphore timeline = d.Semaphore(true);
    uint64_t value = 0;
    EXPECT_EQ(vkGetSemaphoreCounterValue(d.device, timeline, &value), VK_ERROR_DEVICE_LOST);
    const uint64_t wanted = 1;
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &timeline;
    wait.pValues = &wanted;
    EXPECT_EQ(vkWaitSemaphores(d.device, &wait, UINT64_MAX), VK_ERROR_DEVICE_LOST);
    vkDestroySemaphore(d.device, timeline, nullptr);
  }
  // Host-mapped memory stays usable (vkMapMemory has no VK_ERROR_DEVICE_LOST result), and memory can be freed.
  void* mapped = nullptr;
  EXPECT_EQ(vkMapMemory(d.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
  vkUnmapMemory(d.device, memory);
  // Destruction still works on a lost device.
  vkFreeMemory(d.device, memory, nullptr);
  vkDestroyQueryPool(d.device, pool, nullptr);
  vkDestroyEvent(d.device, event, nullptr);
  vkDestroyFence(d.device, pending, nullptr);
  vkDestroyFence(d.device, done, nullptr);
}

TEST_F(FaultLoaderTest, WaitersBlockedBeforeTheLossAreReleased) {
  Start("[]");
  TestDevice d(gpus_[0]);
  auto inject = reinterpret_cast<PFN_crashtestInjectFault>(vkGetDeviceProcAddr(d.device, CRASHTEST_INJECT_FAULT_NAME));
  ASSERT_NE(inject, nullptr);
  VkFence never = d.Fence();
  VkSemaphore unsignalled = d.Semaphore(false);
  VkFence behind = d.Fence();
  // The queue blocks on a semaphore nobody signals: only the loss can release it.
  ASSERT_EQ(d.Submit(0, behind, &unsignalled), VK_SUCCESS);
  VkResult fenceWait = VK_SUCCESS, idleWait = VK_SUCCESS;
  std::thread fenceWaiter([&] { fenceWait = vkWaitForFences(d.device, 1, &never, VK_TRUE, UINT64_MAX); });
  std::thread idleWaiter([&] { idleWait = vkQueueWaitIdle(d.queues[0]); });
  // Whether the waiters already block or not, they must return VK_ERROR_DEVICE_LOST (the test would time out).
  EXPECT_EQ(inject(d.device, R"({"id": "now", "effect": "device-lost"})"), VK_ERROR_DEVICE_LOST);
  fenceWaiter.join();
  idleWaiter.join();
  EXPECT_EQ(fenceWait, VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(idleWait, VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkWaitForFences(d.device, 1, &behind, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST);
  vkDestroyFence(d.device, behind, nullptr);
  vkDestroySemaphore(d.device, unsignalled, nullptr);
  vkDestroyFence(d.device, never, nullptr);
}

TEST_F(FaultLoaderTest, TimeTriggerLosesTheDeviceAfterCreation) {
  Start(R"([{"id": "late", "when": {"afterMs": 100}, "effect": "device-lost"}])");
  TestDevice d(gpus_[0]);
  VkFence never = d.Fence();
  EXPECT_EQ(vkWaitForFences(d.device, 1, &never, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(d.Submit(0), VK_ERROR_DEVICE_LOST);
  vkDestroyFence(d.device, never, nullptr);
}

TEST_F(FaultLoaderTest, MaskedFaultLeavesTheDeviceAlive) {
  Start(R"([{"id": "masked", "when": {"submit": 1}, "effect": "masked"}])");
  VkPhysicalDeviceFaultFeaturesKHR features{};
  features.deviceFault = VK_TRUE;
  features.deviceFaultReportMasked = VK_TRUE;
  TestDevice d(gpus_[0], &features);
  VkFence fence = d.Fence();
  EXPECT_EQ(d.Submit(0, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(d.device, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
  EXPECT_EQ(vkDeviceWaitIdle(d.device), VK_SUCCESS);
  vkDestroyFence(d.device, fence, nullptr);
}

TEST_F(FaultLoaderTest, MaskedFaultLosesTheDeviceWithDeviceLostOnMasked) {
  Start(R"([{"id": "masked", "when": {"submit": 1}, "effect": "masked"}])");
  VkPhysicalDeviceFaultFeaturesKHR features{};
  features.deviceFault = VK_TRUE;
  features.deviceFaultReportMasked = VK_TRUE;
  features.deviceFaultDeviceLostOnMasked = VK_TRUE;
  TestDevice d(gpus_[0], &features);
  EXPECT_EQ(d.Submit(0), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkDeviceWaitIdle(d.device), VK_ERROR_DEVICE_LOST);
}

TEST_F(FaultLoaderTest, OutOfMemoryOnTheNthAllocationAndAboveASize) {
  Start(R"([{"id": "second", "when": {"allocation": 2}, "effect": "out-of-device-memory"},
            {"id": "big", "when": {"allocationAbove": 1048576}, "effect": "out-of-host-memory"}])");
  TestDevice d(gpus_[0]);
  VkDeviceMemory a = VK_NULL_HANDLE, b = VK_NULL_HANDLE, c = VK_NULL_HANDLE, big = VK_NULL_HANDLE;
  EXPECT_EQ(d.Allocate(256, &a), VK_SUCCESS);
  EXPECT_EQ(d.Allocate(256, &b), VK_ERROR_OUT_OF_DEVICE_MEMORY);
  EXPECT_EQ(d.Allocate(256, &c), VK_SUCCESS);
  EXPECT_EQ(d.Allocate(2 << 20, &big), VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(vkDeviceWaitIdle(d.device), VK_SUCCESS) << "out of memory is not a device loss";
  vkFreeMemory(d.device, a, nullptr);
  vkFreeMemory(d.device, c, nullptr);
}

TEST_F(FaultLoaderTest, OutOfMemoryOnASubmit) {
  Start(R"([{"id": "oom", "when": {"submit": 2}, "effect": "out-of-host-memory"}])");
  TestDevice d(gpus_[0]);
  VkFence fence = d.Fence();
  EXPECT_EQ(d.Submit(0), VK_SUCCESS);
  EXPECT_EQ(d.Submit(0, fence), VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(vkWaitForFences(d.device, 1, &fence, VK_TRUE, 0), VK_TIMEOUT) << "nothing was submitted";
  EXPECT_EQ(d.Submit(0, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(d.device, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
  vkDestroyFence(d.device, fence, nullptr);
}

TEST_F(FaultLoaderTest, HangThenWatchdogLosesTheDevice) {
  Start(R"([{"id": "hang", "when": {"submit": 1}, "effect": "hang", "watchdogMs": 100}])");
  TestDevice d(gpus_[0]);
  VkFence fence = d.Fence();
  ASSERT_EQ(d.Submit(0, fence), VK_SUCCESS) << "a hang is not an error of the submit";
  EXPECT_EQ(vkWaitForFences(d.device, 1, &fence, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST)
      << "the watchdog loses the device; the wait returns";
  EXPECT_EQ(vkQueueWaitIdle(d.queues[0]), VK_ERROR_DEVICE_LOST);
  vkDestroyFence(d.device, fence, nullptr);
}

TEST_F(FaultLoaderTest, DestroyingAHungDeviceDoesNotWaitForTheWatchdog) {
  Start(R"([{"id": "hang", "when": {"submit": 1}, "effect": "hang", "watchdogMs": 3600000}])");
  TestDevice d(gpus_[0]);
  ASSERT_EQ(d.Submit(0), VK_SUCCESS);
  // ~TestDevice destroys the device while its queue is hung: it must return (the test would time out).
}

TEST_F(FaultLoaderTest, PerQueueTrigger) {
  // mali-g78's family 0 has two queues (the default device's has one, and a fault on its queue 1 is refused).
  Start(R"([{"id": "q", "when": {"submit": 2, "queue": {"family": 0, "index": 1}}, "effect": "device-lost"}])",
        R"(["builtin:mali-g78"])");
  ASSERT_FALSE(HasFatalFailure());
  TestDevice d(gpus_[0]);
  ASSERT_GE(d.queues.size(), 2u);
  EXPECT_EQ(d.Submit(1), VK_SUCCESS);
  EXPECT_EQ(d.Submit(0), VK_SUCCESS);
  EXPECT_EQ(d.Submit(0), VK_SUCCESS);
  EXPECT_EQ(d.Submit(1), VK_ERROR_DEVICE_LOST);
}

// A fault counting a queue the device does not have would never fire: the configuration is refused.
TEST_F(FaultLoaderTest, FaultOnAQueueTheDeviceLacksFailsInstanceCreation) {
  for (const char* queue : {R"({"family": 0, "index": 1})", R"({"family": 7, "index": 0})"}) {
    SCOPED_TRACE(queue);
    TempConfig config(std::string(R"({"devices": ["builtin:default"], "faults": [{"id": "q", "when": {"submit": 1, )"
                                  R"("queue": )") + queue + R"(}, "effect": "device-lost"}]})");
    VkResult result = VK_SUCCESS;
    VkInstance instance = MakeInstance(&result);
    EXPECT_EQ(instance, VK_NULL_HANDLE);
    EXPECT_NE(result, VK_SUCCESS);
    if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
  }
}

TEST_F(FaultLoaderTest, SecondDeviceIsUntouched) {
  Start(R"([{"id": "first-only", "device": 0, "when": {"submit": 1}, "effect": "device-lost"}])",
        R"(["builtin:default", "builtin:default"])");
  ASSERT_EQ(gpus_.size(), 2u);
  TestDevice lost(gpus_[0]);
  TestDevice healthy(gpus_[1]);
  EXPECT_EQ(lost.Submit(0), VK_ERROR_DEVICE_LOST);
  VkFence fence = healthy.Fence();
  EXPECT_EQ(healthy.Submit(0, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(healthy.device, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
  EXPECT_EQ(vkDeviceWaitIdle(healthy.device), VK_SUCCESS);
  vkDestroyFence(healthy.device, fence, nullptr);
}

TEST_F(FaultLoaderTest, EachDeviceCountsItsOwnSubmits) {
  Start(R"([{"id": "each", "when": {"submit": 2}, "effect": "device-lost"}])");
  TestDevice a(gpus_[0]);
  TestDevice b(gpus_[0]);
  EXPECT_EQ(a.Submit(0), VK_SUCCESS);
  EXPECT_EQ(b.Submit(0), VK_SUCCESS);
  EXPECT_EQ(a.Submit(0), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(b.Submit(0), VK_ERROR_DEVICE_LOST);
}

TEST_F(FaultLoaderTest, SeededRandomTriggerGivesTheSameRunEveryTime) {
  Start(R"([{"id": "dice", "when": {"random": 0.25, "seed": 1234}, "effect": "out-of-device-memory",
             "repeat": true}])");
  auto run = [&] {
    TestDevice d(gpus_[0]);
    std::vector<VkResult> results;
    for (int i = 0; i < 64; ++i) results.push_back(d.Submit(0));
    return results;
  };
  const auto first = run();
  EXPECT_EQ(first, run());
  EXPECT_NE(std::count(first.begin(), first.end(), VK_ERROR_OUT_OF_DEVICE_MEMORY), 0);
  EXPECT_NE(std::count(first.begin(), first.end(), VK_SUCCESS), 0);
}

TEST_F(FaultLoaderTest, RuntimeControlInjectsNowAndAtTheNextTrigger) {
  Start("[]");
  TestDevice d(gpus_[0]);
  auto inject = reinterpret_cast<PFN_crashtestInjectFault>(vkGetDeviceProcAddr(d.device, CRASHTEST_INJECT_FAULT_NAME));
  auto fired = reinterpret_cast<PFN_crashtestGetFiredFaultCount>(
      vkGetDeviceProcAddr(d.device, CRASHTEST_GET_FIRED_FAULT_COUNT_NAME));
  ASSERT_NE(inject, nullptr) << "returned through the loader by name";
  ASSERT_NE(fired, nullptr);
  EXPECT_EQ(fired(d.device), 0u);
  EXPECT_EQ(inject(d.device, R"({"id": "bad", "effect": "device-lots"})"), VK_ERROR_INITIALIZATION_FAILED);
  EXPECT_EQ(inject(d.device, "not json"), VK_ERROR_INITIALIZATION_FAILED);
  EXPECT_EQ(inject(d.device, R"({"id": "next", "when": {"submit": 2}, "effect": "out-of-host-memory"})"),
            VK_SUCCESS);
  EXPECT_EQ(d.Submit(0), VK_SUCCESS);
  EXPECT_EQ(d.Submit(0), VK_ERROR_OUT_OF_HOST_MEMORY) << "the 2nd submit after the injection";
  EXPECT_EQ(fired(d.device), 1u);
  EXPECT_EQ(inject(d.device, R"({"id": "now", "effect": "masked"})"), VK_SUCCESS);
  EXPECT_EQ(fired(d.device), 2u);
  EXPECT_EQ(vkDeviceWaitIdle(d.device), VK_SUCCESS);
  EXPECT_EQ(inject(d.device, R"({"id": "here", "effect": "device-lost"})"), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(d.Submit(0), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkDeviceWaitIdle(d.device), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(fired(d.device), 3u);
}

TEST(FaultLoaderConfig, BadPlanFailsInstanceCreation) {
  TempConfig config(R"({"faults": [{"id": "x", "when": {"submit": 0}, "effect": "device-lost"}]})");
  VkResult result = VK_SUCCESS;
  VkInstance instance = MakeInstance(&result);
  EXPECT_EQ(instance, VK_NULL_HANDLE);
  // The loader reports VK_ERROR_INCOMPATIBLE_DRIVER when its only driver fails vkCreateInstance.
  EXPECT_TRUE(result == VK_ERROR_INITIALIZATION_FAILED || result == VK_ERROR_INCOMPATIBLE_DRIVER)
      << "got " << result;
  if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
}

// VK_KHR_device_fault through the loader; runs once the driver advertises the extension.
TEST_F(FaultLoaderTest, ReportsThroughTheLoaderInOrderAndExactlyOnce) {
  Start(R"([{"id": "m1", "when": {"submit": 1}, "effect": "masked"},
            {"id": "m2", "when": {"submit": 2}, "effect": "masked"},
            {"id": "lost", "when": {"submit": 3}, "effect": "device-lost",
             "report": {"description": "page fault", "address": {"type": "read-invalid", "address": "0x7f00", "precision": 4096}}}])");
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(gpus_[0], nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(gpus_[0], nullptr, &count, extensions.data());
  bool advertised = false;
  for (const auto& e : extensions) advertised |= std::string(e.extensionName) == VK_KHR_DEVICE_FAULT_EXTENSION_NAME;
  if (!advertised) GTEST_SKIP() << "VK_KHR_device_fault is not advertised yet (driver_capabilities.cpp)";

  VkPhysicalDeviceFaultFeaturesKHR features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_KHR};
  features.deviceFault = VK_TRUE;
  features.deviceFaultVendorBinary = VK_TRUE;
  features.deviceFaultReportMasked = VK_TRUE;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  const char* extension = VK_KHR_DEVICE_FAULT_EXTENSION_NAME;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queueInfo;
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = &extension;
  VkDevice device = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDevice(gpus_[0], &info, nullptr, &device), VK_SUCCESS);
  auto getReports = reinterpret_cast<PFN_vkGetDeviceFaultReportsKHR>(
      vkGetDeviceProcAddr(device, "vkGetDeviceFaultReportsKHR"));
  auto getDebugInfo = reinterpret_cast<PFN_vkGetDeviceFaultDebugInfoKHR>(
      vkGetDeviceProcAddr(device, "vkGetDeviceFaultDebugInfoKHR"));
  ASSERT_NE(getReports, nullptr);
  ASSERT_NE(getDebugInfo, nullptr);
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device, 0, 0, &queue);
  uint32_t reports = 5;
  EXPECT_EQ(getReports(device, 0, &reports, nullptr), VK_TIMEOUT) << "healthy and nothing queued";
  EXPECT_EQ(reports, 0u);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  EXPECT_EQ(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
  EXPECT_EQ(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
  EXPECT_EQ(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), VK_ERROR_DEVICE_LOST);
  std::vector<VkDeviceFaultInfoKHR> infos(4, VkDeviceFaultInfoKHR{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR});
  reports = 4;
  ASSERT_EQ(getReports(device, 0, &reports, infos.data()), VK_SUCCESS);
  ASSERT_EQ(reports, 3u);
  EXPECT_LT(infos[0].groupId, infos[1].groupId);
  EXPECT_LT(infos[1].groupId, infos[2].groupId);
  EXPECT_EQ(infos[2].flags, static_cast<VkDeviceFaultFlagsKHR>(VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR |
                                                               VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR));
  EXPECT_STREQ(infos[2].description, "page fault");
  EXPECT_EQ(infos[2].faultAddressInfo.reportedAddress, 0x7f00u);
  reports = 4;
  EXPECT_EQ(getReports(device, 0, &reports, infos.data()), VK_TIMEOUT) << "each report exactly once";
  VkDeviceFaultDebugInfoKHR debug{VK_STRUCTURE_TYPE_DEVICE_FAULT_DEBUG_INFO_KHR};
  ASSERT_EQ(getDebugInfo(device, &debug), VK_SUCCESS);
  EXPECT_GT(debug.vendorBinarySize, 56u);
  vkDestroyDevice(device, nullptr);
}

TEST_F(FaultLoaderTest, KhrCommandsAreNullWithoutTheExtension) {
  Start("[]");
  TestDevice d(gpus_[0]);
  EXPECT_EQ(vkGetDeviceProcAddr(d.device, "vkGetDeviceFaultReportsKHR"), nullptr);
  EXPECT_EQ(vkGetDeviceProcAddr(d.device, "vkGetDeviceFaultDebugInfoKHR"), nullptr);
  EXPECT_EQ(vkGetDeviceProcAddr(d.device, "vkGetDeviceFaultInfoEXT"), nullptr);
}

TEST_F(FaultLoaderTest, FaultFeaturesAndPropertiesAreAnsweredWhenChained) {
  Start("[]");
  VkPhysicalDeviceFaultFeaturesKHR features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_KHR};
  VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
  vkGetPhysicalDeviceFeatures2(gpus_[0], &features2);
  EXPECT_EQ(features.sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_KHR);
  EXPECT_EQ(features.deviceFault, VK_TRUE);
  EXPECT_EQ(features.deviceFaultVendorBinary, VK_TRUE);
  EXPECT_EQ(features.deviceFaultReportMasked, VK_TRUE);
  EXPECT_EQ(features.deviceFaultDeviceLostOnMasked, VK_TRUE);
  VkPhysicalDeviceFaultPropertiesKHR properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_PROPERTIES_KHR};
  VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties};
  vkGetPhysicalDeviceProperties2(gpus_[0], &properties2);
  EXPECT_EQ(properties.maxDeviceFaultCount, 1024u) << "the default";
}

TEST_F(FaultLoaderTest, MaxDeviceFaultCountFromTheProfileSizesTheRing) {
  Start("[]", R"([")" CRASHTEST_FAULT_DATA_DIR R"(/small-fault-ring.json"])");
  VkPhysicalDeviceFaultPropertiesKHR properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_PROPERTIES_KHR};
  VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties};
  vkGetPhysicalDeviceProperties2(gpus_[0], &properties2);
  ASSERT_EQ(properties.maxDeviceFaultCount, 4u);

  VkPhysicalDeviceFaultFeaturesKHR features{};
  features.deviceFault = VK_TRUE;
  features.deviceFaultReportMasked = VK_TRUE;
  TestDevice d(gpus_[0], &features, {VK_KHR_DEVICE_FAULT_EXTENSION_NAME});
  auto inject = reinterpret_cast<PFN_crashtestInjectFault>(vkGetDeviceProcAddr(d.device, CRASHTEST_INJECT_FAULT_NAME));
  auto reports = reinterpret_cast<PFN_vkGetDeviceFaultReportsKHR>(
      vkGetDeviceProcAddr(d.device, "vkGetDeviceFaultReportsKHR"));
  ASSERT_TRUE(inject && reports);
  for (int i = 0; i < 6; ++i) {
    const std::string fault = R"({"id": "m)" + std::to_string(i) + R"(", "effect": "masked"})";
    ASSERT_EQ(inject(d.device, fault.c_str()), VK_SUCCESS);
  }
  // Six reports into a ring of four: the two oldest are gone, and the first one read says so.
  std::vector<VkDeviceFaultInfoKHR> infos(8, VkDeviceFaultInfoKHR{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR});
  uint32_t count = static_cast<uint32_t>(infos.size());
  ASSERT_EQ(reports(d.device, 0, &count, infos.data()), VK_SUCCESS);
  ASSERT_EQ(count, 4u);
  EXPECT_NE(infos[0].flags & VK_DEVICE_FAULT_FLAG_OVERFLOW_BIT_KHR, 0u);
  EXPECT_NE(std::string(infos[0].description).find("\"m2\""), std::string::npos) << infos[0].description;
  EXPECT_NE(std::string(infos[3].description).find("\"m5\""), std::string::npos) << infos[3].description;
}

}  // namespace
