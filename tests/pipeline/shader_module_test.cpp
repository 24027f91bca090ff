// vkCreateShaderModule / vkDestroyShaderModule through the real loader: valid modules are kept, every kind of
// invalid SPIR-V fails with VK_ERROR_UNKNOWN and a log line naming the module and the problem, allocation
// callbacks are honoured.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>

#include "test_shaders.h"
#include "vk_test_env.h"

namespace crashtest::test {
namespace {

class ShaderModuleTest : public LoaderTest {
 protected:
  void SetUp() override {
    LoaderTest::SetUp();
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = 0;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    ASSERT_EQ(vkCreateDevice(physical_, &info, nullptr, &device_), VK_SUCCESS);
  }
  void TearDown() override {
    if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
    LoaderTest::TearDown();
  }
  VkResult Create(const void* code, size_t bytes, VkShaderModule* module,
                  const VkAllocationCallbacks* allocator = nullptr) {
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = bytes;
    info.pCode = static_cast<const uint32_t*>(code);
    return vkCreateShaderModule(device_, &info, allocator, module);
  }
  VkDevice device_ = VK_NULL_HANDLE;
};

TEST_F(ShaderModuleTest, ValidModuleIsCreatedAndDestroyed) {
  std::vector<uint32_t> words = CompilerTestWords("diamond.comp.spv");
  VkShaderModule module = VK_NULL_HANDLE;
  ASSERT_EQ(Create(words.data(), words.size() * 4, &module), VK_SUCCESS);
  EXPECT_NE(module, VK_NULL_HANDLE);
  vkDestroyShaderModule(device_, module, nullptr);
  vkDestroyShaderModule(device_, VK_NULL_HANDLE, nullptr);  // "If shaderModule is VK_NULL_HANDLE ... no action"
}

TEST_F(ShaderModuleTest, InvalidSpirvFailsWithUnknownAndLogsWhy) {
  std::vector<uint32_t> valid = CompilerTestWords("diamond.comp.spv");
  std::vector<InvalidSpirvCase> cases = InvalidSpirvCases(valid);
  std::vector<uint32_t> unaligned = valid;
  cases.push_back({"size not a multiple of 4", unaligned, "is not a positive multiple of 4"});
  for (size_t i = 0; i < cases.size(); ++i) {
    const InvalidSpirvCase& c = cases[i];
    SCOPED_TRACE(c.name);
    size_t bytes = c.words.size() * 4 - (i + 1 == cases.size() ? 2 : 0);
    VkShaderModule module = VK_NULL_HANDLE;
    ::testing::internal::CaptureStderr();
    VkResult result = Create(c.words.data(), bytes, &module);
    std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(result, VK_ERROR_UNKNOWN);
    EXPECT_NE(log.find("crashtest:"), std::string::npos) << log;
    EXPECT_NE(log.find("vkCreateShaderModule: shader module "), std::string::npos) << log;
    EXPECT_NE(log.find(c.expectedMessage), std::string::npos) << log;
    EXPECT_NE(log.find("VK_ERROR_UNKNOWN"), std::string::npos) << log;
  }
}

TEST_F(ShaderModuleTest, SpirvVersionFollowsTheDeviceApiVersion) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physical_, &properties);
  std::vector<uint32_t> spirv16 = CorpusWords("saxpy.comp.spv");
  VkShaderModule module = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  VkResult result = Create(spirv16.data(), spirv16.size() * 4, &module);
  std::string log = ::testing::internal::GetCapturedStderr();
  // SPIR-V 1.6 needs Vulkan 1.3 (appendix "Vulkan Environment for SPIR-V"); the device's effective version is
  // min(instance 1.3, device).
  if (VK_API_VERSION_MINOR(properties.apiVersion) >= 3) {
    EXPECT_EQ(result, VK_SUCCESS) << log;
    vkDestroyShaderModule(device_, module, nullptr);
  } else {
    EXPECT_EQ(result, VK_ERROR_UNKNOWN);
    EXPECT_NE(log.find("invalid SPIR-V for Vulkan 1."), std::string::npos) << log;
  }
}

struct CountingAllocator {
  std::atomic<int> live{0};
  std::atomic<int> total{0};
  bool fail = false;
  VkAllocationCallbacks callbacks() {
    VkAllocationCallbacks c{};
    c.pUserData = this;
    c.pfnAllocation = [](void* user, size_t size, size_t alignment, VkSystemAllocationScope) -> void* {
      auto* self = static_cast<CountingAllocator*>(user);
      if (self->fail) return nullptr;
      ++self->live;
      ++self->total;
      return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    };
    c.pfnReallocation = [](void*, void*, size_t, size_t, VkSystemAllocationScope) -> void* { return nullptr; };
    c.pfnFree = [](void* user, void* memory) {
      if (memory == nullptr) return;
      --static_cast<CountingAllocator*>(user)->live;
      std::free(memory);
    };
    return c;
  }
};

TEST_F(ShaderModuleTest, AllocationCallbacksAreHonoured) {
  std::vector<uint32_t> words = CompilerTestWords("diamond.comp.spv");
  CountingAllocator counter;
  VkAllocationCallbacks callbacks = counter.callbacks();
  VkShaderModule module = VK_NULL_HANDLE;
  ASSERT_EQ(Create(words.data(), words.size() * 4, &module, &callbacks), VK_SUCCESS);
  EXPECT_EQ(counter.live.load(), 1);
  vkDestroyShaderModule(device_, module, &callbacks);
  EXPECT_EQ(counter.live.load(), 0);

  // An invalid module frees what it allocated.
  std::vector<uint32_t> bad = words;
  bad[0] = 0;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Create(bad.data(), bad.size() * 4, &module, &callbacks), VK_ERROR_UNKNOWN);
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(counter.live.load(), 0);
  EXPECT_EQ(counter.total.load(), 2);

  counter.fail = true;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Create(words.data(), words.size() * 4, &module, &callbacks), VK_ERROR_OUT_OF_HOST_MEMORY);
  ::testing::internal::GetCapturedStderr();
}

}  // namespace
}  // namespace crashtest::test
