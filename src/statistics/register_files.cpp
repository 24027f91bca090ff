#include "statistics/register_files.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>

namespace crashtest::statistics {
namespace {

bool IsFloatTyped(const ir::Module& module, ir::TypeId type) {
  while (type != ir::kNone) {
    const ir::Type& t = module.types[type];
    if (t.kind == ir::TypeKind::Float) return true;
    if (t.kind != ir::TypeKind::Vector && t.kind != ir::TypeKind::Matrix && t.kind != ir::TypeKind::Array)
      return false;
    type = t.element;
  }
  return false;
}

bool IsSubgroupOperation(uint16_t op) {
  return (op >= spv::OpGroupNonUniformElect && op <= spv::OpGroupNonUniformQuadSwap) ||
         (op >= spv::OpSubgroupBallotKHR && op <= spv::OpSubgroupReadInvocationKHR);
}

}  // namespace

bool HeldInScalarRegisters(const ir::Module& module, const analysis::Uniformity& uniformity,
                           const ir::Instruction& inst) {
  if (inst.result == ir::kNone || !uniformity.IsUniform(inst.result)) return false;
  if (inst.op == spv::OpLoad || IsSubgroupOperation(inst.op)) return true;
  return !IsFloatTyped(module, inst.type);
}

RegisterFiles AssignRegisterFiles(const ir::Module& module, const analysis::Liveness& liveness,
                                  const analysis::Uniformity& uniformity, const MachineModel& model,
                                  uint32_t subgroupSize) {
  RegisterFiles files;
  if (model.scalarRegisterBudget == 0) return files;
  files.split = true;
  const size_t count = module.values.size();
  files.vectorComponents.assign(count, 0);
  files.scalarComponents.assign(count, 0);
  // A lane mask takes one 32-bit scalar register per 32 invocations (two for wave64).
  const uint32_t laneMask = std::max<uint32_t>(1, (subgroupSize + 31) / 32);
  // RegisterComponents walks the type recursively; a shader has far fewer types than values.
  constexpr uint32_t kUnknown = ~0u;
  std::vector<uint32_t> typeComponents(module.types.size(), kUnknown);
  for (ir::ValueId v = 0; v < count; ++v) {
    if (module.values[v].kind != ir::ValueKind::Instruction || module.values[v].owner == ir::kNone) continue;
    const ir::TypeId type = module.values[v].type;
    if (type == ir::kNone) continue;  // RegisterComponents gives 0: nothing to hold
    if (typeComponents[type] == kUnknown) typeComponents[type] = analysis::RegisterComponents(module, type);
    const uint32_t components = typeComponents[type];
    if (components == 0) continue;
    // A pointer into a descriptor's memory is not kept: the back end addresses the buffer from its descriptor
    // (in scalar registers) plus an offset it recomputes or folds into the instruction's immediate at each use.
    // Buffer-device-address pointers are real 64-bit values and stay.
    const ir::Type& t = module.types[type];
    if (t.kind == ir::TypeKind::Pointer && t.storageClass != spv::StorageClassPhysicalStorageBuffer) continue;
    const ir::Instruction& def = module.function.blocks[module.values[v].owner].instructions[module.values[v].index];
    if (HeldInScalarRegisters(module, uniformity, def)) files.scalarComponents[v] = components;
    else if (module.types[type].kind == ir::TypeKind::Bool) files.scalarComponents[v] = laneMask;
    else files.vectorComponents[v] = components;
  }
  const analysis::Liveness::TwoPeaks peaks =
      liveness.MaxLiveComponentsWith(module, files.vectorComponents, files.scalarComponents);
  files.vectorDemand = peaks.first;
  files.scalarDemand = peaks.second;
  return files;
}

}  // namespace crashtest::statistics
