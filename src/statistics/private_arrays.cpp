#include "statistics/private_arrays.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>

#include "statistics/memory_footprint.h"

namespace crashtest::statistics {
namespace {

bool IsAccessChain(uint16_t op) {
  return op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain || op == spv::OpPtrAccessChain;
}

}  // namespace

PrivateArrays FindPrivateArrays(const ir::Module& module, const analysis::LoopInfo& loops,
                                const MachineModel& model) {
  const auto& blocks = module.function.blocks;
  // Arrays live in Private globals and Function variables; after promotion to registers most shaders have
  // neither, and need neither the per-value tables below nor the walk over every operand.
  bool anyVariable = false;
  for (const ir::Global& global : module.globals) anyVariable |= global.storageClass == spv::StorageClassPrivate;
  for (const ir::Block& block : blocks) {
    if (anyVariable) break;
    for (const ir::Instruction& inst : block.instructions) anyVariable |= inst.op == spv::OpVariable;
  }
  if (!anyVariable) return PrivateArrays{};

  // Track every pointer back to its root variable; a non-constant index anywhere makes the root dynamic.
  std::vector<ir::ValueId> root(module.values.size(), ir::kNone);
  std::vector<bool> dynamic(module.values.size(), false);
  std::vector<bool> dynamicPointer(module.values.size(), false);  // an access chain with a non-constant index
  bool anyDynamic = false;
  for (const ir::Global& global : module.globals)
    if (global.storageClass == spv::StorageClassPrivate) root[global.value] = global.value;
  for (const ir::Block& block : blocks)
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.op == spv::OpVariable && inst.result != ir::kNone) root[inst.result] = inst.result;
      if (!IsAccessChain(inst.op) || inst.valueCount == 0 || inst.result == ir::kNone) continue;
      auto operands = module.Operands(inst);
      ir::ValueId base = root[operands[0]];
      if (base == ir::kNone) continue;
      root[inst.result] = base;
      dynamicPointer[inst.result] = dynamicPointer[operands[0]];
      for (uint32_t k = 1; k < inst.valueCount; ++k)
        if (module.values[operands[k]].kind != ir::ValueKind::Constant) {
          dynamic[base] = true;
          dynamicPointer[inst.result] = true;
          anyDynamic = true;
        }
    }
  // Only a dynamically indexed variable is an array here; most shaders have none, and need no more walks.
  if (!anyDynamic) return PrivateArrays{};

  // Arrays that only ever hold constants: a compiler moves them into the shader's constant data (NIR's
  // nir_opt_large_constants, which RADV runs; NVIDIA's constant bank) and reads them with a load at each access,
  // so they take neither registers nor scratch. Every write must store a constant at a constant index (a
  // `const T table[N]` indexed dynamically becomes exactly that: one store of the constant composite).
  std::vector<bool> written(module.values.size(), false);  // written with something other than constants
  for (const ir::Global& global : module.globals)
    if (global.initializer != ir::kNone && module.values[global.initializer].kind != ir::ValueKind::Constant)
      written[global.value] = true;
  for (const ir::Block& block : blocks)
    for (const ir::Instruction& inst : block.instructions) {
      auto operands = module.Operands(inst);
      if (inst.op == spv::OpVariable) {
        if (inst.result != ir::kNone && inst.valueCount > 0 &&
            module.values[operands[0]].kind != ir::ValueKind::Constant)
          written[inst.result] = true;
        continue;
      }
      if (IsAccessChain(inst.op) || inst.op == spv::OpLoad) continue;
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        ir::ValueId r = root[operands[k]];
        if (r == ir::kNone || !dynamic[r]) continue;
        const bool constantStore = inst.op == spv::OpStore && k == 0 && inst.valueCount > 1 &&
                                   module.values[operands[1]].kind == ir::ValueKind::Constant &&
                                   !dynamicPointer[operands[0]];
        if (!constantStore) written[r] = true;
      }
    }

  PrivateArrays result;
  std::vector<uint32_t> arrayOf(module.values.size(), ir::kNone);
  for (ir::ValueId v = 0; v < module.values.size(); ++v) {
    if (!dynamic[v] || !written[v]) continue;  // constant data is neither registers nor scratch
    const ir::Type& pointer = module.types[module.values[v].type];
    PrivateArray array;
    array.variable = v;
    array.bytes = TypeSizeBytes(module, pointer.element);
    array.components = static_cast<uint32_t>((array.bytes + 3) / 4);
    array.inRegisters = array.components <= model.privateArrayRegisterLimit;
    array.firstPosition = ir::kNone;
    if (!array.inRegisters) result.scratchBytes += array.bytes;
    arrayOf[v] = static_cast<uint32_t>(result.arrays.size());
    result.arrays.push_back(array);
  }
  if (result.arrays.empty()) return result;
  std::vector<uint32_t> blockStart(blocks.size() + 1, 0);
  for (ir::BlockId b = 0; b < blocks.size(); ++b)
    blockStart[b + 1] = blockStart[b] + static_cast<uint32_t>(blocks[b].instructions.size());

  // Live ranges of the arrays held in registers: every instruction that reads or writes through a pointer into
  // one, widened to the outermost loop around it.
  for (ir::BlockId b = 0; b < blocks.size(); ++b) {
    for (uint32_t i = 0; i < blocks[b].instructions.size(); ++i) {
      const ir::Instruction& inst = blocks[b].instructions[i];
      auto operands = module.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        ir::ValueId r = root[operands[k]];
        if (r == ir::kNone || arrayOf[r] == ir::kNone) continue;
        PrivateArray& array = result.arrays[arrayOf[r]];
        if (!array.inRegisters) continue;
        uint32_t first = blockStart[b] + i, last = first;
        uint32_t loop = loops.LoopOf(b);
        while (loop != ir::kNone && loops.loops()[loop].parent != ir::kNone) loop = loops.loops()[loop].parent;
        if (loop != ir::kNone)
          for (ir::BlockId lb : loops.loops()[loop].blocks) {
            first = std::min(first, blockStart[lb]);
            last = std::max(last, blockStart[lb + 1] - 1);
          }
        array.firstPosition = array.firstPosition == ir::kNone ? first : std::min(array.firstPosition, first);
        array.lastPosition = std::max(array.lastPosition, last);
      }
    }
  }
  std::vector<int64_t> delta(blockStart.back() + 1, 0);
  bool any = false;
  for (const PrivateArray& array : result.arrays) {
    if (!array.inRegisters || array.firstPosition == ir::kNone) continue;
    delta[array.firstPosition] += array.components;
    delta[array.lastPosition + 1] -= array.components;
    any = true;
  }
  if (!any) return result;
  result.registerComponentsAt.resize(blockStart.back(), 0);
  int64_t running = 0;
  for (uint32_t p = 0; p < blockStart.back(); ++p) {
    running += delta[p];
    result.registerComponentsAt[p] = static_cast<uint32_t>(running);
    result.maxRegisterComponents = std::max(result.maxRegisterComponents, result.registerComponentsAt[p]);
  }
  return result;
}

}  // namespace crashtest::statistics
