// A fault raised by a shader (or by a draw's vertex or index fetch) handed to the fault engine: a report naming
// the address, the pipeline (its debug name and shader hash), the entry point, the instruction and source line,
// and the invocation; then the loss, unless the configuration masks shader faults. Shared by dispatches and draws.
#pragma once

#include <cstdint>
#include <string>

#include "execution/bindings.h"
#include "execution/shader_fault.h"

namespace crashtest {

class Device;
class Pipeline;
class Queue;
struct PipelineStage;

// `invocation` names the faulting invocation ("workgroup (1,0,0), invocation 5", "vertex 12 of instance 0").
// False when the device is lost.
bool RaiseShaderFault(Queue& queue, const Pipeline& pipeline, const PipelineStage& stage,
                      const execution::ShaderFault& fault, const std::string& where, const std::string& invocation);

// Physical storage buffer addresses resolve to the device's live allocations (and recently freed ones, reported as
// a use after free).
class DeviceAddressMap final : public execution::AddressMap {
 public:
  explicit DeviceAddressMap(const Device& device) : device_(device) {}
  bool Find(uint64_t address, execution::AddressRange* out, bool* freed) const override;

 private:
  const Device& device_;
};

}  // namespace crashtest
