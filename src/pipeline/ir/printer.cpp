#include "pipeline/ir/printer.h"

#include <spirv/unified1/spirv.hpp>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "pipeline/analysis/liveness.h"
#include "pipeline/analysis/uniformity.h"
#include "pipeline/analysis/loops.h"
#include "pipeline/lowering/lower_spirv.h"
#include "pipeline/spirv_tables.h"

namespace crashtest::ir {

const char* StorageClassName(uint32_t storageClass) {
  switch (static_cast<spv::StorageClass>(storageClass)) {
    case spv::StorageClassUniformConstant: return "UniformConstant";
    case spv::StorageClassInput: return "Input";
    case spv::StorageClassUniform: return "Uniform";
    case spv::StorageClassOutput: return "Output";
    case spv::StorageClassWorkgroup: return "Workgroup";
    case spv::StorageClassPrivate: return "Private";
    case spv::StorageClassFunction: return "Function";
    case spv::StorageClassPushConstant: return "PushConstant";
    case spv::StorageClassImage: return "Image";
    case spv::StorageClassStorageBuffer: return "StorageBuffer";
    case spv::StorageClassPhysicalStorageBuffer: return "PhysicalStorageBuffer";
    default: return "StorageClass(other)";
  }
}

namespace {

void Append(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void Append(std::string& out, const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  int n = std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  if (n > 0) out.append(buffer, static_cast<size_t>(n) < sizeof buffer ? static_cast<size_t>(n) : sizeof buffer - 1);
}

void AppendType(const Module& module, TypeId id, std::string& out, int depth) {
  if (id == kNone || id >= module.types.size()) {
    out += "?";
    return;
  }
  const Type& type = module.types[id];
  switch (type.kind) {
    case TypeKind::Void: out += "void"; return;
    case TypeKind::Bool: out += "bool"; return;
    case TypeKind::Int: Append(out, "%c%u", type.isSigned ? 'i' : 'u', type.width); return;
    case TypeKind::Float: Append(out, "f%u", type.width); return;
    case TypeKind::Vector: Append(out, "v%u", type.count); AppendType(module, type.element, out, depth); return;
    case TypeKind::Matrix: {
      const Type& column = module.types[type.element];
      Append(out, "m%ux%u", type.count, column.count);
      AppendType(module, column.element, out, depth);
      return;
    }
    case TypeKind::Array:
      Append(out, "[%u x ", type.count);
      AppendType(module, type.element, out, depth);
      out += "]";
      return;
    case TypeKind::RuntimeArray: out += "[]"; AppendType(module, type.element, out, depth); return;
    case TypeKind::Struct:
      if (depth > 1) {
        Append(out, "struct#%u", id);
        return;
      }
      out += "{";
      for (size_t m = 0; m < type.members.size(); ++m) {
        if (m != 0) out += ", ";
        AppendType(module, type.members[m], out, depth + 1);
      }
      out += "}";
      return;
    case TypeKind::Pointer:
      Append(out, "ptr<%s, ", StorageClassName(type.storageClass));
      AppendType(module, type.element, out, depth + 1);
      out += ">";
      return;
    case TypeKind::Image: Append(out, "image(dim %u, depth %u, arrayed %u, ms %u, sampled %u, format %u)",
                                 type.image[0], type.image[1], type.image[2], type.image[3], type.image[4],
                                 type.image[5]); return;
    case TypeKind::Sampler: out += "sampler"; return;
    case TypeKind::SampledImage: out += "sampled "; AppendType(module, type.element, out, depth); return;
    case TypeKind::Function: out += "function"; return;
    case TypeKind::AccelerationStructure: out += "accelerationStructure"; return;
    case TypeKind::Opaque: out += "opaque"; return;
  }
}

void AppendValue(const Module& module, ValueId id, std::string& out) {
  const Value& value = module.values[id];
  if (value.kind == ValueKind::Constant) {
    const Constant& constant = module.constants[value.owner];
    const Type& type = module.types[value.type];
    if (constant.isNull) {
      out += "null";
      return;
    }
    switch (type.kind) {
      case TypeKind::Bool: out += constant.bits ? "true" : "false"; return;
      case TypeKind::Int:
        if (type.isSigned && type.width == 32)
          Append(out, "%" PRId32, static_cast<int32_t>(constant.bits));
        else if (type.isSigned && type.width == 64)
          Append(out, "%" PRId64, static_cast<int64_t>(constant.bits));
        else
          Append(out, "%" PRIu64, constant.bits);
        return;
      case TypeKind::Float:
        if (type.width == 32) {
          float f;
          uint32_t bits = static_cast<uint32_t>(constant.bits);
          std::memcpy(&f, &bits, 4);
          Append(out, "%g", static_cast<double>(f));
        } else if (type.width == 64) {
          double d;
          std::memcpy(&d, &constant.bits, 8);
          Append(out, "%g", d);
        } else {
          Append(out, "f%u:0x%" PRIx64, type.width, constant.bits);
        }
        return;
      default: break;
    }
  }
  if (value.kind == ValueKind::Undef) {
    out += "undef";
    return;
  }
  Append(out, "%%%u", value.spirvId);
}

// Which literal operands of an instruction are block indices.
bool IsBlockLiteral(const Module& module, const Instruction& inst, uint32_t literal) {
  switch (inst.op) {
    case spv::OpPhi: return true;
    case spv::OpBranch: return literal == 0;
    case spv::OpBranchConditional: return literal < 2;
    case spv::OpSwitch: {
      if (literal == 0) return true;
      // (value, target) pairs; the value is one or two words by the selector's width.
      uint32_t width = module.TypeOf(module.Operands(inst)[0]).width > 32 ? 2 : 1;
      return (literal - 1) % (width + 1) == width;
    }
    default: return false;
  }
}

void AppendInstruction(const Module& module, const Instruction& inst, std::string& out) {
  auto operands = module.Operands(inst);
  if (inst.result != kNone) Append(out, "%%%u = ", module.values[inst.result].spirvId);
  uint32_t firstLiteral = 0;
  if (inst.op == spv::OpExtInst && inst.operandCount > inst.valueCount) {
    const char* name = spirv::Glsl450Name(operands[inst.valueCount]);
    if (name != nullptr) Append(out, "GLSL.std.450.%s", name);
    else Append(out, "GLSL.std.450.%u", operands[inst.valueCount]);
    firstLiteral = 1;
  } else {
    out += spirv::OpcodeName(inst.op);
  }
  if (inst.type != kNone) {
    out += " ";
    AppendType(module, inst.type, out, 1);
  }
  bool first = true;
  auto separator = [&] {
    out += first ? " " : ", ";
    first = false;
  };
  if (inst.op == spv::OpPhi) {
    for (uint32_t k = 0; k < inst.valueCount; ++k) {
      separator();
      out += "[";
      AppendValue(module, operands[k], out);
      Append(out, ", block%u]", operands[inst.valueCount + k]);
    }
    return;
  }
  for (uint32_t k = 0; k < inst.valueCount; ++k) {
    separator();
    AppendValue(module, operands[k], out);
  }
  for (uint32_t k = inst.valueCount + firstLiteral; k < inst.operandCount; ++k) {
    separator();
    if (IsBlockLiteral(module, inst, k - inst.valueCount)) Append(out, "block%u", operands[k]);
    else Append(out, "#%u", operands[k]);
  }
}

}  // namespace

std::string TypeName(const Module& module, TypeId type) {
  std::string out;
  AppendType(module, type, out, 0);
  return out;
}

std::string Print(const Module& module, const PrintOptions& options) {
  std::string out;
  const EntryPoint& entry = module.entryPoint;
  Append(out, "; entry \"%s\" (%s)", entry.name.c_str(), pipeline::ExecutionModelName(entry.executionModel));
  if (entry.localSize[0] != 0)
    Append(out, ", local size %u x %u x %u", entry.localSize[0], entry.localSize[1], entry.localSize[2]);
  Append(out, ", SPIR-V %u.%u\n", (module.spirvVersion >> 16) & 0xff, (module.spirvVersion >> 8) & 0xff);
  Append(out, "; %zu blocks, %zu instructions, %zu bytes encoded", module.function.blocks.size(),
         module.InstructionCount(), module.EncodedSizeBytes());
  if (options.liveness != nullptr) Append(out, ", peak live %u components", options.liveness->MaxLiveComponents());
  out += "\n";
  for (const Global& global : module.globals) {
    Append(out, "global %%%u", module.values[global.value].spirvId);
    if (!global.name.empty()) Append(out, " \"%s\"", global.name.c_str());
    out += ": ";
    AppendType(module, module.values[global.value].type, out, 0);
    if (global.set != kNone) Append(out, " set %u", global.set);
    if (global.binding != kNone) Append(out, " binding %u", global.binding);
    if (global.location != kNone) Append(out, " location %u", global.location);
    if (global.builtIn != kNone) Append(out, " builtin %u", global.builtIn);
    out += "\n";
  }
  for (BlockId b = 0; b < module.function.blocks.size(); ++b) {
    const Block& block = module.function.blocks[b];
    Append(out, "\nblock%u:", b);
    std::string notes;
    if (block.mergeKind == MergeKind::Loop)
      Append(notes, " loop header, merge block%u, continue block%u", block.mergeBlock, block.continueTarget);
    else if (block.mergeKind == MergeKind::Selection)
      Append(notes, " selection, merge block%u", block.mergeBlock);
    if (options.loops != nullptr) {
      uint32_t loop = options.loops->LoopOf(b);
      if (loop != kNone) {
        const analysis::Loop& info = options.loops->loops()[loop];
        Append(notes, "%s loop depth %u", notes.empty() ? "" : ",", info.depth);
        if (info.header == b && info.tripCount) Append(notes, ", trip count %" PRIu64, *info.tripCount);
      }
    }
    if (!block.predecessors.empty()) {
      Append(notes, "%s preds", notes.empty() ? "" : ",");
      for (BlockId p : block.predecessors) Append(notes, " block%u", p);
    }
    if (options.liveness != nullptr)
      Append(notes, "%s live-in %u", notes.empty() ? "" : ",", options.liveness->LiveInComponents(b));
    if (options.uniformity != nullptr && options.uniformity->IsDivergentBranch(b))
      Append(notes, "%s divergent branch", notes.empty() ? "" : ",");
    if (!notes.empty()) out += "  ;" + notes;
    out += "\n";
    for (uint32_t i = 0; i < block.instructions.size(); ++i) {
      size_t lineStart = out.size();
      out += "  ";
      AppendInstruction(module, block.instructions[i], out);
      const bool uniform = options.uniformity != nullptr && block.instructions[i].result != kNone &&
                           options.uniformity->IsUniform(block.instructions[i].result);
      if (options.liveness != nullptr || uniform) {
        size_t width = out.size() - lineStart;
        if (width < 60) out.append(60 - width, ' ');
        out += "  ;";
        if (options.liveness != nullptr) Append(out, " live %u", options.liveness->LiveComponentsAt(b, i));
        if (uniform) out += options.liveness != nullptr ? ", uniform" : " uniform";
      }
      out += "\n";
    }
  }
  return out;
}

}  // namespace crashtest::ir
