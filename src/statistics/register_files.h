// Which register file each SSA value lives in, from the uniformity analysis: on a machine with a scalar unit
// (machine model scalarRegisterBudget > 0) a value the whole subgroup shares is held once per subgroup in scalar
// registers (AMD's SGPRs, NVIDIA's uniform registers) and only divergent values take vector registers; a
// divergent boolean is a lane mask, one bit per invocation, in scalar registers (as ACO keeps it). Without a
// scalar unit every value takes vector registers. The scalar units modelled (RDNA2's SALU, NVIDIA's uniform
// datapath) have no floating-point arithmetic: a uniform floating-point result of arithmetic is computed by the
// vector ALU into vector registers (ACO does so before GFX11.5); uniform loads and subgroup results of any type
// stay scalar.
#pragma once

#include <cstdint>
#include <vector>

#include "device/device_description.h"
#include "pipeline/analysis/liveness.h"
#include "pipeline/analysis/offset_registers.h"
#include "pipeline/analysis/uniformity.h"
#include "pipeline/ir/module.h"

namespace crashtest::statistics {

struct RegisterFiles {
  bool split = false;                     // the model has a scalar register file
  std::vector<uint32_t> vectorComponents;  // per value: 32-bit components in vector registers (split only)
  std::vector<uint32_t> scalarComponents;  // per value: scalar registers (split only)
  uint32_t scalarDemand = 0;              // peak live scalar registers (0 without a scalar file)
  uint32_t vectorDemand = 0;              // peak live vector components (split only; the same walk as scalarDemand)
  uint32_t temporaries = 0;               // most vector temporaries of an expanded instruction (in vectorDemand)
};

// Whether the instruction's result lives in scalar registers (and the instruction runs on the scalar unit).
bool HeldInScalarRegisters(const ir::Module& module, const analysis::Uniformity& uniformity,
                           const ir::Instruction& inst);

// `liveness` is the shader's (every value weighted by RegisterComponents).
RegisterFiles AssignRegisterFiles(const ir::Module& module, const analysis::Liveness& liveness,
                                  const analysis::Uniformity& uniformity, const MachineModel& model,
                                  const analysis::OffsetRegisters& offsets, uint32_t subgroupSize);

}  // namespace crashtest::statistics
