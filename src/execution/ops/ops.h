// The operation kernels by family, as the executable builder selects them: each factory returns the handler for
// an opcode and its component types, or nullptr when the interpreter has none (the builder then reports the
// instruction as not executed). Every kernel is a tight loop over the subgroup's lanes; undefined behaviour in the
// shader (division by zero, over-wide shifts, out-of-range conversions) gives a defined value, never host UB.
#pragma once

#include <cstddef>
#include <cstdint>

#include "execution/executable.h"
#include "execution/ops/lane_access.h"

namespace crashtest::execution::ops {

// ops_arithmetic.cpp. Operands and result have the same component type unless named.
OpHandler Unary(uint32_t spvOp, Scalar operand, Scalar result);
OpHandler Binary(uint32_t spvOp, Scalar operand, Scalar second, Scalar result);
OpHandler Convert(uint32_t spvOp, Scalar from, Scalar to);
// OpBitFieldInsert (a base, b insert, c offset, aux count slot) and the extracts (a base, b offset, c count).
OpHandler BitField(uint32_t spvOp, Scalar kind);
// OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: a two-member struct of op.n components each.
OpHandler WideArithmetic(uint32_t spvOp, Scalar kind);
// OpSDot/OpUDot/OpSUDot and the AccSat forms (aux packs signedness and widths, see ops_arithmetic.cpp).
OpHandler IntegerDot();

// ops_glsl.cpp: GLSL.std.450 instruction `ext` on components of `kind` (a = first operand, b, c the others).
// Componentwise ones use op.n components; the others (Length, Cross, ...) read the vector size from op.aux.
OpHandler Glsl(uint32_t ext, Scalar kind, uint32_t argumentCount);

// ops_composite.cpp
void Copy(const Op& op, SubgroupState& s);            // n slots a -> dst
void Repack(const Op& op, SubgroupState& s);          // OpBitcast between component sizes (see ops_composite.cpp)
void Select(const Op& op, SubgroupState& s);          // dst = a(bool, per component if aux) ? b : c, n slots per part
void Shuffle(const Op& op, SubgroupState& s);         // dst[i] = slot extra[aux + i] (n slots) — extract/shuffle
void ExtractDynamic(const Op& op, SubgroupState& s);  // dst = a[b] (component index, n slots per component, aux count)
void InsertDynamic(const Op& op, SubgroupState& s);   // dst = a with a[c] = b
OpHandler Dot(Scalar kind);                           // dst = dot(a, b), n components
OpHandler VectorTimesScalar(Scalar kind);             // dst = a * b (b scalar), n components
OpHandler MatrixTimesVector(Scalar kind);             // a: aux columns of n rows; b: aux components
OpHandler VectorTimesMatrix(Scalar kind);             // a: aux rows; b: n columns of aux rows
OpHandler MatrixTimesMatrix(Scalar kind);             // a: extra[aux] = {rows, inner}; b: n columns
OpHandler OuterProduct(Scalar kind);                  // a: n rows, b: aux columns
OpHandler Transpose(Scalar kind);                     // a: aux columns of n rows

// ops_memory.cpp. a = pointer slot(s); the access is Executable::accesses[aux] for explicit-layout memory.
OpHandler Load(uint32_t storageClass);
OpHandler Store(uint32_t storageClass);
void AccessChain(const Op& op, SubgroupState& s);     // extra[aux..]: see executable_builder.cpp
void AccessChainUniformBase(const Op& op, SubgroupState& s);  // one 32-bit index into a global (same extra)
void ArrayLength(const Op& op, SubgroupState& s);
void PointerCompare(const Op& op, SubgroupState& s);  // OpPtrEqual (aux 0) / OpPtrNotEqual (aux 1): (a == b) ^ aux
void PointerDiff(const Op& op, SubgroupState& s);     // OpPtrDiff: dst (aux slots) = (a - b) / n, signed
OpHandler Atomic(uint32_t spvOp, uint32_t storageClass, Scalar kind);
// ops_fused_memory.cpp: memory accesses fused with their address. LoadElement/StoreElement: for buffers, one
// 32-bit word at `global[i]`; for workgroup memory, op.n words through any chain of 32-bit indices. a = the access
// chain's own slot (written only when the general path runs), b = the value stored, c = the index in
// Executable::extra of {the global's pointer slot, the chain's extra (AccessChain's)}, aux = the access (buffers). LoadFixed: a = a pointer slot the same in every lane (a global's, or one plus constant
// indices), aux = the access.
OpHandler LoadElement(uint32_t storageClass);
OpHandler StoreElement(uint32_t storageClass);
OpHandler LoadFixed(uint32_t storageClass);
void LoadPrivateFixed(const Op& op, SubgroupState& s);  // the same for Function, Private, Input, Output memory
void Barrier(const Op& op, SubgroupState& s);         // OpControlBarrier with Workgroup execution scope
void Nothing(const Op& op, SubgroupState& s);         // memory barriers: execution is already in order

// ops_image.cpp. a = the image (or sampled image, or for texel pointers the image variable's pointer), b = the
// coordinate, aux = the index of the instruction's ImageInstruction (executable.h); results in n components.
void LoadDescriptor(const Op& op, SubgroupState& s);    // dst (n slots) = the table index of pointer a
void ImageRead(const Op& op, SubgroupState& s);         // OpImageRead and OpImageFetch
void ImageWrite(const Op& op, SubgroupState& s);
// The same with a 64-bit integer texel (Int64ImageEXT: R64_UINT / R64_SINT images and texel buffers).
void ImageReadWide(const Op& op, SubgroupState& s);
void ImageWriteWide(const Op& op, SubgroupState& s);
void ImageSample(const Op& op, SubgroupState& s);       // OpImageSample*, OpImageGather, OpImageDrefGather
void ImageQuerySize(const Op& op, SubgroupState& s);    // OpImageQuerySize(Lod): n components
void ImageQueryLevels(const Op& op, SubgroupState& s);
void ImageQuerySamples(const Op& op, SubgroupState& s);
void ImageTexelPointer(const Op& op, SubgroupState& s);
// The host bytes an Image-storage-class pointer (OpImageTexelPointer) designates, or nullptr for a texel outside
// the image or an unbound descriptor.
std::byte* ImageTexelHost(const SubgroupState& s, uint64_t pointer, uint64_t bytes);

// ops_fragment.cpp: fragment-shader operations on 2x2 quads of lanes (lanes 4q..4q+3 are the quad's pixels in
// the order (0,0), (1,0), (0,1), (1,1)). Derivative: OpDPdx/OpDPdy/OpFwidth and their Fine/Coarse forms (op.aux is
// the opcode), n components of a. Demote: OpDemoteToHelperInvocation. IsHelperInvocation: a bool in dst.
void Derivative(const Op& op, SubgroupState& s);
void Demote(const Op& op, SubgroupState& s);
void IsHelperInvocation(const Op& op, SubgroupState& s);
// InterpolateAtCentroid/Sample/Offset (GLSL.std.450 76, 77, 78 in op.aux): n components of the input that pointer
// a (a private word per lane) designates, interpolated at the lane's centroid, at sample b (an index) or at offset
// b (two float slots) from the pixel centre, from the rows the rasteriser wrote (Executable::interpolationWord).
void InterpolateAt(const Op& op, SubgroupState& s);

// ops_clock.cpp: OpReadClockKHR, a 64-bit value (or two 32-bit components) in two slots.
void ReadClock(const Op& op, SubgroupState& s);

// ops_subgroup.cpp
OpHandler Subgroup(uint32_t spvOp, uint32_t groupOperation, Scalar kind);

}  // namespace crashtest::execution::ops
