#include "statistics/output_exports.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>


namespace crashtest::statistics {
namespace {

bool IsAccessChain(uint16_t op) {
  return op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain || op == spv::OpPtrAccessChain;
}

// Whether `pointer` is an Input variable or an access chain into one.
bool IsInput(const ir::Module& module, ir::ValueId pointer) {
  const ir::TypeId type = module.values[pointer].type;
  return type != ir::kNone && module.types[type].kind == ir::TypeKind::Pointer &&
         module.types[type].storageClass == spv::StorageClassInput;
}

struct Store {
  uint32_t position;
  ir::ValueId pointer, value;
  uint64_t copies;  // of its block in the machine code (an unrolled loop's body is there once per iteration)
};

}  // namespace

HeldOutputs FindHeldOutputs(const ir::Module& module, VkShaderStageFlagBits stage,
                            std::span<const uint32_t> vectorComponents, bool geometryVerticesHeld,
                            std::span<const uint64_t> blockCopies, const std::vector<bool>& foldsAway) {
  const bool geometry = stage == VK_SHADER_STAGE_GEOMETRY_BIT && geometryVerticesHeld;
  if (stage != VK_SHADER_STAGE_VERTEX_BIT && stage != VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT &&
      stage != VK_SHADER_STAGE_FRAGMENT_BIT && !geometry)
    return {};
  std::vector<bool> output(module.values.size(), false);  // an Output variable or a pointer into one
  bool any = false;
  for (const ir::Global& global : module.globals)
    if (global.storageClass == spv::StorageClassOutput) output[global.value] = any = true;
  if (!any) return {};

  // One walk: pointers into outputs, the stores to them, and each value's last use (program position).
  const auto& blocks = module.function.blocks;
  std::vector<uint32_t> lastUse(module.values.size(), 0);
  std::vector<Store> stores;
  uint32_t position = 0;
  for (ir::BlockId b = 0; b < blocks.size(); ++b)
    for (const ir::Instruction& inst : blocks[b].instructions) {
      auto operands = module.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k) lastUse[operands[k]] = position;
      if (IsAccessChain(inst.op) && inst.valueCount > 0 && inst.result != ir::kNone && output[operands[0]])
        output[inst.result] = true;
      else if (inst.op == spv::OpStore && inst.valueCount >= 2 && output[operands[0]])
        stores.push_back({position, operands[0], operands[1], blockCopies.empty() ? 1 : blockCopies[b]});
      ++position;
    }
  if (stores.empty()) return {};
  const uint32_t end = position;

  auto components = [&](ir::ValueId v) -> uint32_t {
    // Constants are immediates at the export; values without a defining instruction hold nothing here.
    if (module.values[v].kind != ir::ValueKind::Instruction || module.values[v].owner == ir::kNone) return 0;
    // A value computed from an unrolled loop's iteration number alone is a constant in each copy.
    if (!foldsAway.empty() && foldsAway[v]) return 0;
    if (!vectorComponents.empty()) return vectorComponents[v];
    return analysis::RegisterComponents(module, module.values[v].type);
  };
  std::vector<int64_t> delta(end + 1, 0);
  bool held = false;
  for (size_t s = 0; s < stores.size(); ++s) {
    const ir::ValueId v = stores[s].value;
    if (module.values[v].kind != ir::ValueKind::Instruction || module.values[v].owner == ir::kNone) continue;
    // A composite built for the store holds only its non-constant parts (`vec4(p, 0.0, 1.0)`: p).
    const ir::Value& value = module.values[v];
    const ir::Instruction& def = blocks[value.owner].instructions[value.index];
    // A geometry shader's inputs are not in its registers to hold: the input vertices' outputs are in workgroup
    // memory (an NGG primitive shader's earlier stage wrote them there) and a built-in input (the primitive or
    // invocation id) is among the registers the wave starts with, so an output copied from an input is read
    // again where the vertex is written, not held.
    if (geometry && def.op == spv::OpLoad && def.valueCount > 0 && IsInput(module, module.Operands(def)[0])) continue;
    uint32_t count = 0;
    if (def.op == spv::OpCompositeConstruct) {
      auto parts = module.Operands(def);
      for (uint32_t k = 0; k < def.valueCount; ++k) count += components(parts[k]);
    } else {
      count = components(v);
    }
    if (count == 0) continue;
    // Held from after its last use (liveness counts it until then) until a later store to the same output
    // replaces it, else to the end of the shader. A geometry shader's later store is to the next vertex: both
    // are held, each copy of an unrolled emit loop's store for its own vertex.
    uint32_t until = end;
    if (geometry) count = static_cast<uint32_t>(std::min<uint64_t>(count * stores[s].copies, 1u << 16));
    for (size_t t = s + 1; t < stores.size() && !geometry; ++t)
      if (stores[t].pointer == stores[s].pointer) {
        until = stores[t].position;
        break;
      }
    const uint32_t from = std::max(stores[s].position, lastUse[v]) + 1;
    if (from >= until) continue;
    delta[from] += count;
    delta[until] -= count;
    held = true;
  }
  if (!held) return {};
  HeldOutputs result;
  result.componentsAt.resize(end, 0);
  int64_t running = 0;
  for (uint32_t p = 0; p < end; ++p) {
    running += delta[p];
    result.componentsAt[p] = static_cast<uint32_t>(running);
    result.maxComponents = std::max(result.maxComponents, result.componentsAt[p]);
  }
  return result;
}

uint32_t PeakWithHeldOutputs(const ir::Module& module, const analysis::Liveness& liveness,
                             std::span<const uint32_t> vectorComponents, const HeldOutputs& held) {
  // The same backward walk as the liveness's own (a phi's pressure is the block's live-in; elsewhere everything
  // live after the instruction plus its own result), on the blocks where an output is held.
  const auto& blocks = module.function.blocks;
  uint32_t peak = 0;
  std::vector<bool> live(module.values.size(), false);
  std::vector<ir::ValueId> setValues;
  uint32_t start = 0;
  for (ir::BlockId b = 0; b < blocks.size(); ++b) {
    const auto& instructions = blocks[b].instructions;
    const uint32_t size = static_cast<uint32_t>(instructions.size());
    const bool holds = std::any_of(held.componentsAt.begin() + start, held.componentsAt.begin() + start + size,
                                   [](uint32_t n) { return n != 0; });
    if (!holds) {
      start += size;
      continue;
    }
    uint32_t sum = 0, liveInSum = 0;
    for (ir::ValueId v : liveness.LiveOut(b)) {
      live[v] = true;
      setValues.push_back(v);
      sum += vectorComponents[v];
    }
    for (ir::ValueId v : liveness.LiveIn(b)) liveInSum += vectorComponents[v];
    for (uint32_t i = size; i-- > 0;) {
      const ir::Instruction& inst = instructions[i];
      if (inst.op == spv::OpPhi) {
        peak = std::max(peak, liveInSum + held.componentsAt[start + i]);
        continue;
      }
      const bool resultLive = inst.result != ir::kNone && live[inst.result];
      const uint32_t pressure = sum + (inst.result != ir::kNone && !resultLive ? vectorComponents[inst.result] : 0);
      peak = std::max(peak, pressure + held.componentsAt[start + i]);
      if (resultLive) {
        live[inst.result] = false;
        sum -= vectorComponents[inst.result];
      }
      auto operands = module.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        const ir::ValueId v = operands[k];
        if (module.values[v].kind == ir::ValueKind::Instruction && !live[v]) {
          live[v] = true;
          setValues.push_back(v);
          sum += vectorComponents[v];
        }
      }
    }
    for (ir::ValueId v : setValues) live[v] = false;
    setValues.clear();
    start += size;
  }
  return peak;
}

}  // namespace crashtest::statistics
