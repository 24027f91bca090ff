// The descriptor sets (with their dynamic offsets) and push constants a command stream binds at one bind point,
// flattened into what a shader stage's executable reads when a dispatch or draw starts: one host range per buffer
// descriptor slot (slot 0 the push constants), the image table, and the patched pointers of runtime-sized arrays.
// Shared by compute dispatches (queue/compute_dispatch) and draws (queue/graphics_draw).
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "command/command_records.h"
#include "descriptor/descriptor_set.h"
#include "descriptor/push_descriptors.h"
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
  // vkCmdPushDescriptorSet(WithTemplate)KHR: the set becomes the pushed one. A push with the layout of the previous
  // push to that set updates it incrementally; any other starts from an empty set ("When the set is disturbed or
  // push descriptors with a different descriptor set layout are pushed, all push descriptors are undefined").
  void PushDescriptorSet(const record::PushDescriptorSet& push);
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
  // A bound descriptor set, or the pushed descriptors of that set number (set == nullptr, pushed).
  struct BoundSet {
    const DescriptorSet* set = nullptr;
    record::DescriptorSetRef ref{};  // what the bind recorded: checked before each read of the set
    std::vector<uint32_t> dynamicOffsets;
    bool pushed = false;
    uint64_t pushLayoutId = 0;
    std::span<const PushedBinding> pushBindings;  // the layout's shape, in the latest push record's payload
    std::vector<DescriptorRecord> pushRecords;    // every push so far since the set was last started afresh
    bool Bound() const { return set != nullptr || pushed; }
    // Descriptors (bytes for inline uniform blocks) of `binding`; 0 when the set has no such binding.
    uint32_t Count(uint32_t binding) const;
    // nullptr when out of range.
    const DescriptorRecord* Find(uint32_t binding, uint32_t element) const;
    // The binding's samplers are the layout's immutable ones (copies owned by the set or the push record).
    bool ImmutableSamplers(uint32_t binding) const;
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
