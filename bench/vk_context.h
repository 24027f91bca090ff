// Instance / device / queue / memory setup shared by the benchmark suites.
//
// Everything goes through the Vulkan loader (libvulkan), never through crashtest's own code, so the same binary
// measures whichever ICD VK_ICD_FILENAMES names. Device-level commands are fetched with vkGetDeviceProcAddr and
// checked: a driver under construction may return NULL for commands it does not implement yet, and calling the
// loader's exported trampolines for those would jump through a NULL dispatch slot.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace crashtest::bench {

// Every core 1.0 device command a suite uses. Kept to 1.0 so a driver reporting apiVersion 1.0 works.
#define CRASHTEST_BENCH_DEVICE_COMMANDS(X) \
  X(vkGetDeviceQueue)                      \
  X(vkQueueSubmit)                         \
  X(vkQueueWaitIdle)                       \
  X(vkDeviceWaitIdle)                      \
  X(vkAllocateMemory)                      \
  X(vkFreeMemory)                          \
  X(vkMapMemory)                           \
  X(vkUnmapMemory)                         \
  X(vkCreateBuffer)                        \
  X(vkDestroyBuffer)                       \
  X(vkGetBufferMemoryRequirements)         \
  X(vkBindBufferMemory)                    \
  X(vkCreateFence)                         \
  X(vkDestroyFence)                        \
  X(vkResetFences)                         \
  X(vkWaitForFences)                       \
  X(vkCreateCommandPool)                   \
  X(vkDestroyCommandPool)                  \
  X(vkResetCommandPool)                    \
  X(vkAllocateCommandBuffers)              \
  X(vkFreeCommandBuffers)                  \
  X(vkBeginCommandBuffer)                  \
  X(vkEndCommandBuffer)                    \
  X(vkCmdFillBuffer)                       \
  X(vkCmdUpdateBuffer)                     \
  X(vkCmdCopyBuffer)                       \
  X(vkCmdPipelineBarrier)                  \
  X(vkCmdPushConstants)                    \
  X(vkCmdBindPipeline)                     \
  X(vkCmdBindDescriptorSets)               \
  X(vkCmdDispatch)                         \
  X(vkCreateShaderModule)                  \
  X(vkDestroyShaderModule)                 \
  X(vkCreateComputePipelines)              \
  X(vkCreateGraphicsPipelines)             \
  X(vkDestroyPipeline)                     \
  X(vkCreatePipelineLayout)                \
  X(vkDestroyPipelineLayout)               \
  X(vkCreateDescriptorSetLayout)           \
  X(vkDestroyDescriptorSetLayout)          \
  X(vkCreateDescriptorPool)                \
  X(vkDestroyDescriptorPool)               \
  X(vkAllocateDescriptorSets)              \
  X(vkFreeDescriptorSets)                  \
  X(vkResetDescriptorPool)                 \
  X(vkUpdateDescriptorSets)                \
  X(vkCreateRenderPass)                    \
  X(vkDestroyRenderPass)                   \
  X(vkCreateImage)                         \
  X(vkDestroyImage)                        \
  X(vkGetImageMemoryRequirements)          \
  X(vkBindImageMemory)                     \
  X(vkCreateImageView)                     \
  X(vkDestroyImageView)                    \
  X(vkCreateFramebuffer)                   \
  X(vkDestroyFramebuffer)                  \
  X(vkCreateSampler)                       \
  X(vkDestroySampler)                      \
  X(vkCmdCopyBufferToImage)                \
  X(vkCmdBeginRenderPass)                  \
  X(vkCmdEndRenderPass)                    \
  X(vkCmdBindVertexBuffers)                \
  X(vkCmdBindIndexBuffer)                  \
  X(vkCmdDraw)                             \
  X(vkCmdDrawIndexed)

struct DeviceCommands {
#define CRASHTEST_BENCH_DECLARE(name) PFN_##name name = nullptr;
  CRASHTEST_BENCH_DEVICE_COMMANDS(CRASHTEST_BENCH_DECLARE)
#undef CRASHTEST_BENCH_DECLARE
};

// Device extensions a suite may ask for; each is enabled only when the physical device advertises it.
enum class DeviceFlavor {
  kPlain,                // no extensions
  kPipelineStatistics,   // + VK_KHR_pipeline_executable_properties with pipelineExecutableInfo
  kDeviceFault,          // + VK_KHR_device_fault with deviceFault (and deviceFaultReportMasked if offered)
};

// A device, its first queue that supports compute (or graphics) and the function pointers the driver returned.
class VkContext {
 public:
  // Creates instance and device. On failure returns nullptr and fills *error with a message that names the call.
  static std::unique_ptr<VkContext> Create(DeviceFlavor flavor, std::string* error);
  ~VkContext();
  VkContext(const VkContext&) = delete;
  VkContext& operator=(const VkContext&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceFeatures& features() const { return features_; }
  const DeviceCommands& vk() const { return commands_; }

  bool extension_enabled(std::string_view name) const;
  // VK_KHR_device_fault: whether deviceFaultReportMasked was enabled.
  bool masked_fault_reports() const { return masked_fault_reports_; }

  // Looks up any device command (extension commands included); NULL when the driver does not provide it.
  PFN_vkVoidFunction proc(const char* name) const;

  // Returns "" when every named command is non-NULL, else "unsupported: <first missing> is not provided".
  std::string missing(std::initializer_list<const char*> names) const;

  std::optional<uint32_t> find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const;

 private:
  VkContext() = default;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceFeatures features_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  DeviceCommands commands_{};
  std::unordered_map<std::string, PFN_vkVoidFunction> loaded_;
  std::vector<std::string> enabled_extensions_;
  bool masked_fault_reports_ = false;
  PFN_vkDestroyDevice destroy_device_ = nullptr;
};

// One context per flavor for the whole process: creating a device per benchmark run would add milliseconds of
// noise and make suites slow on slow drivers. A failed creation is remembered with its message.
class ContextCache {
 public:
  struct Entry {
    std::unique_ptr<VkContext> context;
    std::string error;
  };
  static const Entry& get(DeviceFlavor flavor);
  // Destroys every device and instance; called by main before the loader is unloaded.
  static void release_all();
};

// A host-visible buffer with its own memory, destroyed with the owner.
class HostBuffer {
 public:
  // Returns an "unsupported: …" or "error: …" message in *error on failure.
  static std::unique_ptr<HostBuffer> Create(const VkContext& ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                                            std::string* error);
  ~HostBuffer();
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  VkBuffer buffer() const { return buffer_; }
  void* mapped() const { return mapped_; }
  VkDeviceSize size() const { return size_; }

 private:
  explicit HostBuffer(const VkContext& ctx) : ctx_(ctx) {}
  const VkContext& ctx_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  void* mapped_ = nullptr;
  VkDeviceSize size_ = 0;
};

// A command pool with one primary command buffer and a fence, for record-submit-wait loops.
class CommandRig {
 public:
  static std::unique_ptr<CommandRig> Create(const VkContext& ctx, std::string* error);
  ~CommandRig();
  CommandRig(const CommandRig&) = delete;
  CommandRig& operator=(const CommandRig&) = delete;
  VkCommandBuffer command_buffer() const { return command_buffer_; }
  VkCommandPool pool() const { return pool_; }
  // Submits the command buffer and waits for the fence; returns the first failing VkResult or VK_SUCCESS.
  VkResult submit_and_wait() const;

 private:
  explicit CommandRig(const VkContext& ctx) : ctx_(ctx) {}
  const VkContext& ctx_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

// "VK_ERROR_DEVICE_LOST" etc.; the number for values this header does not name.
std::string result_name(VkResult result);
// "error: <call> returned <result>".
std::string call_failed(const char* call, VkResult result);

}  // namespace crashtest::bench
