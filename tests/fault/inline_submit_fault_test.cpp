// Faults against the submit fast path (issue 21, docs/execution.md "Threads"): a planned hang is never run on the
// submitting thread (vkQueueSubmit returns, the queue hangs, later submissions wait behind it), and a loss fired
// from another thread while a submission runs inline stops it at the next command with the loss semantics of the
// worker: the rest abandoned, the fence never signalled, every wait returning VK_ERROR_DEVICE_LOST, the command
// buffer free to release at once.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <crashtest/crashtest.h>

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

#include "fault_loader_fixture.h"

namespace {

using namespace crashtest::test;

// A host-visible, mapped buffer of `size` bytes on `d`.
struct MappedBuffer {
  MappedBuffer(const TestDevice& d, VkDeviceSize bytes) : device(d.device), size(bytes) {
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    EXPECT_EQ(vkCreateBuffer(device, &info, nullptr, &buffer), VK_SUCCESS);
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(device, buffer, &requirements);
    EXPECT_EQ(d.Allocate(requirements.size, &memory), VK_SUCCESS);
    EXPECT_EQ(vkBindBufferMemory(device, buffer, memory, 0), VK_SUCCESS);
    void* pointer = nullptr;
    EXPECT_EQ(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &pointer), VK_SUCCESS);
    mapped = static_cast<unsigned char*>(pointer);
  }
  ~MappedBuffer() {
    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, memory, nullptr);
  }
  uint32_t At(size_t offset) const {
    uint32_t value;
    std::memcpy(&value, mapped + offset, sizeof(value));
    return value;
  }
  VkDevice device;
  VkDeviceSize size;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  unsigned char* mapped = nullptr;
};

struct CommandPool {
  explicit CommandPool(VkDevice d) : device(d) {
    VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    EXPECT_EQ(vkCreateCommandPool(device, &info, nullptr, &pool), VK_SUCCESS);
  }
  ~CommandPool() { vkDestroyCommandPool(device, pool, nullptr); }
  VkCommandBuffer Allocate() const {
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = pool;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateCommandBuffers(device, &info, &commandBuffer), VK_SUCCESS);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    EXPECT_EQ(vkBeginCommandBuffer(commandBuffer, &begin), VK_SUCCESS);
    return commandBuffer;
  }
  VkDevice device;
  VkCommandPool pool = VK_NULL_HANDLE;
};

VkResult SubmitOne(VkQueue queue, VkCommandBuffer commandBuffer, VkFence fence) {
  VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.commandBufferCount = 1;
  info.pCommandBuffers = &commandBuffer;
  return vkQueueSubmit(queue, 1, &info, fence);
}

TEST_F(FaultLoaderTest, PlannedHangStaysOnTheWorkerAndLaterSubmissionsQueueBehindIt) {
  // A long watchdog: had the hung submission run on this thread, vkQueueSubmit would only return once the
  // watchdog lost the device, and the fence below would say VK_ERROR_DEVICE_LOST instead of VK_NOT_READY.
  Start(R"([{"id": "hang", "when": {"submit": 1}, "effect": "hang", "watchdogMs": 30000}])");
  TestDevice d(gpus_[0]);
  MappedBuffer target(d, 16);
  CommandPool pool(d.device);
  VkCommandBuffer fill = pool.Allocate();
  vkCmdFillBuffer(fill, target.buffer, 0, 8, 0x12345678);
  ASSERT_EQ(vkEndCommandBuffer(fill), VK_SUCCESS);
  VkCommandBuffer fillMore = pool.Allocate();
  vkCmdFillBuffer(fillMore, target.buffer, 8, 8, 0x9abcdef0);
  ASSERT_EQ(vkEndCommandBuffer(fillMore), VK_SUCCESS);
  VkFence hung = d.Fence(), behind = d.Fence();
  ASSERT_EQ(SubmitOne(d.queues[0], fill, hung), VK_SUCCESS) << "a hang is not an error of the submit";
  EXPECT_EQ(vkGetFenceStatus(d.device, hung), VK_NOT_READY) << "the submit returned while the queue hangs";
  // Nothing to wait for, but the queue is busy (hung): it must not run ahead on this thread.
  ASSERT_EQ(SubmitOne(d.queues[0], fillMore, behind), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(d.device, behind), VK_NOT_READY);
  EXPECT_EQ(target.At(0), 0u) << "the hung submission's work never ran";
  auto inject = reinterpret_cast<PFN_crashtestInjectFault>(vkGetDeviceProcAddr(d.device, CRASHTEST_INJECT_FAULT_NAME));
  ASSERT_NE(inject, nullptr);
  EXPECT_EQ(inject(d.device, R"({"id": "end", "effect": "device-lost"})"), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkWaitForFences(d.device, 1, &behind, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkQueueWaitIdle(d.queues[0]), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(target.At(0), 0u) << "work queued before the loss is abandoned";
  EXPECT_EQ(target.At(8), 0u);
  vkDestroyFence(d.device, hung, nullptr);
  vkDestroyFence(d.device, behind, nullptr);
}

// The messenger callback of the loss test: when the queue logs the out-of-range fill (on the thread running the
// submission), it notes the thread and holds it there until another thread has lost the device.
struct LossDuringCommand {
  std::mutex mutex;
  std::condition_variable changed;
  bool reached = false;
  bool lost = false;
  std::thread::id runningThread;

  static VkBool32 VKAPI_PTR Callback(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                     const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* self = static_cast<LossDuringCommand*>(user);
    if (data->pMessage == nullptr || std::strstr(data->pMessage, "vkCmdFillBuffer: range") == nullptr)
      return VK_FALSE;
    std::unique_lock lock(self->mutex);
    self->reached = true;
    self->runningThread = std::this_thread::get_id();
    self->changed.notify_all();
    self->changed.wait(lock, [self] { return self->lost; });
    return VK_FALSE;
  }
};

TEST_F(FaultLoaderTest, LossFromAnotherThreadDuringAnInlineSubmissionAbandonsTheRest) {
  Start("[]", R"(["builtin:default"])", {VK_EXT_DEBUG_UTILS_EXTENSION_NAME});
  LossDuringCommand hook;
  auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
  auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
  ASSERT_NE(createMessenger, nullptr);
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messengerInfo.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messengerInfo.pfnUserCallback = &LossDuringCommand::Callback;
  messengerInfo.pUserData = &hook;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  ASSERT_EQ(createMessenger(instance_, &messengerInfo, nullptr, &messenger), VK_SUCCESS);
  {
    TestDevice d(gpus_[0]);
    auto inject =
        reinterpret_cast<PFN_crashtestInjectFault>(vkGetDeviceProcAddr(d.device, CRASHTEST_INJECT_FAULT_NAME));
    ASSERT_NE(inject, nullptr);
    MappedBuffer target(d, 16);
    CommandPool pool(d.device);
    VkCommandBuffer commands = pool.Allocate();
    vkCmdFillBuffer(commands, target.buffer, 0, 4, 0x11111111);     // runs
    vkCmdFillBuffer(commands, target.buffer, 4096, 4, 0x22222222);  // out of range: logged, skipped; the loss comes
    vkCmdFillBuffer(commands, target.buffer, 4, 4, 0x33333333);     // abandoned
    ASSERT_EQ(vkEndCommandBuffer(commands), VK_SUCCESS);

    VkResult injected = VK_SUCCESS;
    std::thread loser([&] {
      std::unique_lock lock(hook.mutex);
      hook.changed.wait(lock, [&] { return hook.reached; });
      lock.unlock();
      injected = inject(d.device, R"({"id": "loss", "effect": "device-lost"})");
      lock.lock();
      hook.lost = true;
      hook.changed.notify_all();
    });
    VkFence fence = d.Fence();
    const VkResult submitted = SubmitOne(d.queues[0], commands, fence);
    // Had the submission gone to the worker, it could still be running: wait for the loss either way.
    {
      std::unique_lock lock(hook.mutex);
      hook.changed.wait(lock, [&] { return hook.lost; });
    }
    loser.join();
    EXPECT_EQ(submitted, VK_SUCCESS) << "the loss happened after the submit was accepted, as on the worker";
    EXPECT_EQ(injected, VK_ERROR_DEVICE_LOST);
    EXPECT_EQ(hook.runningThread, std::this_thread::get_id()) << "an idle queue runs the submission inline";
    EXPECT_EQ(vkWaitForFences(d.device, 1, &fence, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST);
    EXPECT_EQ(vkQueueWaitIdle(d.queues[0]), VK_ERROR_DEVICE_LOST);
    EXPECT_EQ(target.At(0), 0x11111111u) << "the work before the loss ran";
    EXPECT_EQ(target.At(4), 0u) << "the command after the loss was abandoned";
    // The application may release the command buffer at once, and the device's waits all end.
    vkFreeCommandBuffers(d.device, pool.pool, 1, &commands);
    EXPECT_EQ(vkDeviceWaitIdle(d.device), VK_ERROR_DEVICE_LOST);
    vkDestroyFence(d.device, fence, nullptr);
  }
  destroyMessenger(instance_, messenger, nullptr);
}

}  // namespace
