#include "pipeline/lowering/lower_spirv.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "pipeline/spirv_tables.h"

namespace crashtest::pipeline {

using ir::kNone;

const char* ExecutionModelName(uint32_t executionModel) {
  switch (static_cast<spv::ExecutionModel>(executionModel)) {
    case spv::ExecutionModelVertex: return "Vertex";
    case spv::ExecutionModelTessellationControl: return "TessellationControl";
    case spv::ExecutionModelTessellationEvaluation: return "TessellationEvaluation";
    case spv::ExecutionModelGeometry: return "Geometry";
    case spv::ExecutionModelFragment: return "Fragment";
    case spv::ExecutionModelGLCompute: return "GLCompute";
    case spv::ExecutionModelTaskEXT: return "TaskEXT";
    case spv::ExecutionModelMeshEXT: return "MeshEXT";
    default: return "ExecutionModel(other)";
  }
}

namespace {

enum class IdKind : uint8_t { None, Type, Value, Label, Function, GlslExtSet, NonSemanticExtSet, OtherExtSet };

struct Decorations {
  uint32_t set = kNone, binding = kNone, location = kNone, builtIn = kNone, arrayStride = 0,
           inputAttachmentIndex = kNone, component = 0, index = 0;
  bool block = false, flat = false, noPerspective = false, centroid = false, perSample = false;
  bool noContraction = false;
};

struct MemberDecorations {
  uint32_t offset = kNone, builtIn = kNone, matrixStride = 0;
  bool rowMajor = false;
};

class Lowerer {
 public:
  Lowerer(const SpirvModule& in, ir::Module& out, std::string* message)
      : in_(in), out_(out), message_(message), kind_(in.bound, IdKind::None), index_(in.bound, kNone) {}

  bool Run(std::string_view entryPoint, uint32_t executionModel);

 private:
  bool Fail(const SpirvInstruction& inst, const char* what);
  bool ModuleLevel(const SpirvInstruction& inst);
  bool DeclareType(const SpirvInstruction& inst);
  bool DeclareConstant(const SpirvInstruction& inst);
  bool ResolveTypeReferences();
  bool SelectEntryPoint(std::string_view name, uint32_t model);
  bool LowerFunction();
  bool LowerInstruction(const SpirvInstruction& inst, ir::BlockId block);
  void ReadEntryPointModes();
  ir::ValueId NewValue(ir::TypeId type, ir::ValueKind kind, uint32_t owner, uint32_t spirvId) {
    out_.values.push_back({type, kind, owner, kNone, spirvId});
    return static_cast<ir::ValueId>(out_.values.size() - 1);
  }
  uint32_t Word(const SpirvInstruction& inst, size_t operand, uint32_t i = 0) const {
    return in_.Word(inst, in_.OperandsOf(inst)[operand], i);
  }
  ir::TypeId TypeOf(uint32_t id) const { return kind_[id] == IdKind::Type ? index_[id] : kNone; }

  const SpirvModule& in_;
  ir::Module& out_;
  std::string* message_;
  std::vector<IdKind> kind_;
  std::vector<uint32_t> index_;
  std::unordered_map<uint32_t, std::string> names_;
  std::unordered_map<uint32_t, Decorations> decorations_;
  std::unordered_map<uint64_t, MemberDecorations> memberDecorations_;
  std::unordered_map<uint32_t, size_t> functionStart_;  // function id -> index of its OpFunction
  std::vector<const SpirvInstruction*> entryPoints_;
  std::vector<const SpirvInstruction*> executionModes_;
  std::vector<uint32_t> typeSpirvIds_;  // per TypeId, for resolving forward references
  const SpirvInstruction* entry_ = nullptr;
  uint32_t entryFunction_ = 0;
  uint32_t workgroupSizeConstant_ = 0;
  std::vector<uint32_t> scratchValues_, scratchLiterals_;
  std::unordered_map<uint32_t, std::string> strings_;     // OpString id -> text
  std::unordered_map<uint32_t, uint32_t> fileIndex_;      // OpString id -> index in sourceFiles
  uint16_t location_ = 0;                                 // the OpLine in effect
  uint16_t Location(uint32_t file, uint32_t line, uint32_t column);
};

uint16_t Lowerer::Location(uint32_t file, uint32_t line, uint32_t column) {
  if (out_.locations.empty()) out_.locations.emplace_back();
  auto [it, inserted] = fileIndex_.try_emplace(file, static_cast<uint32_t>(out_.sourceFiles.size()));
  if (inserted) {
    auto text = strings_.find(file);
    out_.sourceFiles.push_back(text != strings_.end() ? text->second : std::string());
  }
  const ir::SourceLocation& last = out_.locations.back();
  if (out_.locations.size() > 1 && last.file == it->second && last.line == line && last.column == column)
    return static_cast<uint16_t>(out_.locations.size() - 1);
  if (out_.locations.size() >= 0xffff) return 0;  // saturated: later instructions have no location
  out_.locations.push_back({it->second, line, column});
  return static_cast<uint16_t>(out_.locations.size() - 1);
}

bool Lowerer::Fail(const SpirvInstruction& inst, const char* what) {
  char text[256];
  if (inst.resultId != 0)
    std::snprintf(text, sizeof text, "%s %s (result %%%u)", what, spirv::OpcodeName(inst.opcode), inst.resultId);
  else
    std::snprintf(text, sizeof text, "%s %s (at word %u)", what, spirv::OpcodeName(inst.opcode), inst.wordOffset);
  *message_ = text;
  return false;
}

bool Lowerer::Run(std::string_view entryPoint, uint32_t executionModel) {
  out_ = ir::Module{};
  out_.spirvVersion = in_.version;
  size_t i = 0;
  for (; i < in_.instructions.size(); ++i) {
    const SpirvInstruction& inst = in_.instructions[i];
    if (inst.opcode == spv::OpFunction) break;
    if (!ModuleLevel(inst)) return false;
  }
  if (!ResolveTypeReferences()) return false;
  for (; i < in_.instructions.size(); ++i) {
    const SpirvInstruction& inst = in_.instructions[i];
    if (inst.opcode == spv::OpFunction) {
      functionStart_[inst.resultId] = i;
      kind_[inst.resultId] = IdKind::Function;
    }
  }
  if (!SelectEntryPoint(entryPoint, executionModel)) return false;
  if (!LowerFunction()) return false;
  ReadEntryPointModes();
  out_.valueNames.assign(out_.values.size(), std::string());
  for (ir::ValueId v = 0; v < out_.values.size(); ++v) {
    auto name = names_.find(out_.values[v].spirvId);
    if (name != names_.end()) out_.valueNames[v] = name->second;
  }
  for (ir::Global& global : out_.globals) global.name = out_.valueNames[global.value];
  return true;
}

bool Lowerer::ModuleLevel(const SpirvInstruction& inst) {
  auto operands = in_.OperandsOf(inst);
  switch (inst.opcode) {
    case spv::OpString:
      strings_[inst.resultId] = in_.String(inst, operands[1]);
      return true;
    case spv::OpCapability: case spv::OpExtension: case spv::OpMemoryModel: case spv::OpSource:
    case spv::OpSourceContinued: case spv::OpSourceExtension: case spv::OpMemberName:
    case spv::OpModuleProcessed: case spv::OpLine: case spv::OpNoLine: case spv::OpNop:
    case spv::OpDecorateString: case spv::OpMemberDecorateString: case spv::OpTypeForwardPointer:
      return true;
    case spv::OpName:
      names_[Word(inst, 0)] = in_.String(inst, operands[1]);
      return true;
    case spv::OpExtInstImport: {
      std::string set = in_.String(inst, operands[1]);
      kind_[inst.resultId] = set == "GLSL.std.450"                  ? IdKind::GlslExtSet
                             : set.rfind("NonSemantic.", 0) == 0 ? IdKind::NonSemanticExtSet
                                                                   : IdKind::OtherExtSet;
      return true;
    }
    case spv::OpEntryPoint: entryPoints_.push_back(&inst); return true;
    case spv::OpExecutionMode: case spv::OpExecutionModeId: executionModes_.push_back(&inst); return true;
    case spv::OpDecorate: case spv::OpDecorateId: {
      Decorations& d = decorations_[Word(inst, 0)];
      uint32_t decoration = Word(inst, 1);
      uint32_t value = operands.size() > 2 ? Word(inst, 2) : 0;
      switch (decoration) {
        case spv::DecorationDescriptorSet: d.set = value; break;
        case spv::DecorationBinding: d.binding = value; break;
        case spv::DecorationLocation: d.location = value; break;
        case spv::DecorationBuiltIn:
          d.builtIn = value;
          if (value == spv::BuiltInWorkgroupSize) workgroupSizeConstant_ = Word(inst, 0);
          break;
        case spv::DecorationArrayStride: d.arrayStride = value; break;
        case spv::DecorationInputAttachmentIndex: d.inputAttachmentIndex = value; break;
        case spv::DecorationBlock: case spv::DecorationBufferBlock: d.block = true; break;
        case spv::DecorationComponent: d.component = value; break;
        case spv::DecorationIndex: d.index = value; break;
        case spv::DecorationFlat: d.flat = true; break;
        case spv::DecorationNoPerspective: d.noPerspective = true; break;
        case spv::DecorationCentroid: d.centroid = true; break;
        case spv::DecorationSample: d.perSample = true; break;
        case spv::DecorationNoContraction: d.noContraction = true; break;
        default: break;
      }
      return true;
    }
    case spv::OpMemberDecorate: {
      uint64_t key = (uint64_t{Word(inst, 0)} << 32) | Word(inst, 1);
      MemberDecorations& d = memberDecorations_[key];
      uint32_t value = operands.size() > 3 ? Word(inst, 3) : 0;
      switch (Word(inst, 2)) {
        case spv::DecorationOffset: d.offset = value; break;
        case spv::DecorationBuiltIn: d.builtIn = value; break;
        case spv::DecorationMatrixStride: d.matrixStride = value; break;
        case spv::DecorationRowMajor: d.rowMajor = true; break;
        default: break;
      }
      return true;
    }
    case spv::OpDecorationGroup: case spv::OpGroupDecorate: case spv::OpGroupMemberDecorate:
      return Fail(inst, "decoration groups are not supported (the front end flattens them):");
    case spv::OpVariable: {
      ir::Global global;
      global.storageClass = Word(inst, 2);
      if (operands.size() > 3) {
        uint32_t init = Word(inst, 3);
        if (kind_[init] != IdKind::Value) return Fail(inst, "initializer is not a constant in");
        global.initializer = index_[init];
      }
      auto d = decorations_.find(inst.resultId);
      if (d != decorations_.end()) {
        global.set = d->second.set;
        global.binding = d->second.binding;
        global.location = d->second.location;
        global.builtIn = d->second.builtIn;
        global.inputAttachmentIndex = d->second.inputAttachmentIndex;
        global.component = d->second.component;
        global.index = d->second.index;
        global.flat = d->second.flat;
        global.noPerspective = d->second.noPerspective;
        global.centroid = d->second.centroid;
        global.perSample = d->second.perSample;
      }
      global.value = NewValue(TypeOf(inst.typeId), ir::ValueKind::Global,
                              static_cast<uint32_t>(out_.globals.size()), inst.resultId);
      out_.globals.push_back(std::move(global));
      kind_[inst.resultId] = IdKind::Value;
      index_[inst.resultId] = out_.globals.back().value;
      return true;
    }
    case spv::OpUndef:
      kind_[inst.resultId] = IdKind::Value;
      index_[inst.resultId] = NewValue(TypeOf(inst.typeId), ir::ValueKind::Undef, kNone, inst.resultId);
      return true;
    case spv::OpExtInst:
      // NonSemantic.Shader.DebugInfo.100 (glslang -gV) declares its sources, types and functions at module level:
      // no semantics by definition, so they are skipped as inside functions.
      if (kind_[Word(inst, 2)] == IdKind::NonSemanticExtSet) return true;
      break;
    default: break;
  }
  if (spirv::OpcodeClass(inst.opcode) == spirv::OpClass::Other) {
    if (inst.opcode >= spv::OpTypeVoid && inst.opcode <= spv::OpTypePipe) return DeclareType(inst);
    if (inst.opcode == spv::OpTypePipeStorage || inst.opcode == spv::OpTypeNamedBarrier ||
        inst.opcode == spv::OpTypeAccelerationStructureKHR || inst.opcode == spv::OpTypeRayQueryKHR)
      return DeclareType(inst);
    if ((inst.opcode >= spv::OpConstantTrue && inst.opcode <= spv::OpSpecConstantOp)) return DeclareConstant(inst);
  }
  return Fail(inst, "unsupported module-level instruction");
}

bool Lowerer::DeclareType(const SpirvInstruction& inst) {
  ir::Type type;
  auto operands = in_.OperandsOf(inst);
  switch (inst.opcode) {
    case spv::OpTypeVoid: type.kind = ir::TypeKind::Void; break;
    case spv::OpTypeBool: type.kind = ir::TypeKind::Bool; break;
    case spv::OpTypeInt:
      type.kind = ir::TypeKind::Int;
      type.width = static_cast<uint8_t>(Word(inst, 1));
      type.isSigned = Word(inst, 2) != 0;
      break;
    case spv::OpTypeFloat:
      type.kind = ir::TypeKind::Float;
      type.width = static_cast<uint8_t>(Word(inst, 1));
      break;
    case spv::OpTypeVector: case spv::OpTypeMatrix:
      type.kind = inst.opcode == spv::OpTypeVector ? ir::TypeKind::Vector : ir::TypeKind::Matrix;
      type.element = Word(inst, 1);
      type.count = Word(inst, 2);
      break;
    case spv::OpTypeArray: {
      type.kind = ir::TypeKind::Array;
      type.element = Word(inst, 1);
      uint32_t length = Word(inst, 2);
      if (kind_[length] != IdKind::Value || out_.values[index_[length]].kind != ir::ValueKind::Constant)
        return Fail(inst, "array length is not a constant in");
      type.count = static_cast<uint32_t>(out_.constants[out_.values[index_[length]].owner].bits);
      break;
    }
    case spv::OpTypeRuntimeArray: type.kind = ir::TypeKind::RuntimeArray; type.element = Word(inst, 1); break;
    case spv::OpTypeStruct:
      type.kind = ir::TypeKind::Struct;
      for (size_t m = 1; m < operands.size(); ++m) {
        type.members.push_back(Word(inst, m));
        auto d = memberDecorations_.find((uint64_t{inst.resultId} << 32) | (m - 1));
        type.memberOffsets.push_back(d != memberDecorations_.end() ? d->second.offset : kNone);
        type.memberBuiltIns.push_back(d != memberDecorations_.end() ? d->second.builtIn : kNone);
        if (d != memberDecorations_.end() && d->second.matrixStride != 0 && type.matrixStride == 0)
          type.matrixStride = d->second.matrixStride;
        if (d != memberDecorations_.end() && d->second.rowMajor) type.rowMajorMembers = true;
        type.memberMatrixStrides.push_back(d != memberDecorations_.end() ? d->second.matrixStride : 0);
        type.memberRowMajor.push_back(d != memberDecorations_.end() && d->second.rowMajor ? 1 : 0);
      }
      break;
    case spv::OpTypePointer:
      type.kind = ir::TypeKind::Pointer;
      type.storageClass = Word(inst, 1);
      type.element = Word(inst, 2);
      break;
    case spv::OpTypeImage:
      type.kind = ir::TypeKind::Image;
      type.element = Word(inst, 1);
      for (size_t k = 0; k < 6; ++k) type.image[k] = Word(inst, k + 2);
      break;
    case spv::OpTypeSampler: type.kind = ir::TypeKind::Sampler; break;
    case spv::OpTypeSampledImage: type.kind = ir::TypeKind::SampledImage; type.element = Word(inst, 1); break;
    case spv::OpTypeFunction:
      type.kind = ir::TypeKind::Function;
      for (size_t m = 1; m < operands.size(); ++m) type.members.push_back(Word(inst, m));
      break;
    case spv::OpTypeAccelerationStructureKHR: type.kind = ir::TypeKind::AccelerationStructure; break;
    default: return Fail(inst, "unsupported type");
  }
  auto d = decorations_.find(inst.resultId);
  if (d != decorations_.end()) {
    type.arrayStride = d->second.arrayStride;
    type.block = d->second.block;
  }
  kind_[inst.resultId] = IdKind::Type;
  index_[inst.resultId] = static_cast<ir::TypeId>(out_.types.size());
  out_.types.push_back(std::move(type));
  typeSpirvIds_.push_back(inst.resultId);
  return true;
}

// Types name other types by SPIR-V id until every type is known (OpTypeForwardPointer allows a pointer to a
// struct declared later); this turns those ids into TypeIds.
bool Lowerer::ResolveTypeReferences() {
  auto resolve = [this](uint32_t& ref, ir::TypeId owner) {
    if (ref >= kind_.size() || kind_[ref] != IdKind::Type) {
      char text[128];
      std::snprintf(text, sizeof text, "type %%%u refers to %%%u, which is not a type", typeSpirvIds_[owner], ref);
      *message_ = text;
      return false;
    }
    ref = index_[ref];
    return true;
  };
  for (ir::TypeId t = 0; t < out_.types.size(); ++t) {
    ir::Type& type = out_.types[t];
    if (type.element != kNone && !resolve(type.element, t)) return false;
    for (uint32_t& member : type.members)
      if (!resolve(member, t)) return false;
  }
  return true;
}

bool Lowerer::DeclareConstant(const SpirvInstruction& inst) {
  ir::Constant constant;
  auto operands = in_.OperandsOf(inst);
  switch (inst.opcode) {
    case spv::OpConstantTrue: case spv::OpSpecConstantTrue: constant.bits = 1; break;
    case spv::OpConstantFalse: case spv::OpSpecConstantFalse: constant.bits = 0; break;
    case spv::OpConstant: case spv::OpSpecConstant:
      constant.bits = Word(inst, 2);
      if (operands[2].numWords > 1) constant.bits |= uint64_t{Word(inst, 2, 1)} << 32;
      break;
    case spv::OpConstantComposite: case spv::OpSpecConstantComposite:
      for (size_t k = 2; k < operands.size(); ++k) {
        uint32_t id = Word(inst, k);
        if (kind_[id] != IdKind::Value) return Fail(inst, "constituent is not a constant in");
        constant.constituents.push_back(index_[id]);
      }
      break;
    case spv::OpConstantNull: constant.isNull = true; break;
    default: return Fail(inst, "unsupported constant instruction");
  }
  constant.isSpecialization = inst.opcode >= spv::OpSpecConstantTrue && inst.opcode <= spv::OpSpecConstantOp;
  // Types are still SPIR-V ids here; ResolveTypeReferences has not run, but every type a constant uses is declared
  // before it, so it is already in the table.
  constant.value = NewValue(TypeOf(inst.typeId), ir::ValueKind::Constant,
                            static_cast<uint32_t>(out_.constants.size()), inst.resultId);
  out_.constants.push_back(std::move(constant));
  kind_[inst.resultId] = IdKind::Value;
  index_[inst.resultId] = out_.constants.back().value;
  return true;
}

bool Lowerer::SelectEntryPoint(std::string_view name, uint32_t model) {
  std::string available;
  for (const SpirvInstruction* inst : entryPoints_) {
    std::string entryName = in_.String(*inst, in_.OperandsOf(*inst)[2]);
    if (entryName == name && Word(*inst, 0) == model) {
      entry_ = inst;
      entryFunction_ = Word(*inst, 1);
      out_.entryPoint.name = entryName;
      out_.entryPoint.executionModel = model;
      return true;
    }
    available += (available.empty() ? "" : ", ") + ("\"" + entryName + "\" (") +
                 ExecutionModelName(Word(*inst, 0)) + ")";
  }
  *message_ = "no entry point \"" + std::string(name) + "\" for execution model " + ExecutionModelName(model) +
              "; the module has " + (available.empty() ? std::string("none") : available);
  return false;
}

bool Lowerer::LowerFunction() {
  size_t start = functionStart_.at(entryFunction_);
  size_t end = start;
  // Number blocks and results first: phis and branches name later ones.
  for (; end < in_.instructions.size(); ++end) {
    const SpirvInstruction& inst = in_.instructions[end];
    if (inst.opcode == spv::OpFunctionEnd) break;
    if (inst.opcode == spv::OpLabel) {
      kind_[inst.resultId] = IdKind::Label;
      index_[inst.resultId] = static_cast<ir::BlockId>(out_.function.blocks.size());
      out_.function.blocks.emplace_back();
      out_.function.blocks.back().spirvId = inst.resultId;
    } else if (inst.resultId != 0 && inst.opcode != spv::OpFunction && inst.opcode != spv::OpFunctionParameter) {
      kind_[inst.resultId] = IdKind::Value;
      index_[inst.resultId] = NewValue(TypeOf(inst.typeId), ir::ValueKind::Instruction, kNone, inst.resultId);
      auto d = decorations_.find(inst.resultId);
      if (d != decorations_.end() && d->second.noContraction) out_.values.back().exact = true;
    } else if (inst.opcode == spv::OpFunctionParameter) {
      return Fail(inst, "entry point functions take no parameters:");
    }
  }
  ir::BlockId block = kNone;
  for (size_t i = start + 1; i < end; ++i) {
    const SpirvInstruction& inst = in_.instructions[i];
    if (inst.opcode == spv::OpLabel) {
      block = index_[inst.resultId];
      location_ = 0;  // "OpLine ... its scope ends ... at the end of the block" (SPIR-V 1.6, 2.15)
      continue;
    }
    if (inst.opcode == spv::OpLine) {
      location_ = Location(Word(inst, 0), Word(inst, 1), Word(inst, 2));
      continue;
    }
    if (inst.opcode == spv::OpNoLine) {
      location_ = 0;
      continue;
    }
    if (block == kNone) return Fail(inst, "instruction outside a block:");
    if (!LowerInstruction(inst, block)) return false;
  }
  auto& blocks = out_.function.blocks;
  for (ir::BlockId b = 0; b < blocks.size(); ++b)
    for (ir::BlockId s : blocks[b].successors) blocks[s].predecessors.push_back(b);
  return true;
}

bool Lowerer::LowerInstruction(const SpirvInstruction& inst, ir::BlockId blockId) {
  ir::Block& block = out_.function.blocks[blockId];
  switch (inst.opcode) {
    case spv::OpLine: case spv::OpNoLine: case spv::OpNop: return true;
    case spv::OpSelectionMerge:
      block.mergeKind = ir::MergeKind::Selection;
      block.mergeBlock = index_[Word(inst, 0)];
      return true;
    case spv::OpLoopMerge:
      block.mergeKind = ir::MergeKind::Loop;
      block.mergeBlock = index_[Word(inst, 0)];
      block.continueTarget = index_[Word(inst, 1)];
      block.loopControl = Word(inst, 2);
      return true;
    case spv::OpFunctionCall: {
      char text[160];
      std::snprintf(text, sizeof text, "OpFunctionCall (result %%%u) calls %%%u, which the front end did not inline",
                    inst.resultId, Word(inst, 2));
      *message_ = text;
      return false;
    }
    case spv::OpExtInst: {
      IdKind set = kind_[Word(inst, 2)];
      if (set == IdKind::NonSemanticExtSet) return true;  // debug info: no semantics by definition
      if (set != IdKind::GlslExtSet) return Fail(inst, "extended instruction set other than GLSL.std.450 in");
      break;
    }
    case spv::OpVariable: break;
    default:
      if (!spirv::IsSupportedInstruction(inst.opcode)) return Fail(inst, "unsupported instruction");
  }

  auto& values = scratchValues_;
  auto& literals = scratchLiterals_;
  values.clear();
  literals.clear();
  auto operands = in_.OperandsOf(inst);
  bool isBranch = inst.opcode == spv::OpBranch || inst.opcode == spv::OpBranchConditional ||
                  inst.opcode == spv::OpSwitch;
  for (size_t k = 0; k < operands.size(); ++k) {
    const SpirvOperand& operand = operands[k];
    switch (operand.type) {
      case SPV_OPERAND_TYPE_RESULT_ID: continue;
      case SPV_OPERAND_TYPE_TYPE_ID:
        if (k == 0 && inst.typeId != 0) continue;
        literals.push_back(TypeOf(in_.Word(inst, operand)));
        continue;
      case SPV_OPERAND_TYPE_ID: case SPV_OPERAND_TYPE_SCOPE_ID: case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID: {
        uint32_t id = in_.Word(inst, operand);
        IdKind kind = id < kind_.size() ? kind_[id] : IdKind::None;
        switch (kind) {
          case IdKind::Value: values.push_back(index_[id]); break;
          case IdKind::Label: {
            ir::BlockId target = index_[id];
            literals.push_back(target);
            if (isBranch && std::find(block.successors.begin(), block.successors.end(), target) ==
                                block.successors.end())
              block.successors.push_back(target);
            break;
          }
          case IdKind::GlslExtSet: break;
          case IdKind::Type: literals.push_back(index_[id]); break;
          default: {
            char text[160];
            std::snprintf(text, sizeof text, "operand %%%u of %s is not a value, block or type here", id,
                          spirv::OpcodeName(inst.opcode));
            *message_ = text;
            return false;
          }
        }
        continue;
      }
      default:
        for (uint32_t w = 0; w < operand.numWords; ++w) literals.push_back(in_.Word(inst, operand, w));
    }
  }
  if (values.size() + literals.size() > 0xffff) return Fail(inst, "too many operands in");
  ir::Instruction lowered;
  lowered.op = inst.opcode;
  lowered.location = location_;
  lowered.valueCount = static_cast<uint16_t>(values.size());
  lowered.operandCount = static_cast<uint16_t>(values.size() + literals.size());
  lowered.type = inst.typeId != 0 ? TypeOf(inst.typeId) : kNone;
  lowered.result = inst.resultId != 0 ? index_[inst.resultId] : kNone;
  auto& pool = out_.function.operands;
  lowered.firstOperand = static_cast<uint32_t>(pool.size());
  pool.insert(pool.end(), values.begin(), values.end());
  pool.insert(pool.end(), literals.begin(), literals.end());
  if (lowered.result != kNone) {
    out_.values[lowered.result].owner = blockId;
    out_.values[lowered.result].index = static_cast<uint32_t>(block.instructions.size());
  }
  block.instructions.push_back(lowered);
  return true;
}

void Lowerer::ReadEntryPointModes() {
  ir::EntryPoint& entry = out_.entryPoint;
  auto entryOperands = in_.OperandsOf(*entry_);
  for (size_t k = 3; k < entryOperands.size(); ++k) {
    uint32_t id = in_.Word(*entry_, entryOperands[k]);
    if (kind_[id] == IdKind::Value) entry.interface.push_back(index_[id]);
  }
  auto constantBits = [this](uint32_t id) -> uint32_t {
    if (kind_[id] != IdKind::Value || out_.values[index_[id]].kind != ir::ValueKind::Constant) return 0;
    return static_cast<uint32_t>(out_.constants[out_.values[index_[id]].owner].bits);
  };
  for (const SpirvInstruction* inst : executionModes_) {
    if (Word(*inst, 0) != entryFunction_) continue;
    auto operands = in_.OperandsOf(*inst);
    std::vector<uint32_t> mode;
    for (size_t k = 1; k < operands.size(); ++k)
      for (uint32_t w = 0; w < operands[k].numWords; ++w) mode.push_back(in_.Word(*inst, operands[k], w));
    if (mode.size() == 4 && mode[0] == spv::ExecutionModeLocalSize)
      for (int c = 0; c < 3; ++c) entry.localSize[c] = mode[1 + c];
    if (mode.size() == 4 && mode[0] == spv::ExecutionModeLocalSizeId)
      for (int c = 0; c < 3; ++c) entry.localSize[c] = constantBits(mode[1 + c]);
    entry.executionModes.push_back(std::move(mode));
  }
  // "If an object is decorated with the WorkgroupSize decoration, this takes precedence over any LocalSize or
  // LocalSizeId execution mode" (SPIR-V 1.6, BuiltIn WorkgroupSize).
  if (workgroupSizeConstant_ != 0 && kind_[workgroupSizeConstant_] == IdKind::Value) {
    const ir::Value& value = out_.values[index_[workgroupSizeConstant_]];
    if (value.kind == ir::ValueKind::Constant) {
      const ir::Constant& constant = out_.constants[value.owner];
      for (size_t c = 0; c < 3 && c < constant.constituents.size(); ++c)
        entry.localSize[c] = static_cast<uint32_t>(out_.constants[out_.values[constant.constituents[c]].owner].bits);
    }
  }
}

}  // namespace

bool LowerSpirv(const SpirvModule& spirv, std::string_view entryPoint, uint32_t executionModel, ir::Module* out,
                std::string* message) {
  Lowerer lowerer(spirv, *out, message);
  return lowerer.Run(entryPoint, executionModel);
}

}  // namespace crashtest::pipeline
