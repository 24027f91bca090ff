// What every subgroup of one dispatch shares: the executable, the flattened bindings, what an out-of-range access
// does, and the budget that turns an endless shader into a hang.
#pragma once

#include <atomic>
#include <cstdint>

#include "execution/bindings.h"
#include "execution/executable.h"
#include "sampling/image_descriptor.h"

namespace crashtest::execution {

// What an access outside the bound range does.
enum class OutOfRangeMode : uint8_t {
  Fault,   // stop the dispatch with a ShaderFault (robustness off, faults "lose": a GPU page fault)
  Masked,  // record a ShaderFault, then continue as Robust (the "masked" configuration)
  Robust,  // robustBufferAccess: reads give zero, writes are dropped, no fault ("off", or robustness enabled)
};

struct DispatchContext {
  const Executable* exe = nullptr;
  const BufferRange* buffers = nullptr;  // bufferCount entries; [0] is the push-constant block
  uint32_t bufferCount = 0;              // 0: exe->bufferSlots (no runtime-sized arrays)
  const AddressMap* addresses = nullptr;
  const sampling::ImageTableEntry* images = nullptr;  // imageCount entries
  uint32_t imageCount = 0;                            // 0: exe->imageSlots
  // Global pointers of runtime-sized descriptor arrays: their first table entry in this dispatch.
  const SlotPatch* patches = nullptr;
  uint32_t patchCount = 0;
  OutOfRangeMode outOfRange = OutOfRangeMode::Fault;
  uint32_t width = 32;                   // the subgroup size
  uint32_t base[3] = {0, 0, 0};          // vkCmdDispatchBase's base workgroup
  uint32_t groups[3] = {1, 1, 1};        // workgroup counts
  // Operations one subgroup may execute in one workgroup before the dispatch counts as hung (0: no limit).
  uint64_t instructionBudget = 0;
  // The wall-clock deadline of the dispatch (steady clock, nanoseconds since its epoch; 0: none).
  int64_t deadlineNs = 0;
  // Set when the dispatch must end early (a fault in a workgroup that stops it, the device lost or destroyed):
  // subgroups look at it at loop back edges, workers between workgroups.
  const std::atomic<bool>* cancel = nullptr;
  // Set when the device is lost meanwhile (RunDispatch's `external`): looked at in the same places.
  const std::atomic<bool>* external = nullptr;
};

}  // namespace crashtest::execution
