// Function/Private variables the IR keeps in memory because they are indexed dynamically (constant-indexed ones
// were already promoted to SSA values by the IR's memory-to-registers pass). Real back ends keep a small one in
// vector registers and index it with indexed register moves (ACO's v_movrel, NVIDIA's indexed register access);
// a larger one goes to scratch memory. The limit is the machine model's privateArrayRegisterLimit.
#pragma once

#include <cstdint>
#include <vector>

#include "device/device_description.h"
#include "pipeline/analysis/loops.h"
#include "pipeline/ir/module.h"

namespace crashtest::statistics {

struct PrivateArray {
  ir::ValueId variable = ir::kNone;
  uint64_t bytes = 0;
  uint32_t components = 0;   // 32-bit components
  bool inRegisters = false;  // components <= privateArrayRegisterLimit
  // Program positions (instructions numbered block by block) where it occupies registers: from its first to its
  // last access, widened to whole loops around an access (the array must survive every iteration).
  uint32_t firstPosition = 0, lastPosition = 0;
};

struct PrivateArrays {
  std::vector<PrivateArray> arrays;
  uint64_t scratchBytes = 0;           // arrays that live in scratch memory
  uint32_t maxRegisterComponents = 0;  // the most array components in registers at one position
  // Per program position: array components held in registers there (empty when none is in registers).
  std::vector<uint32_t> registerComponentsAt;
};

PrivateArrays FindPrivateArrays(const ir::Module& module, const analysis::LoopInfo& loops,
                                const MachineModel& model);

}  // namespace crashtest::statistics
