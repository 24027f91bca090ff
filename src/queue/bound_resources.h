// The descriptor sets (with their dynamic offsets) and push constants a command stream binds at one bind point,
// flattened into what a shader stage's executable reads when a dispatch or draw starts: one host range per buffer
// descriptor slot (slot 0 the push constants), the image table, and the patched pointers of runtime-sized arrays.
// Shared by compute dispatches (queue/compute_dispatch) and draws (queue/graphics_draw).
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "command/command_records.h"
#include "execution/bindings.h"
#include "execution/dispatch_context.h"
#include "sampling/image_descriptor.h"

namespace crashtest {

class DescriptorSet;
class Queue;
namespace execution {
struct Executable;
}

// What one stage sees; the pointers in `context` point into these vectors (keep the object alive and unmoved).
struct FlatBindings {
  std::vector<execution::BufferRange> buffers;
  std::vector<sampling::ImageTableEntry> images;
  std::vector<execution::SlotPatch> patches;
  // Copies of the inline uniform blocks the buffers point at: the shader runs after the sets' locks are released
  // (queue/descriptor_set_liveness.h), so it never reads a set's memory.
  std::vector<std::vector<std::byte>> inlineBlocks;
  // Points `context` at the bindings (buffers, images, patches and their counts).
  void Apply(execution::DispatchContext& context) const;
};

class BoundResources {
 public:
  BoundResources(Queue& queue, VkPipelineBindPoint bindPoint, VkShaderStageFlags stages);

  // A primary command buffer starts with nothing bound (Vulkan 1.3, 6.1).
  void Reset();
  // The sets must have been found live, their pools locked (DescriptorSetLocks): the set layouts are read here.
  void BindDescriptorSets(const record::BindDescriptorSets& bind);
  void PushConstants(const record::PushConstants& push);
  enum class FlattenResult {
    kReady,
    kUnsupported,  // an image descriptor has a format or shape the engine cannot read yet (*unsupported names it)
    kUseAfterFree,  // a set, or a resource a descriptor names, was freed or destroyed: the fault was raised
  };
  // Flattens the bound resources for `exe`: only the sets and descriptors its shader declares are read, the sets
  // under their pools' locks once found live (queue/descriptor_set_liveness.h), each resource checked alive first
  // (queue/resource_liveness.h: the engine reads them here, before the shader runs, so this is where a destroyed
  // one faults). `where` names the command.
  FlattenResult Flatten(const execution::Executable& exe, const std::string& where, FlatBindings* out,
                        std::string* unsupported) const;
  // What an access outside its range does, from the device's robustness features and the configuration.
  execution::OutOfRangeMode OutOfRange() const;

 private:
  struct BoundSet {
    const DescriptorSet* set = nullptr;
    record::DescriptorSetRef ref{};  // what the bind recorded: checked before each read of the set
    std::vector<uint32_t> dynamicOffsets;
  };

  Queue& queue_;
  VkPipelineBindPoint bindPoint_;
  VkShaderStageFlags stages_;
  std::array<BoundSet, 32> sets_{};
  std::vector<std::byte> pushConstants_;
  // VK_EXT_robustness2 as enabled at device creation.
  bool robustBufferAccess2_ = false;
  bool nullDescriptor_ = false;
};

}  // namespace crashtest
