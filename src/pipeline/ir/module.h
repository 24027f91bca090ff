// crashtest's shader IR: one entry point, its functions inlined into one body of basic blocks in SSA form.
//
// The encoding is built for a fast interpreter and for well-defined statistics:
// - every value (constant, global variable, instruction result) has a dense ValueId, an index into
//   Module::values, so per-value side tables are plain vectors;
// - types are dense TypeIds into Module::types;
// - each block owns an array of fixed-size Instructions; their operands live in one pool per function
//   (Function::operands): first `valueCount` ValueIds, then literals (numbers, enumerants, block indices);
// - the opcode is the SPIR-V opcode (spv::Op), so names and semantics are the SPIR-V specification's; OpPhi,
//   OpSelectionMerge/OpLoopMerge and OpLabel are not instructions here: merge information lives on the block.
// Encoded size (statistics "code size"): one word for opcode and operand count, one word for the result if the
// instruction has one, one word per operand (see EncodedSizeBytes).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace crashtest::ir {

using TypeId = uint32_t;
using ValueId = uint32_t;
using BlockId = uint32_t;
inline constexpr uint32_t kNone = 0xffffffffu;

enum class TypeKind : uint8_t {
  Void, Bool, Int, Float, Vector, Matrix, Array, RuntimeArray, Struct, Pointer, Image, Sampler, SampledImage,
  Function, AccelerationStructure, Opaque,
};

struct Type {
  TypeKind kind = TypeKind::Void;
  uint8_t width = 0;        // Int/Float: bits
  bool isSigned = false;    // Int
  uint32_t element = kNone; // Vector/Matrix/Array/RuntimeArray: component, column or element type; Pointer: pointee;
                            // SampledImage: image type; Image: sampled type
  uint32_t count = 0;       // Vector: components; Matrix: columns; Array: length
  uint32_t storageClass = 0;  // Pointer: spv::StorageClass
  uint32_t arrayStride = 0;   // Array/RuntimeArray/Pointer: ArrayStride decoration (0 if absent)
  std::vector<TypeId> members;         // Struct members; Function: return type then parameter types
  std::vector<uint32_t> memberOffsets; // Struct: Offset decoration per member (kNone if absent)
  std::vector<uint32_t> memberBuiltIns; // Struct: BuiltIn decoration per member (kNone if absent)
  uint32_t matrixStride = 0;  // Struct containing matrices: MatrixStride of its first matrix member (0 if absent)
  // Struct: per member, its MatrixStride (0 if absent) and whether it is RowMajor (the layout of matrix members
  // and arrays of matrices in buffer memory).
  std::vector<uint32_t> memberMatrixStrides;
  std::vector<uint8_t> memberRowMajor;
  // Image: Dim, Depth, Arrayed, MS, Sampled, Format (spv enumerants, in OpTypeImage order).
  uint32_t image[6] = {0, 0, 0, 0, 0, 0};
  bool block = false;         // Struct: Block or BufferBlock decoration
  bool rowMajorMembers = false;  // Struct: some member is decorated RowMajor
};

enum class ValueKind : uint8_t { Constant, Undef, Global, Instruction };

struct Value {
  TypeId type = kNone;
  ValueKind kind = ValueKind::Constant;
  // Constant: index into Module::constants; Global: index into Module::globals;
  // Instruction: the block that defines it (its position is `index` within that block).
  uint32_t owner = kNone;
  uint32_t index = kNone;
  uint32_t spirvId = 0;  // for messages and the printer
  // Decorated NoContraction (GLSL's `precise`): "the result must be computed exactly as specified" — no
  // contraction into a fused operation and, in a back end (NIR's `exact`), none of the float identities that
  // ignore NaN, infinities and the sign of zero.
  bool exact = false;
};

struct Constant {
  ValueId value = kNone;
  uint64_t bits = 0;                  // scalars (bool: 0/1), zero-extended
  std::vector<ValueId> constituents;  // composites; empty with isNull for OpConstantNull of an aggregate
  bool isNull = false;
  bool isSpecialization = false;      // a spec constant that was still unfrozen (only without specialisation)
};

struct Global {
  ValueId value = kNone;
  uint32_t storageClass = 0;   // spv::StorageClass
  ValueId initializer = kNone;
  uint32_t set = kNone, binding = kNone, location = kNone, builtIn = kNone, inputAttachmentIndex = kNone;
  // Interface variables of graphics stages: the Component decoration (0 when absent) and the interpolation
  // decorations (Flat, NoPerspective, Centroid, Sample) of fragment inputs.
  uint32_t component = 0;
  // Fragment outputs: the Index decoration (0 when absent); Index 1 of Location 0 is dual-source blending's
  // second source ("Dual-Source Blending", 29.1.4).
  uint32_t index = 0;
  bool flat = false, noPerspective = false, centroid = false, perSample = false;
  std::string name;
};

struct Instruction {
  uint16_t op = 0;            // spv::Op
  uint16_t valueCount = 0;    // leading operands that are ValueIds
  uint16_t operandCount = 0;  // all operands: values, then literals
  uint16_t location = 0;      // index into Module::locations (OpLine in effect), 0 when none
  TypeId type = kNone;        // result type, kNone without a result
  ValueId result = kNone;
  uint32_t firstOperand = 0;  // index into Function::operands
};
static_assert(sizeof(Instruction) == 20);

enum class MergeKind : uint8_t { None, Selection, Loop };

struct Block {
  std::vector<Instruction> instructions;  // phis first, terminator last
  std::vector<BlockId> successors;        // in terminator order, without duplicates
  std::vector<BlockId> predecessors;
  MergeKind mergeKind = MergeKind::None;
  BlockId mergeBlock = kNone;             // OpSelectionMerge / OpLoopMerge merge target
  BlockId continueTarget = kNone;         // OpLoopMerge continue target
  uint32_t loopControl = 0;               // OpLoopMerge control mask (Unroll, DontUnroll, ...)
  uint32_t spirvId = 0;                   // label id
};

struct Function {
  std::vector<Block> blocks;   // block 0 is the entry; order is the SPIR-V order (dominators before dominated)
  std::vector<uint32_t> operands;
};

struct EntryPoint {
  std::string name;
  uint32_t executionModel = 0;       // spv::ExecutionModel
  uint32_t localSize[3] = {0, 0, 0}; // compute-like stages, after specialisation
  std::vector<std::vector<uint32_t>> executionModes;  // each: mode then its literal operands
  std::vector<ValueId> interface;
};

// Where an instruction came from in the shader's source, from OpLine (file: index into Module::sourceFiles).
struct SourceLocation {
  uint32_t file = 0;
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Module {
  std::vector<Type> types;
  std::vector<Value> values;
  std::vector<Constant> constants;
  std::vector<Global> globals;
  std::vector<std::string> valueNames;  // OpName per value ("" if none); indexed by ValueId
  EntryPoint entryPoint;
  Function function;
  std::vector<std::string> sourceFiles;      // OpString names that OpLine refers to
  std::vector<SourceLocation> locations;     // [0] is "none"; Instruction::location indexes it
  uint32_t spirvVersion = 0;

  std::span<const uint32_t> Operands(const Instruction& inst) const;
  const Type& TypeOf(ValueId value) const { return types[values[value].type]; }
  size_t InstructionCount() const;
  // Bytes of our encoding: per instruction one header word, one result word if any, one word per operand.
  size_t EncodedSizeBytes() const;
};

inline std::span<const uint32_t> Module::Operands(const Instruction& inst) const {
  return {function.operands.data() + inst.firstOperand, inst.operandCount};
}

}  // namespace crashtest::ir
