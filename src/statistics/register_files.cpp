#include "statistics/register_files.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>

#include "statistics/expansion_temporaries.h"

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

// A component extracted from a composite in vector registers is the composite's own register while the composite
// is live: a register allocator with sub-register views (ACO's p_extract_vector and p_split_vector, LLVM's
// subregisters) gives it no register of its own. So an OpCompositeExtract whose composite is live at every use of
// the extracted value holds nothing.
void FreeExtractsWithinTheirComposites(const ir::Module& module, const analysis::Liveness& liveness,
                                       std::vector<uint32_t>& vectorComponents) {
  const auto& blocks = module.function.blocks;
  std::vector<ir::ValueId> sourceOf(module.values.size(), ir::kNone);
  bool any = false;
  for (const ir::Block& block : blocks)
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.op != spv::OpCompositeExtract || inst.result == ir::kNone || vectorComponents[inst.result] == 0)
        continue;
      ir::ValueId composite = module.Operands(inst)[0];
      if (module.values[composite].kind != ir::ValueKind::Instruction || vectorComponents[composite] == 0) continue;
      sourceOf[inst.result] = composite;
      any = true;
    }
  if (!any) return;
  // The per-value state of the walks below, one record per value (one allocation, and the fields read together
  // for a composite on one cache line, where four separate tables were most of this function's cost).
  constexpr uint32_t kNoUse = ~0u;
  struct ValueState {
    uint32_t lastRead = kNoUse;          // last non-phi reader in the block being walked
    ir::BlockId liveOutOf = ir::kNone;  // the last block walked that the value lives out of
    uint8_t onlyExtracted = 0;
    uint8_t covered = 1;
  };
  std::vector<ValueState> state(module.values.size());
  // A composite only ever split into its components (every use an extract) is its components: it holds nothing of
  // its own, and its extracts (moved right after it, ir/passes/hoist_extracts.h) hold what is read.
  for (ir::ValueId v = 0; v < sourceOf.size(); ++v)
    if (sourceOf[v] != ir::kNone) state[sourceOf[v]].onlyExtracted = 1;
  for (ir::BlockId b = 0; b < blocks.size(); ++b)
    for (const ir::Instruction& inst : blocks[b].instructions) {
      auto operands = module.Operands(inst);
      if (inst.op == spv::OpCompositeExtract) {
        // Only extracts in the composite's own block follow it directly; a phi is not split where it is defined.
        const ir::Value& composite = module.values[operands[0]];
        if (composite.kind == ir::ValueKind::Instruction &&
            (composite.owner != b || blocks[b].instructions[composite.index].op == spv::OpPhi))
          state[operands[0]].onlyExtracted = 0;
        continue;
      }
      for (uint32_t k = 0; k < inst.valueCount; ++k) state[operands[k]].onlyExtracted = 0;
    }
  for (ir::ValueId v = 0; v < sourceOf.size(); ++v) {
    if (state[v].onlyExtracted) vectorComponents[v] = 0;
    if (sourceOf[v] != ir::kNone && state[sourceOf[v]].onlyExtracted) sourceOf[v] = ir::kNone;
  }
  // Whether a composite is live right after an instruction of block `b`: live out of the block, or read later in
  // it. One pass per block records each value's last reader there and marks its live-out values.
  auto isLiveOut = [&](ir::ValueId composite, ir::BlockId b) {
    auto out = liveness.LiveOut(b);
    return std::find(out.begin(), out.end(), composite) != out.end();
  };
  for (ir::BlockId b = 0; b < blocks.size(); ++b) {
    const auto& instructions = blocks[b].instructions;
    for (ir::ValueId v : liveness.LiveOut(b)) state[v].liveOutOf = b;
    for (uint32_t i = 0; i < instructions.size(); ++i) {
      if (instructions[i].op == spv::OpPhi) continue;  // a phi reads at the end of a predecessor
      auto operands = module.Operands(instructions[i]);
      for (uint32_t k = 0; k < instructions[i].valueCount; ++k) state[operands[k]].lastRead = i;
    }
    for (uint32_t i = 0; i < instructions.size(); ++i) {
      const ir::Instruction& inst = instructions[i];
      auto operands = module.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        ir::ValueId v = operands[k];
        if (sourceOf[v] == ir::kNone || !state[v].covered) continue;
        const ValueState& composite = state[sourceOf[v]];
        // A phi reads its operand at the end of the matching predecessor: the composite must be live out of it.
        bool live = inst.op == spv::OpPhi
                        ? isLiveOut(sourceOf[v], operands[inst.valueCount + k])
                        : composite.liveOutOf == b || (composite.lastRead != kNoUse && composite.lastRead > i);
        if (!live) state[v].covered = 0;
      }
    }
    for (const ir::Instruction& inst : instructions) {
      if (inst.op == spv::OpPhi) continue;
      auto operands = module.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k) state[operands[k]].lastRead = kNoUse;
    }
  }
  for (ir::ValueId v = 0; v < sourceOf.size(); ++v)
    if (sourceOf[v] != ir::kNone && state[v].covered) vectorComponents[v] = 0;
}

// Channels of a storage image format (spv::ImageFormat); 4 for Unknown and the 64-bit formats (not trimmed).
uint32_t FormatChannels(uint32_t format) {
  switch (format) {
    case spv::ImageFormatR32f: case spv::ImageFormatR16f: case spv::ImageFormatR16: case spv::ImageFormatR8:
    case spv::ImageFormatR16Snorm: case spv::ImageFormatR8Snorm: case spv::ImageFormatR32i:
    case spv::ImageFormatR16i: case spv::ImageFormatR8i: case spv::ImageFormatR32ui: case spv::ImageFormatR16ui:
    case spv::ImageFormatR8ui:
      return 1;
    case spv::ImageFormatRg32f: case spv::ImageFormatRg16f: case spv::ImageFormatRg16: case spv::ImageFormatRg8:
    case spv::ImageFormatRg16Snorm: case spv::ImageFormatRg8Snorm: case spv::ImageFormatRg32i:
    case spv::ImageFormatRg16i: case spv::ImageFormatRg8i: case spv::ImageFormatRg32ui:
    case spv::ImageFormatRg16ui: case spv::ImageFormatRg8ui:
      return 2;
    case spv::ImageFormatR11fG11fB10f: return 3;
    default: return 4;
  }
}

// A texel built only to be written to storage images holds only the channels of the images' formats: the back
// end writes those (ACO's image_store with a dmask of the format's channels: memory_barriers.comp's
// vec4(float(neighbour)) to an r32f image is `image_store v1 ... dmask:0x1`) and drops the other components.
void TrimImageWriteTexels(const ir::Module& module, std::vector<uint32_t>& vectorComponents) {
  std::vector<uint32_t> channels;
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      auto operands = module.Operands(inst);
      if (inst.op == spv::OpImageWrite && inst.valueCount >= 3) {
        const ir::ValueId texel = operands[2];
        if (module.values[texel].kind != ir::ValueKind::Instruction || vectorComponents[texel] <= 1) continue;
        const ir::Type& image = module.types[module.values[operands[0]].type];
        const uint32_t n = image.kind == ir::TypeKind::Image ? FormatChannels(image.image[5]) : 4;
        if (channels.empty()) channels.assign(module.values.size(), 0);
        channels[texel] = std::max(channels[texel], n);
        for (uint32_t k = 0; k < inst.valueCount; ++k)
          if (k != 2 && !channels.empty()) channels[operands[k]] = 4;  // read otherwise: whole
        continue;
      }
      if (channels.empty()) continue;
      for (uint32_t k = 0; k < inst.valueCount; ++k) channels[operands[k]] = 4;
    }
  if (channels.empty()) return;
  // A second pass: uses before the first image write were not seen as uses by other instructions.
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.op == spv::OpImageWrite) continue;
      auto operands = module.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k)
        if (channels[operands[k]] != 0) channels[operands[k]] = 4;
    }
  for (ir::ValueId v = 0; v < channels.size(); ++v)
    if (channels[v] != 0 && channels[v] < 4) {
      const ir::Type& type = module.types[module.values[v].type];
      if (type.kind == ir::TypeKind::Vector && module.types[type.element].width == 32)
        vectorComponents[v] = std::min(vectorComponents[v], channels[v]);
    }
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
                                  const analysis::OffsetRegisters& offsets, uint32_t subgroupSize) {
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
    // A pointer into a descriptor's or workgroup memory is its byte offset to the back end: one register for the
    // pointers that share it (offset_registers.h), scalar when the offset is uniform, none when it folds into the
    // instruction's immediate. Buffer-device-address pointers are real 64-bit values and stay.
    const ir::Type& t = module.types[type];
    if (t.kind == ir::TypeKind::Pointer && t.storageClass != spv::StorageClassPhysicalStorageBuffer) {
      if (!offsets.HoldsRegister(v)) continue;
      if (uniformity.IsUniform(v)) files.scalarComponents[v] = 1;
      else files.vectorComponents[v] = 1;
      continue;
    }
    const ir::Instruction& def = module.function.blocks[module.values[v].owner].instructions[module.values[v].index];
    if (HeldInScalarRegisters(module, uniformity, def)) files.scalarComponents[v] = components;
    else if (module.types[type].kind == ir::TypeKind::Bool) files.scalarComponents[v] = laneMask;
    else files.vectorComponents[v] = components;
  }
  TrimImageWriteTexels(module, files.vectorComponents);
  FreeExtractsWithinTheirComposites(module, liveness, files.vectorComponents);
  const ExpansionTemporaries temporaries =
      model.expansionTemporaries != 0 ? FindExpansionTemporaries(module, uniformity) : ExpansionTemporaries();
  const analysis::Liveness::TwoPeaks peaks =
      liveness.MaxLiveComponentsWith(module, files.vectorComponents, files.scalarComponents, temporaries.View());
  files.vectorDemand = peaks.first;
  files.temporaries = temporaries.most;
  files.scalarDemand = peaks.second;
  return files;
}

}  // namespace crashtest::statistics
