#include "fault/fault_plan.h"

namespace crashtest {

std::vector<PlannedFault> FaultPlan::ForDevice(uint32_t deviceIndex) const {
  std::vector<PlannedFault> out;
  for (const PlannedFault& fault : faults)
    if (!fault.device || *fault.device == deviceIndex) out.push_back(fault);
  return out;
}

const char* FaultEffectName(FaultEffect effect) {
  switch (effect) {
    case FaultEffect::DeviceLost: return "device-lost";
    case FaultEffect::Masked: return "masked";
    case FaultEffect::OutOfDeviceMemory: return "out-of-device-memory";
    case FaultEffect::OutOfHostMemory: return "out-of-host-memory";
    case FaultEffect::Hang: return "hang";
    case FaultEffect::SurfaceLost: return "surface-lost";
    case FaultEffect::OutOfDate: return "out-of-date";
  }
  return "?";
}

const char* FaultTriggerName(FaultTriggerKind kind) {
  switch (kind) {
    case FaultTriggerKind::Submit: return "submit";
    case FaultTriggerKind::Label: return "label";
    case FaultTriggerKind::Allocation: return "allocation";
    case FaultTriggerKind::AllocationSize: return "allocationAbove";
    case FaultTriggerKind::Time: return "afterMs";
    case FaultTriggerKind::Random: return "random";
    case FaultTriggerKind::Dispatch: return "dispatch";
    case FaultTriggerKind::Draw: return "draw";
    case FaultTriggerKind::Present: return "present";
    case FaultTriggerKind::Acquire: return "acquire";
  }
  return "?";
}

const char* FaultAddressTypeName(VkDeviceFaultAddressTypeKHR type) {
  switch (type) {
    case VK_DEVICE_FAULT_ADDRESS_TYPE_NONE_KHR: return "none";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR: return "read-invalid";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_KHR: return "write-invalid";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_EXECUTE_INVALID_KHR: return "execute-invalid";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_UNKNOWN_KHR: return "instruction-pointer-unknown";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_INVALID_KHR: return "instruction-pointer-invalid";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_KHR: return "instruction-pointer-fault";
    default: return "?";
  }
}

}  // namespace crashtest
