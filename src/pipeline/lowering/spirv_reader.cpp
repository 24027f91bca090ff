#include "pipeline/lowering/spirv_reader.h"

#include <spirv/unified1/spirv.hpp>

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "pipeline/spirv_operands.h"
#include "pipeline/spirv_tables.h"

namespace crashtest::pipeline {

std::string SpirvModule::String(const SpirvInstruction& inst, const SpirvOperand& operand) const {
  // A literal string is UTF-8, NUL-terminated and padded to whole words.
  const char* begin = reinterpret_cast<const char*>(words.data() + inst.wordOffset + operand.offset);
  return std::string(begin, strnlen(begin, size_t{operand.numWords} * 4));
}

namespace {

using spirv::OperandCategory;
using spirv::OperandKind;
using spirv::OperandSpec;
using spirv::Quantifier;

constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kHeaderWords = 5;
// SPIR-V 1.6, 2.17 "Universal Limits": Result <id> bound, 4,194,303. The reader keeps one word per id.
constexpr uint32_t kMaxIdBound = 4194303;

// What the reader remembers of each id it has seen defined, one word per id: the width of a numeric type (for the
// context-dependent literals of OpConstant and OpSwitch), the type of a value (for OpSwitch's selector).
constexpr uint32_t kDefinedValue = 1u << 31;  // low bits: the value's type id, 0 when it has none (OpLabel)
constexpr uint32_t kIntType = 1u << 30;       // low bits: the width
constexpr uint32_t kFloatType = 1u << 29;     // low bits: the width
constexpr uint32_t kLowBits = (1u << 29) - 1;

// One pass over the words with the grammar's operand tables (gen_spirv_operands.py). Produces what SPIRV-Tools'
// spvBinaryParse reports — operands split the same way, with the same spv_operand_type_t — without its per-operand
// grammar look-ups and operand-pattern stacks. Ids and one-word literals, nearly all operands, take the inline path
// of ReadOperands; failures are out of line.
class Reader {
 public:
  Reader(std::span<const uint32_t> words, SpirvModule* module, std::string* message)
      : words_(words), module_(*module), message_(*message) {}

  bool Run();

 private:
  bool ReadInstruction(uint32_t offset);
  bool ReadOperands(const OperandSpec* specs, uint32_t count);
  bool ReadOtherOperand(OperandKind kind);
  bool ReadId(spv_operand_type_t type);
  bool ReadEnum(OperandKind kind, spv_operand_type_t type, OperandCategory category);
  bool ReadString();
  bool ReadContextDependentNumber();
  bool ReadSpecConstantOpcode();
  bool Push(spv_operand_type_t type, uint32_t numWords);
  // Only where the words are known to be there.
  [[gnu::always_inline]] void Emit(spv_operand_type_t type, uint32_t numWords) {
    module_.operands.push_back({static_cast<uint16_t>(pos_), static_cast<uint16_t>(numWords), type});
    pos_ += numWords;
  }
  [[gnu::cold, gnu::noinline]] bool Fail(const char* format, ...) __attribute__((format(printf, 2, 3)));
  [[gnu::cold, gnu::noinline]] bool MissingOperand(uint32_t index, OperandKind kind);
  [[gnu::cold, gnu::noinline]] bool BadId(uint32_t id);

  std::span<const uint32_t> words_;
  SpirvModule& module_;
  std::string& message_;
  std::vector<uint32_t> ids_;  // per id, see kDefinedValue
  uint32_t bound_ = 0;
  SpirvInstruction inst_{};     // the instruction being read
  const uint32_t* at_ = nullptr;  // its first word
  uint32_t pos_ = 0;            // its next word, from the instruction's start
  uint32_t end_ = 0;            // its word count
};

bool Reader::Fail(const char* format, ...) {
  char text[256];
  int prefix = std::snprintf(text, sizeof text, "SPIR-V word %u: %s: ", inst_.wordOffset,
                             spirv::OpcodeName(inst_.opcode));
  va_list args;
  va_start(args, format);
  std::vsnprintf(text + prefix, sizeof text - static_cast<size_t>(prefix), format, args);
  va_end(args);
  message_ = text;
  return false;
}

bool Reader::MissingOperand(uint32_t index, OperandKind kind) {
  return Fail("word count %u ends before operand %u (%s)", end_, index,
              spirv::kOperandKinds[static_cast<size_t>(kind)].name);
}

bool Reader::BadId(uint32_t id) {
  if (id != 0 && id < bound_) return Fail("result id %u is defined more than once", id);
  // SPIR-V 1.6, 2.2.1: "all <id>s in this module are guaranteed to satisfy 0 < id < Bound".
  return Fail("id %u (operand at word %u) is not in 1..%u, below the module's bound", id, pos_,
              bound_ > 0 ? bound_ - 1 : 0);
}

bool Reader::Run() {
  if (words_.size() < kHeaderWords) {
    message_ = "truncated module: " + std::to_string(words_.size()) + " words, the header alone takes 5";
    return false;
  }
  if (words_[0] != kMagic) {
    char text[96];
    std::snprintf(text, sizeof text, "wrong magic number 0x%08x (SPIR-V starts with 0x%08x)", words_[0], kMagic);
    message_ = text;
    return false;
  }
  module_.version = words_[1];
  module_.bound = bound_ = words_[3];
  if (bound_ > kMaxIdBound) {
    message_ = "id bound " + std::to_string(bound_) + " is above SPIR-V's limit of 4194303";
    return false;
  }
  ids_.assign(bound_, 0);
  for (size_t offset = kHeaderWords; offset < words_.size(); offset += inst_.numWords)
    if (!ReadInstruction(static_cast<uint32_t>(offset))) return false;
  return true;
}

bool Reader::ReadInstruction(uint32_t offset) {
  uint32_t first = words_[offset];
  inst_.opcode = static_cast<uint16_t>(first & 0xffff);
  inst_.numWords = static_cast<uint16_t>(first >> 16);
  inst_.wordOffset = offset;
  inst_.typeId = 0;
  inst_.resultId = 0;
  inst_.firstOperand = static_cast<uint32_t>(module_.operands.size());
  if (inst_.numWords == 0) return Fail("word count 0");
  if (inst_.numWords > words_.size() - offset)
    return Fail("word count %u runs past the end of the module (%zu words left)", inst_.numWords,
                words_.size() - offset);
  const spirv::OpcodeInfo* info = spirv::FindOpcode(inst_.opcode);
  if (info == nullptr) return Fail("opcode %u is not in the SPIR-V grammar", inst_.opcode);
  at_ = words_.data() + offset;
  pos_ = 1;
  end_ = inst_.numWords;
  if (!ReadOperands(&spirv::kOperandSpecs[info->firstOperand], info->operandCount)) return false;
  if (pos_ != end_) return Fail("word count %u, but the operands take %u words", end_, pos_);
  // At most one operand per word, so the count fits.
  inst_.operandCount = static_cast<uint16_t>(module_.operands.size() - inst_.firstOperand);
  if (inst_.resultId != 0) {
    uint32_t& id = ids_[inst_.resultId];
    id = kDefinedValue | inst_.typeId;
    if (inst_.opcode == spv::OpTypeInt || inst_.opcode == spv::OpTypeFloat) {
      uint32_t width = at_[2];  // the grammar guarantees the word: the operand was read
      id = (inst_.opcode == spv::OpTypeInt ? kIntType : kFloatType) | (width <= 64 ? width : 0);
    }
  }
  module_.instructions.push_back(inst_);
  return true;
}

// The grammar puts optional and variadic operands last, so the first one missing ends the list.
bool Reader::ReadOperands(const OperandSpec* specs, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    const OperandSpec spec = specs[i];
    if (pos_ >= end_) return spec.quantifier == Quantifier::One ? MissingOperand(i, spec.kind) : true;
    do {  // pos_ < end_ here
      switch (spec.category) {
        case OperandCategory::ResultId: {
          uint32_t id = at_[pos_];
          if (id == 0 || id >= bound_ || ids_[id] != 0) return BadId(id);
          inst_.resultId = id;
          Emit(SPV_OPERAND_TYPE_RESULT_ID, 1);
          break;
        }
        case OperandCategory::TypeId: {
          uint32_t id = at_[pos_];
          if (id == 0 || id >= bound_) return BadId(id);
          inst_.typeId = id;
          Emit(SPV_OPERAND_TYPE_TYPE_ID, 1);
          break;
        }
        case OperandCategory::Id: case OperandCategory::ScopeId: case OperandCategory::MemorySemanticsId: {
          uint32_t id = at_[pos_];
          if (id == 0 || id >= bound_) return BadId(id);
          Emit(spirv::kOperandKinds[static_cast<size_t>(spec.kind)].toolsType, 1);
          break;
        }
        case OperandCategory::LiteralInteger: case OperandCategory::LiteralExtInstNumber:
          Emit(spirv::kOperandKinds[static_cast<size_t>(spec.kind)].toolsType, 1);
          break;
        default:
          if (!ReadOtherOperand(spec.kind)) return false;
      }
    } while (spec.quantifier == Quantifier::Variadic && pos_ < end_);
  }
  return true;
}

bool Reader::Push(spv_operand_type_t type, uint32_t numWords) {
  if (numWords > end_ - pos_)
    return Fail("operand at word %u needs %u words, the instruction has %u left", pos_, numWords, end_ - pos_);
  Emit(type, numWords);
  return true;
}

// An id that may come after the instruction's last word (the second half of a pair).
bool Reader::ReadId(spv_operand_type_t type) {
  if (pos_ >= end_) return Fail("an id operand at word %u runs past the instruction's %u words", pos_, end_);
  uint32_t id = at_[pos_];
  if (id == 0 || id >= bound_) return BadId(id);
  Emit(type, 1);
  return true;
}

bool Reader::ReadOtherOperand(OperandKind kind) {
  const spirv::OperandKindInfo& info = spirv::kOperandKinds[static_cast<size_t>(kind)];
  switch (info.category) {
    case OperandCategory::LiteralString: return ReadString();
    case OperandCategory::LiteralContextDependentNumber: return ReadContextDependentNumber();
    case OperandCategory::LiteralSpecConstantOpNumber: return ReadSpecConstantOpcode();
    case OperandCategory::PairLiteralIntegerIdRef:
      return ReadContextDependentNumber() && ReadId(SPV_OPERAND_TYPE_ID);
    case OperandCategory::PairIdRefLiteralInteger:
      return ReadId(SPV_OPERAND_TYPE_ID) && Push(SPV_OPERAND_TYPE_LITERAL_INTEGER, 1);
    case OperandCategory::PairIdRefIdRef: return ReadId(SPV_OPERAND_TYPE_ID) && ReadId(SPV_OPERAND_TYPE_ID);
    case OperandCategory::ValueEnum: case OperandCategory::BitEnum:
      return ReadEnum(kind, info.toolsType, info.category);
    default: break;  // read inline by ReadOperands
  }
  return Fail("operand kind %s has no reader", info.name);
}

// An enumerant may add operands (Decoration SpecId a literal, ImageOperands Lod an id, ...); they follow it
// directly, for a bit enum in the order of the bits, lowest first (SPIR-V 1.6, 3.14 "Image Operands": "ordered by
// the least-significant bit first").
bool Reader::ReadEnum(OperandKind kind, spv_operand_type_t type, OperandCategory category) {
  uint32_t value = at_[pos_];  // ReadOperands checked the word is there
  const char* name = spirv::kOperandKinds[static_cast<size_t>(kind)].name;
  Emit(type, 1);
  spirv::EnumParameters parameters{};
  if (category == OperandCategory::ValueEnum) {
    if (!spirv::FindEnumParameters(kind, value, &parameters))
      return Fail("%s %u is not in the SPIR-V grammar", name, value);
    return parameters.count == 0 || ReadOperands(&spirv::kOperandSpecs[parameters.first], parameters.count);
  }
  const spirv::BitEnumInfo& bits = spirv::kBitEnums[static_cast<size_t>(kind)];
  if ((value & ~bits.knownBits) != 0)
    return Fail("%s 0x%x has bits the SPIR-V grammar does not define (0x%x)", name, value, value & ~bits.knownBits);
  for (uint32_t rest = value & bits.bitsWithParameters; rest != 0; rest &= rest - 1) {
    uint32_t bit = rest & (~rest + 1);
    if (!spirv::FindEnumParameters(kind, bit, &parameters) ||
        !ReadOperands(&spirv::kOperandSpecs[parameters.first], parameters.count))
      return false;
  }
  return true;
}

bool Reader::ReadString() {
  for (uint32_t w = pos_; w < end_; ++w) {
    uint32_t word = at_[w];
    // The word holding the terminating NUL is the string's last (any byte order: look for a zero byte).
    if ((word & 0xff) == 0 || (word & 0xff00) == 0 || (word & 0xff0000) == 0 || (word & 0xff000000) == 0) {
      Emit(SPV_OPERAND_TYPE_LITERAL_STRING, w - pos_ + 1);
      return true;
    }
  }
  return Fail("literal string at word %u has no terminating NUL inside the instruction", pos_);
}

// SPIR-V 1.6, 2.2.1 "Literal": a context-dependent number takes the width of the result type (OpConstant,
// OpSpecConstant) or of the selector's type (OpSwitch); "values of 32 bits or less take one word, 64-bit values two".
bool Reader::ReadContextDependentNumber() {
  uint32_t type = inst_.typeId;
  if (inst_.opcode == spv::OpSwitch) {
    uint32_t selector = at_[1];  // read as an id operand already, so below the bound
    if ((ids_[selector] & kDefinedValue) == 0 || (ids_[selector] & kLowBits) == 0)
      return Fail("selector %u is not a value defined earlier", selector);
    type = ids_[selector] & kLowBits;
  }
  uint32_t info = type != 0 ? ids_[type] : 0;
  bool numeric = (info & (kIntType | kFloatType)) != 0 && (info & kDefinedValue) == 0;
  if (!numeric || (inst_.opcode == spv::OpSwitch && (info & kIntType) == 0))
    return Fail("type %u is not a scalar %s type defined earlier", type,
                inst_.opcode == spv::OpSwitch ? "integer" : "numeric");
  uint32_t width = info & kLowBits;
  if (width == 0) return Fail("type %u has an unsupported width", type);
  return Push(SPV_OPERAND_TYPE_TYPED_LITERAL_NUMBER, (width + 31) / 32);
}

// OpSpecConstantOp's operands after the opcode are those of that opcode after its result type and result id.
bool Reader::ReadSpecConstantOpcode() {
  uint32_t opcode = at_[pos_];  // ReadOperands checked the word is there
  const spirv::OpcodeInfo* info = spirv::FindOpcode(opcode);
  const OperandSpec* specs = info != nullptr ? &spirv::kOperandSpecs[info->firstOperand] : nullptr;
  if (info == nullptr || info->operandCount < 2 || specs[0].kind != OperandKind::IdResultType ||
      specs[1].kind != OperandKind::IdResult)
    return Fail("opcode %u cannot be a specialisation constant operation", opcode);
  Emit(SPV_OPERAND_TYPE_SPEC_CONSTANT_OP_NUMBER, 1);
  return ReadOperands(specs + 2, info->operandCount - 2u);
}

}  // namespace

bool ReadSpirv(std::span<const uint32_t> words, spv_target_env, SpirvModule* module, std::string* message) {
  module->words = words;
  module->version = 0;
  module->bound = 0;
  module->instructions.clear();
  module->operands.clear();
  // Upper bounds keep the vectors from regrowing: an operand takes at least one word, and glslang's instructions
  // average about four words.
  module->instructions.reserve(words.size() / 3);
  module->operands.reserve(words.size());
  Reader reader(words, module, message);
  return reader.Run();
}

}  // namespace crashtest::pipeline
