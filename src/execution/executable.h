// The executable form of a shader: crashtest's optimised IR translated once, at pipeline creation, into pre-decoded
// operations over register slots, so the interpreter (interpreter.h) never looks at the IR again.
//
// Registers. Every IR value (constant, global pointer, instruction result) owns `SlotCount(type)` consecutive
// 32-bit slots; a subgroup keeps each slot as an array of its lanes (`regs[slot * width + lane]`), so an operation
// over a vec4 is one loop over 4 * width contiguous words that the C++ compiler vectorises. 64-bit scalars take two
// slots (low word, then high word), 8- and 16-bit scalars one slot each (zero-extended bit pattern), booleans one
// slot (0 or 1), composites their members in order. Constants are written into their slots once per dispatch.
//
// Memory. Pointers are 64-bit values whose meaning the pointer's storage class fixes at build time:
//   StorageBuffer, Uniform, PushConstant  (descriptor slot << 40) | byte offset in that descriptor's range
//   PhysicalStorageBuffer                 the device address
//   Workgroup                             word offset in the workgroup's memory
//   UniformConstant (images, samplers)    the index of the descriptor in the dispatch's image table
//   Image (OpImageTexelPointer)           ((table index + 1) << 40) | byte offset of the texel from the view's
//                                         first texel; byte offset 2^40 - 1 for a texel outside the image
//   Function, Private, Input, Output      word offset in the invocation's private memory
// Null pointers (OpConstantNull of a pointer type, VK_KHR_variable_pointers' variablePointers) are values no access
// resolves, so that dereferencing one is a fault (READ_INVALID / WRITE_INVALID) like any other bad access:
//   StorageBuffer, Uniform, PushConstant  descriptor slot 2^24 - 1 (no dispatch has that many), byte offset 0
//   Workgroup                             high word set (workgroup offsets are 32-bit)
//   PhysicalStorageBuffer                 device address 0 (never allocated)
//   others                                all ones (outside every invocation's private memory)
// Buffer memory has the application's explicit layout (Offset, ArrayStride, MatrixStride decorations); workgroup
// and private memory use the slot layout (one word per slot), so a load from them copies slots.
//
// Control flow. Blocks are stored in structured order (a depth-first order that visits a construct's merge
// block after everything inside the construct), so a subgroup walks them front to back with an execution mask per
// block and reconverges at merge blocks; only loop back edges go backwards (interpreter.cpp).
//
// Instruction pointers. An operation's index in `ops` is the "instruction address" that fault reports name;
// `sites` maps it back to the IR block and instruction and the SPIR-V result id.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace crashtest::execution {

struct SubgroupState;
struct Op;
using OpHandler = void (*)(const Op& op, SubgroupState& state);

struct Op {
  OpHandler fn = nullptr;
  uint32_t dst = 0;      // result slot
  uint32_t a = 0, b = 0, c = 0;  // operand slots (or immediates, per handler)
  uint32_t n = 0;        // components, slots or bytes (per handler)
  uint32_t aux = 0;      // per handler: an index into Executable::extra, a width, an enumerant
  uint32_t site = 0;     // index into Executable::sites
};

enum class Terminator : uint8_t { Branch, CondBranch, Switch, Return, Kill, Unreachable };

// A phi copy on a control-flow edge: `count` slots from `src` to `dst`, for the lanes taking the edge.
struct EdgeCopy {
  uint32_t dst = 0, src = 0, count = 0;
};

struct Edge {
  uint32_t target = 0;  // block position in Executable::blocks
  uint32_t firstCopy = 0, copyCount = 0;
  // The copies read phis of the target that earlier copies of the same edge write (a swap across a loop's back
  // edge): they go through the temporary slots first.
  bool parallel = false;
};

struct BlockCode {
  uint32_t firstOp = 0, opCount = 0;
  Terminator terminator = Terminator::Return;
  uint32_t condition = 0;  // CondBranch: the boolean slot; Switch: the selector's first slot
  uint8_t selectorSlots = 1;  // Switch: 1, or 2 for a 64-bit selector
  uint32_t firstEdge = 0, edgeCount = 0;  // CondBranch: true, false; Switch: default, then each case
  uint32_t firstCase = 0;  // Switch: edgeCount - 1 values in caseValues
  uint32_t irBlock = 0;    // the IR block it came from
};

// One scalar of a value in explicit-layout memory: `bytes` at `offset` from the pointer, in slot `slot` of the
// value (64-bit scalars fill slot and slot + 1).
struct Leaf {
  uint32_t offset = 0;
  uint16_t bytes = 4;
  uint16_t slot = 0;
};

// Where a typed access (load, store) lands in explicit-layout memory: leaves [firstLeaf, firstLeaf + leafCount)
// of Executable::leaves, and the bytes from the pointer the access may touch (its bounds check).
struct MemoryAccess {
  uint32_t firstLeaf = 0, leafCount = 0;
  uint32_t extent = 0;
};

// A buffer descriptor the shader reads: the descriptor slots [firstSlot, firstSlot + count) of the dispatch's
// table (slot 0 is the push-constant block). `count` is 0 for a runtime-sized descriptor array: the set decides
// its count, and the dispatch places it after the fixed slots and patches its global pointer (pointerSlot).
struct BufferBinding {
  uint32_t set = 0, binding = 0;
  uint32_t firstSlot = 0, count = 1;
  uint32_t pointerSlot = 0;  // the global's register slots
  bool uniform = false;  // Uniform storage class (uniform buffer), else storage buffer
  uint32_t global = 0;   // IR global index, for messages
};

// An image, sampler or texel-buffer descriptor the shader reads: entries [firstSlot, firstSlot + count) of the
// dispatch's image table (sampling::ImageTableEntry). An image or sampler value is its entry's index in one slot;
// a sampled image is two slots (the image's entry, then the sampler's; both the same for a combined descriptor).
struct ImageBinding {
  uint32_t set = 0, binding = 0;
  uint32_t firstSlot = 0, count = 1;  // count 0: a runtime-sized array, as for BufferBinding
  uint32_t pointerSlot = 0;
  uint32_t global = 0;  // IR global index, for messages
};

inline constexpr uint32_t kNoSlot = 0xffffffffu;

// The null pointer of a storage class (see the top of this file); a null-derived pointer (one OpPtrAccessChain
// stepped) keeps the part that makes it invalid.
inline constexpr uint32_t kNullDescriptorSlot = 0xffffffu;
inline constexpr uint64_t NullPointer(uint32_t storageClass) {
  switch (storageClass) {
    case 12: case 2: case 9: return uint64_t{kNullDescriptorSlot} << 40;  // StorageBuffer, Uniform, PushConstant
    case 4: return uint64_t{0xffffffffu} << 32;                          // Workgroup
    case 5349: return 0;                                                 // PhysicalStorageBuffer
    default: return ~uint64_t{0};
  }
}

// The operands of one image instruction beyond the image (Op::a) and the coordinate (Op::b): which optional image
// operands it has (their slots, kNoSlot when absent) and how to read and write values.
struct ImageInstruction {
  uint8_t dim = 1;               // spv::Dim of the image type
  bool arrayed = false;
  bool multisampled = false;
  bool proj = false;             // the Proj variants: coordinates are divided by their last component
  bool compare = false;          // the Dref variants
  bool gather = false;           // OpImageGather / OpImageDrefGather
  bool integerCoordinates = false;
  bool implicitLod = false;      // a fragment shader's *ImplicitLod: the LOD comes from the quad's derivatives
  uint8_t coordinateCount = 0;   // components of the coordinate operand
  uint8_t valueCount = 4;        // components of the result (or of the texel written)
  uint8_t valueKind = 0;         // the result's (or written texel's) Scalar (lane_access.h)
  uint8_t gradCount = 0, offsetCount = 0;
  uint32_t dref = kNoSlot, texel = kNoSlot, component = kNoSlot;
  uint32_t lod = kNoSlot, bias = kNoSlot, gradX = kNoSlot, gradY = kNoSlot, offset = kNoSlot, sample = kNoSlot,
           minLod = kNoSlot;
  uint32_t gatherOffsets = kNoSlot;  // ConstOffsets: four ivec2 in eight slots
};

// A built-in input variable, written into each invocation's private memory before it starts.
struct BuiltinInput {
  uint32_t builtIn = 0;  // spv::BuiltIn
  uint32_t word = 0;     // private-memory word offset
  uint32_t words = 1;    // its slot count
};

// One location of a graphics stage's user-defined (Location-decorated) input or output, in the invocation's
// private memory: `components` consecutive words from `word` hold components [component, component + components)
// of the location. A vertex input is filled from its attribute, a fragment input interpolated from the vertex
// stage's output of the same location and component, a fragment output blended into colour attachment `location`.
struct InterfaceSlot {
  uint32_t location = 0;
  uint32_t component = 0;
  uint32_t index = 0;        // fragment outputs: the Index decoration (1: dual-source blending's second source)
  uint32_t word = 0;
  uint8_t components = 4;
  uint8_t kind = 0;          // the components' Scalar (ops/lane_access.h)
  bool flat = false;         // Flat (or an integer, which must be Flat): the provoking vertex's value
  bool noPerspective = false;
  bool centroid = false;     // Centroid: interpolated inside the primitive's coverage of the pixel
  bool perSample = false;    // Sample: interpolated at the sample shaded (and the shader runs per sample)
};

// A built-in output (Position, PointSize, ClipDistance, CullDistance, FragDepth, SampleMask, ...) in the
// invocation's private memory.
struct BuiltinOutput {
  uint32_t builtIn = 0;
  uint32_t word = 0;
  uint32_t words = 1;
};

// Where an operation came from: for fault reports and the IR listing.
struct Site {
  uint32_t irBlock = 0, irIndex = 0;
  uint32_t spirvId = 0;   // the result id (0 for instructions without a result)
  uint16_t spirvOp = 0;
  uint32_t line = 0;      // source line from OpLine (0: unknown), in sourceFiles[file]
  uint32_t column = 0;
  uint32_t file = 0;
};

struct Executable {
  std::string entryPoint;
  uint32_t localSize[3] = {1, 1, 1};

  std::vector<Op> ops;
  std::vector<BlockCode> blocks;  // structured order; blocks[0] is the entry
  std::vector<Edge> edges;
  std::vector<EdgeCopy> copies;
  std::vector<uint64_t> caseValues;
  std::vector<uint32_t> extra;    // variable-length operands of some operations
  std::vector<Leaf> leaves;
  std::vector<MemoryAccess> accesses;
  std::vector<Site> sites;
  std::vector<std::string> sourceFiles;

  uint32_t slotCount = 0;
  uint32_t tempSlot = 0, tempSlots = 0;      // scratch for parallel phi copies and multi-step operations
  std::vector<uint32_t> constantWords;       // initial value of slots [0, constantWords.size())
  uint32_t privateWords = 0;                 // per invocation
  uint32_t sharedWords = 0;                  // per workgroup
  std::vector<BufferBinding> buffers;
  uint32_t bufferSlots = 1;                  // descriptor slots, push constants included (fixed-size arrays)
  std::vector<ImageBinding> images;
  uint32_t imageSlots = 0;                   // entries of the image table (fixed-size arrays)
  std::vector<ImageInstruction> imageInstructions;
  std::vector<BuiltinInput> builtins;
  // Graphics stages: the execution model (spv::ExecutionModel), user-defined inputs and outputs by location,
  // built-in outputs, and whether fragment quads must keep their helper lanes for derivatives.
  uint32_t executionModel = 5;  // GLCompute
  std::vector<InterfaceSlot> inputs, outputs;
  std::vector<BuiltinOutput> builtinOutputs;
  bool usesDerivatives = false;
  // Fragment shaders using InterpolateAtCentroid/Sample/Offset: the rasteriser writes, per lane, each input word
  // w's interpolation around the pixel centre into private rows interpolationWord + 4 w + {0: value (or numerator)
  // at the centre, 1: step per pixel in x, 2: step in y, 3: 1.0 for perspective division, else 0.0}, for w below
  // interpolatedWords; then, at interpolationWord + 4 interpolatedWords, the reciprocal w at the centre, its x and y
  // steps, and the lane's centroid offset (x, y) from the centre. kNoWord: not used.
  static constexpr uint32_t kNoWord = ~0u;
  uint32_t interpolationWord = kNoWord;
  uint32_t interpolatedWords = 0;
  // Fragment shaders with the EarlyFragmentTests execution mode: depth and stencil tests run before the shader.
  bool earlyFragmentTests = false;
  bool usesBarriers = false;
  bool usesSubgroupOps = false;
  bool usesPhysicalAddresses = false;
};

}  // namespace crashtest::execution
