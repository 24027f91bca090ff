#include "queue/shader_fault_report.h"

#include <cinttypes>
#include <cstdio>

#include "common/log.h"
#include "device/device.h"
#include "device/instance.h"
#include "device/physical_device.h"
#include "execution/executable.h"
#include "fault/fault_engine.h"
#include "memory/device_memory.h"
#include "memory/memory_accounting.h"
#include "pipeline/pipeline.h"
#include "pipeline/spirv_tables.h"
#include "queue/device_execution.h"
#include "queue/queue.h"
#include "statistics/shader_statistics.h"

namespace crashtest {

// Physical storage buffer addresses resolve to the device's live allocations.
bool DeviceAddressMap::Find(uint64_t address, execution::AddressRange* out, bool* freed) const {
  *freed = false;
  const DeviceMemory* memory = FindMemoryByAddress(device_, address);
  if (memory == nullptr) {
    // Not live, but inside an allocation freed (or a buffer destroyed) recently: a use after free.
    VkDeviceAddress base = 0;
    VkDeviceSize size = 0;
    if (memory_accounting::FindFreed(device_, address, &base, &size)) {
      *freed = true;
      *out = {nullptr, base, size};
    }
    return false;
  }
  if (memory->data() == nullptr) return false;
  *out = {memory->data(), memory->address(), memory->size()};
  return true;
}

bool RaiseShaderFault(Queue& queue, const Pipeline& pipeline, const PipelineStage& stage,
                      const execution::ShaderFault& fault, const std::string& where, const std::string& invocation) {
  Device& device = queue.device();
  const execution::Executable& exe = *stage.executable;
  const execution::Site site = fault.op < exe.ops.size() && exe.ops[fault.op].site < exe.sites.size()
                                   ? exe.sites[exe.ops[fault.op].site]
                                   : execution::Site{};
  const std::string name = queue.execution().names().Get(reinterpret_cast<uint64_t>(ToHandle(&pipeline)));
  const MachineModel& model = device.physicalDevice().description().machine;
  const uint64_t hash = statistics::ComputeStatistics(*stage.shader, model, stage.stage, stage.subgroupSize).hash;

  PlannedFault planned;
  planned.id = fault.kind == execution::ShaderFaultKind::Timeout ? "shader-timeout" : "shader-fault";
  const bool masked = fault.kind != execution::ShaderFaultKind::Timeout &&
                      device.physicalDevice().instance().executionOptions().shaderFaults == ShaderFaultMode::Masked;
  planned.effect = fault.kind == execution::ShaderFaultKind::Timeout ? FaultEffect::Hang
                   : masked                                          ? FaultEffect::Masked
                                                                     : FaultEffect::DeviceLost;
  const bool read = fault.kind == execution::ShaderFaultKind::ReadInvalid;
  const char* what = fault.kind == execution::ShaderFaultKind::Timeout ? "shader ran past its time budget"
                     : fault.null ? (read ? "null-pointer read" : "null-pointer write")
                                  : (read ? "out-of-bounds read" : "out-of-bounds write");
  char text[512];
  std::string pipelineName = name.empty() ? std::string() : "\"" + name + "\" ";
  if (fault.kind == execution::ShaderFaultKind::Timeout) {
    std::snprintf(text, sizeof text, "%s: pipeline %s(shader hash %016" PRIx64 "), entry point \"%s\"", what,
                  pipelineName.c_str(), hash, stage.entryPoint.c_str());
  } else {
    const std::string instruction = fault.op == execution::kFetchOperation ? std::string("vertex input fetch")
                                    : site.spirvId != 0 ? "SPIR-V %" + std::to_string(site.spirvId) + " (" +
                                                            spirv::OpcodeName(site.spirvOp) + ")"
                                                      : std::string("SPIR-V ") + spirv::OpcodeName(site.spirvOp);
    std::string source;
    if (site.line != 0) {
      const std::string& file = site.file < exe.sourceFiles.size() ? exe.sourceFiles[site.file] : std::string();
      const std::string base = file.substr(file.find_last_of('/') == std::string::npos ? 0 : file.find_last_of('/') + 1);
      source = " at " + (base.empty() ? std::string("line ") : base + ":") + std::to_string(site.line);
    }
    std::snprintf(text, sizeof text,
                  "%s at 0x%" PRIx64 "%s%s: pipeline %s(shader hash %016" PRIx64 "), entry point \"%s\", %s, "
                  "%s",
                  what, fault.address, fault.freed ? " (freed memory)" : "", source.c_str(), pipelineName.c_str(), hash,
                  stage.entryPoint.c_str(), instruction.c_str(), invocation.c_str());
    planned.report.address = FaultAddress{fault.kind == execution::ShaderFaultKind::ReadInvalid
                                              ? VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR
                                              : VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_KHR,
                                          fault.address, 1};
  }
  planned.report.description = text;
  CT_WARN("%s: %s", where.c_str(), text);
  // The instruction pointer is the operation's index in the executable form (docs/execution.md); a vertex or
  // index fetch has none.
  if (fault.op != execution::kFetchOperation)
    planned.report.instruction = FaultAddress{VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_KHR, fault.op, 1};
  const VkResult result = device.faults().Inject(planned, ("at " + where).c_str());
  return result == VK_SUCCESS;
}

}  // namespace crashtest
