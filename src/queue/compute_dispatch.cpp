#include "queue/compute_dispatch.h"

#include <algorithm>
#include <chrono>
#include <span>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "command/command_arena.h"
#include "common/log.h"
#include "descriptor/descriptor_set.h"
#include "descriptor/descriptor_set_layout.h"
#include "device/device.h"
#include "device/instance.h"
#include "device/physical_device.h"
#include "device/resources.h"
#include "execution/dispatch_context.h"
#include "execution/executable.h"
#include "execution/scheduler.h"
#include "fault/fault_engine.h"
#include "memory/device_memory.h"
#include "memory/memory_accounting.h"
#include "pipeline/pipeline.h"
#include "pipeline/spirv_tables.h"
#include "queue/device_execution.h"
#include "queue/queue.h"
#include "queue/sampling_bindings.h"
#include "queue/shader_fault_report.h"
#include "statistics/shader_statistics.h"

namespace crashtest {

namespace {

}  // namespace

ComputeDispatcher::ComputeDispatcher(Queue& queue)
    : queue_(queue), resources_(queue, VK_PIPELINE_BIND_POINT_COMPUTE, VK_SHADER_STAGE_COMPUTE_BIT) {}

void ComputeDispatcher::Reset() {
  pipeline_ = nullptr;
  resources_.Reset();
}

void ComputeDispatcher::BindPipeline(const record::BindPipeline& bind) {
  if (bind.bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) pipeline_ = FromHandle(bind.pipeline);
}

void ComputeDispatcher::BindDescriptorSets(const record::BindDescriptorSets& bind) {
  resources_.BindDescriptorSets(bind);
}

void ComputeDispatcher::PushConstants(const record::PushConstants& push) { resources_.PushConstants(push); }

bool ComputeDispatcher::Dispatch(const uint32_t base[3], const uint32_t groups[3], const std::string& where) {
  Device& device = queue_.device();
  if (pipeline_ == nullptr) {
    CT_ERROR("%s: no compute pipeline is bound (VUID-vkCmdDispatch-None-02700); the dispatch is skipped",
             where.c_str());
    return true;
  }
  const PipelineStage& stage = pipeline_->stages().front();
  if (stage.executable == nullptr) {
    // Once per pipeline: the interpreter does not run this shader yet.
    if (!warned_.insert(pipeline_).second) return true;
    CT_WARN("%s: the compute shader \"%s\" is not executed (the interpreter does not run %s yet); its dispatches "
            "are skipped", where.c_str(), stage.entryPoint.c_str(), stage.executableError.c_str());
    return true;
  }
  const execution::Executable& exe = *stage.executable;
  // "groupCountX must be less than or equal to VkPhysicalDeviceLimits::maxComputeWorkGroupCount[0]" (and Y, Z):
  // misuse a GPU would not survive either; the dispatch is skipped with the VUID rather than run for hours.
  const uint32_t* maxGroups = device.physicalDevice().description().properties.limits.maxComputeWorkGroupCount;
  for (int i = 0; i < 3; ++i)
    if (groups[i] > maxGroups[i]) {
      static const char* const kVuids[3] = {"VUID-vkCmdDispatch-groupCountX-00386",
                                            "VUID-vkCmdDispatch-groupCountY-00387",
                                            "VUID-vkCmdDispatch-groupCountZ-00388"};
      CT_ERROR("%s: %u workgroups in dimension %d exceed maxComputeWorkGroupCount[%d] = %u (%s); the dispatch is "
               "skipped",
               where.c_str(), groups[i], i, i, maxGroups[i], kVuids[i]);
      return true;
    }

  std::string unsupported;
  const BoundResources::FlattenResult flattened = resources_.Flatten(exe, where, &flat_, &unsupported);
  // A descriptor names a destroyed resource: the fault is raised, the dispatch does not run.
  if (flattened == BoundResources::FlattenResult::kUseAfterFree) [[unlikely]] return !queue_.execution().lost();
  if (flattened == BoundResources::FlattenResult::kUnsupported) {
    // Skipped rather than run with zeros in place of texels the engine cannot decode.
    if (warned_.insert(pipeline_).second)
      CT_WARN("%s: the compute shader \"%s\" is not executed (the interpreter does not read %s yet); its dispatches "
              "are skipped", where.c_str(), stage.entryPoint.c_str(), unsupported.c_str());
    return true;
  }

  DeviceAddressMap addresses(device);
  execution::DispatchContext context;
  context.exe = &exe;
  flat_.Apply(context);
  context.addresses = &addresses;
  context.outOfRange = resources_.OutOfRange();
  const ExecutionOptions& options = device.physicalDevice().instance().executionOptions();
  context.width = stage.subgroupSize;
  for (int i = 0; i < 3; ++i) context.base[i] = base[i], context.groups[i] = groups[i];
  context.instructionBudget = options.shaderInstructionBudget;
  if (options.shaderTimeoutMs != 0)
    context.deadlineNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now().time_since_epoch())
                             .count() +
                         static_cast<int64_t>(options.shaderTimeoutMs) * 1000000;

  DeviceExecution& execution = queue_.execution();
  const execution::DispatchOutcome outcome =
      execution::RunDispatch(context, execution.computePool(options.computeThreads), execution.lostFlag());
  if (outcome.fault.kind == execution::ShaderFaultKind::None) return true;
  char invocation[96];
  std::snprintf(invocation, sizeof invocation, "workgroup (%u,%u,%u), invocation %u", outcome.fault.workgroup[0],
                outcome.fault.workgroup[1], outcome.fault.workgroup[2], outcome.fault.localIndex);
  return RaiseShaderFault(queue_, *pipeline_, stage, outcome.fault, where, invocation);
}

}  // namespace crashtest
