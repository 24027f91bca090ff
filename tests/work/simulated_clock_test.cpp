// The profile's crashtest.timestamps.clock = "simulated": timestamps advance by a fixed cost per executed command,
// scaled by timestampPeriod, so a test can assert on GPU time (tests/icd/data/profiles/simulated-clock.json:
// 100 ns per command, 5000 per draw, timestampPeriod 2 ns per tick).
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include "../icd/vk_test_env.h"

namespace crashtest::test {
namespace {

// Runs: timestamp, three barriers, timestamp; returns both values.
std::pair<uint64_t, uint64_t> TimestampsAroundThreeBarriers() {
  VkInstance instance = CreateInstance(VK_API_VERSION_1_1);
  EXPECT_NE(instance, VK_NULL_HANDLE);
  if (instance == VK_NULL_HANDLE) return {};
  VkPhysicalDevice physical = PhysicalDevices(instance).at(0);
  VkDevice device = VK_NULL_HANDLE;
  EXPECT_EQ(CreateDeviceWithOneQueue(physical, &device), VK_SUCCESS);
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device, 0, 0, &queue);

  VkQueryPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  poolInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
  poolInfo.queryCount = 2;
  VkQueryPool pool = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateQueryPool(device, &poolInfo, nullptr, &pool), VK_SUCCESS);
  VkCommandPoolCreateInfo commandPoolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool commandPool = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateCommandPool(device, &commandPoolInfo, nullptr, &commandPool), VK_SUCCESS);
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = commandPool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  EXPECT_EQ(vkAllocateCommandBuffers(device, &allocate, &cb), VK_SUCCESS);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cb, &begin);
  vkCmdResetQueryPool(cb, pool, 0, 2);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
  for (int i = 0; i < 3; ++i)
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr,
                         0, nullptr, 0, nullptr);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
  EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  EXPECT_EQ(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
  EXPECT_EQ(vkQueueWaitIdle(queue), VK_SUCCESS);
  uint64_t values[2] = {};
  EXPECT_EQ(vkGetQueryPoolResults(device, pool, 0, 2, sizeof(values), values, sizeof(uint64_t),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);
  vkDestroyCommandPool(device, commandPool, nullptr);
  vkDestroyQueryPool(device, pool, nullptr);
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
  return {values[0], values[1]};
}

TEST(SimulatedClockTest, TimestampsAdvanceByTheProfilesCostPerCommand) {
  ScopedConfig config("simulated_clock.json");
  auto [first, second] = TimestampsAroundThreeBarriers();
  // Three barriers and the second timestamp command at 100 ns each, 2 ns per tick.
  EXPECT_EQ(second - first, 4u * 100u / 2u);
  // The reset and the first timestamp command ran since the device was created.
  EXPECT_EQ(first, 2u * 100u / 2u);
  // And every run gives the same values.
  auto again = TimestampsAroundThreeBarriers();
  EXPECT_EQ(again.first, first);
  EXPECT_EQ(again.second, second);
}

TEST(SimulatedClockTest, TheDefaultClockIsTheHostsMonotonicClock) {
  ScopedConfig config("");
  auto [first, second] = TimestampsAroundThreeBarriers();
  EXPECT_GE(second, first);
  EXPECT_GT(first, 1000000u);  // nanoseconds since boot, not a counter from zero
}

}  // namespace
}  // namespace crashtest::test
