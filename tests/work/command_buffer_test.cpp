// Command pools and buffers through the real loader: allocation, the recording lifecycle, resets, secondaries,
// and errors that stick to the command buffer.
#include <atomic>
#include <cstdlib>

#include "work_test_env.h"

namespace crashtest::test {
namespace {

using CommandBufferTest = WorkTest;

TEST_F(CommandBufferTest, AllocateBeginEndFreePrimaryAndSecondary) {
  VkCommandBuffer buffers[3] = {};
  VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = pools_[0];
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 3;
  ASSERT_EQ(vkAllocateCommandBuffers(device_, &info, buffers), VK_SUCCESS);
  for (VkCommandBuffer buffer : buffers) {
    EXPECT_NE(buffer, VK_NULL_HANDLE);
    Begin(buffer);
    EXPECT_EQ(vkEndCommandBuffer(buffer), VK_SUCCESS);
  }
  VkCommandBuffer secondary = AllocateCommandBuffer(0, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.pInheritanceInfo = &inheritance;
  ASSERT_EQ(vkBeginCommandBuffer(secondary, &begin), VK_SUCCESS);
  EXPECT_EQ(vkEndCommandBuffer(secondary), VK_SUCCESS);
  vkFreeCommandBuffers(device_, pools_[0], 3, buffers);
  vkFreeCommandBuffers(device_, pools_[0], 1, &secondary);
}

TEST_F(CommandBufferTest, ResetPoolAndTrimKeepBuffersUsable) {
  HostBuffer* target = CreateHostBuffer(256);
  VkCommandBuffer commandBuffer = AllocateCommandBuffer();
  for (int round = 0; round < 3; ++round) {
    Begin(commandBuffer);
    // Enough commands to need several chunks of the stream.
    for (int i = 0; i < 2000; ++i) vkCmdFillBuffer(commandBuffer, target->buffer, 0, 256, static_cast<uint32_t>(i));
    ASSERT_EQ(vkEndCommandBuffer(commandBuffer), VK_SUCCESS);
    ASSERT_EQ(SubmitAndWait(queues_[0].queue, commandBuffer), VK_SUCCESS);
    // The last fill wins: commands ran in recording order.
    EXPECT_EQ(target->At<uint32_t>(0), 1999u);
    std::memset(target->mapped, 0, 256);
    ASSERT_EQ(vkResetCommandPool(device_, pools_[0],
                                 round == 1 ? VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT : 0),
              VK_SUCCESS);
    // vkTrimCommandPool is Vulkan 1.1 (VK_KHR_maintenance1): called when the device offers it.
    if (auto trim = reinterpret_cast<PFN_vkTrimCommandPool>(DeviceCommand("vkTrimCommandPool"))) trim(device_, pools_[0], 0);
  }
}

TEST_F(CommandBufferTest, ImplicitResetAtBeginReplacesTheStream) {
  HostBuffer* target = CreateHostBuffer(16);
  VkCommandBuffer commandBuffer = AllocateCommandBuffer();
  Begin(commandBuffer);
  vkCmdFillBuffer(commandBuffer, target->buffer, 0, 16, 0x11111111u);
  ASSERT_EQ(vkEndCommandBuffer(commandBuffer), VK_SUCCESS);
  // The pool has RESET_COMMAND_BUFFER_BIT: Begin on an executable buffer resets it.
  Begin(commandBuffer);
  vkCmdFillBuffer(commandBuffer, target->buffer, 4, 4, 0x22222222u);
  ASSERT_EQ(vkEndCommandBuffer(commandBuffer), VK_SUCCESS);
  ASSERT_EQ(SubmitAndWait(queues_[0].queue, commandBuffer), VK_SUCCESS);
  EXPECT_EQ(target->At<uint32_t>(0), 0u);
  EXPECT_EQ(target->At<uint32_t>(4), 0x22222222u);
  ASSERT_EQ(vkResetCommandBuffer(commandBuffer, 0), VK_SUCCESS);
}

TEST_F(CommandBufferTest, SecondaryCommandBuffersRunWhereTheyAreExecuted) {
  HostBuffer* target = CreateHostBuffer(16);
  VkCommandBuffer secondary = AllocateCommandBuffer(0, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
  begin.pInheritanceInfo = &inheritance;
  ASSERT_EQ(vkBeginCommandBuffer(secondary, &begin), VK_SUCCESS);
  vkCmdFillBuffer(secondary, target->buffer, 0, 8, 0xabababab);
  ASSERT_EQ(vkEndCommandBuffer(secondary), VK_SUCCESS);
  Run([&](VkCommandBuffer primary) {
    vkCmdFillBuffer(primary, target->buffer, 0, 16, 0x01010101);
    vkCmdExecuteCommands(primary, 1, &secondary);
    vkCmdFillBuffer(primary, target->buffer, 4, 4, 0x02020202);
  });
  EXPECT_EQ(target->At<uint32_t>(0), 0xababababu);
  EXPECT_EQ(target->At<uint32_t>(4), 0x02020202u);
  EXPECT_EQ(target->At<uint32_t>(8), 0x01010101u);
}

TEST_F(CommandBufferTest, OneTimeSubmitBufferCannotRunTwice) {
  HostBuffer* target = CreateHostBuffer(16);
  VkCommandBuffer commandBuffer = AllocateCommandBuffer();
  Begin(commandBuffer, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  vkCmdFillBuffer(commandBuffer, target->buffer, 0, 16, 7);
  ASSERT_EQ(vkEndCommandBuffer(commandBuffer), VK_SUCCESS);
  ASSERT_EQ(SubmitAndWait(queues_[0].queue, commandBuffer), VK_SUCCESS);
  // Invalid after it ran: the submit is refused rather than silently running it again.
  EXPECT_NE(SubmitAndWait(queues_[0].queue, commandBuffer), VK_SUCCESS);
  // A buffer still recording is refused too.
  VkCommandBuffer recording = AllocateCommandBuffer();
  Begin(recording);
  EXPECT_NE(SubmitAndWait(queues_[0].queue, recording), VK_SUCCESS);
  vkEndCommandBuffer(recording);
}

// Allocation callbacks that fail after a budget: recording errors stick and surface at vkEndCommandBuffer.
struct FailingAllocator {
  std::atomic<int> budget{1 << 30};
  static void* Allocate(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
    auto* self = static_cast<FailingAllocator*>(user);
    if (self->budget.fetch_sub(1) <= 0) return nullptr;
    size_t rounded = (size + alignment - 1) / alignment * alignment;
    return std::aligned_alloc(alignment, rounded);
  }
  static void* Reallocate(void*, void*, size_t, size_t, VkSystemAllocationScope) { return nullptr; }
  static void Free(void*, void* memory) { std::free(memory); }
  VkAllocationCallbacks callbacks() {
    return {this, &Allocate, &Reallocate, &Free, nullptr, nullptr};
  }
};

TEST_F(CommandBufferTest, OutOfHostMemoryWhileRecordingSurfacesAtEnd) {
  HostBuffer* target = CreateHostBuffer(16);
  FailingAllocator failing;
  VkAllocationCallbacks callbacks = failing.callbacks();
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateCommandPool(device_, &poolInfo, &callbacks, &pool), VK_SUCCESS);
  VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = pool;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
  ASSERT_EQ(vkAllocateCommandBuffers(device_, &info, &commandBuffer), VK_SUCCESS);
  Begin(commandBuffer);
  failing.budget = 0;  // the first chunk of the stream cannot be allocated
  vkCmdFillBuffer(commandBuffer, target->buffer, 0, 16, 1);
  vkCmdFillBuffer(commandBuffer, target->buffer, 0, 16, 2);
  EXPECT_EQ(vkEndCommandBuffer(commandBuffer), VK_ERROR_OUT_OF_HOST_MEMORY);
  failing.budget = 1 << 30;
  // After a reset the buffer records again.
  ASSERT_EQ(vkResetCommandBuffer(commandBuffer, 0), VK_SUCCESS);
  Begin(commandBuffer);
  vkCmdFillBuffer(commandBuffer, target->buffer, 0, 16, 3);
  EXPECT_EQ(vkEndCommandBuffer(commandBuffer), VK_SUCCESS);
  vkDestroyCommandPool(device_, pool, &callbacks);
}

TEST_F(CommandBufferTest, AllocationFailureOfCommandBuffersLeavesNulls) {
  FailingAllocator failing;
  VkAllocationCallbacks callbacks = failing.callbacks();
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateCommandPool(device_, &poolInfo, &callbacks, &pool), VK_SUCCESS);
  VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = pool;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 4;
  VkCommandBuffer buffers[4];
  std::memset(buffers, 0xff, sizeof(buffers));
  failing.budget = 2;  // the third command buffer fails
  EXPECT_EQ(vkAllocateCommandBuffers(device_, &info, buffers), VK_ERROR_OUT_OF_HOST_MEMORY);
  for (VkCommandBuffer buffer : buffers) EXPECT_EQ(buffer, VK_NULL_HANDLE);
  failing.budget = 1 << 30;
  vkDestroyCommandPool(device_, pool, &callbacks);
}

}  // namespace
}  // namespace crashtest::test
