// Image instructions: reads, writes, fetches, samples, gathers, queries.
#include "execution/executable_builder_internal.h"

#include <spirv/unified1/spirv.hpp>

#include "execution/ops/ops.h"

namespace crashtest::execution::builder {

// The image type behind an image, sampled image or pointer to either.
const ir::Type* Builder::ImageTypeOf(ir::ValueId v) const {
  const ir::Type* t = &TypeOf(v);
  while (t->kind == ir::TypeKind::Pointer || t->kind == ir::TypeKind::Array) t = &m_.types[t->element];
  if (t->kind == ir::TypeKind::SampledImage) t = &m_.types[t->element];
  return t->kind == ir::TypeKind::Image ? t : nullptr;
}

// Image instructions: the fixed operands, then the optional image operands in the order of their mask bits
// (SPIR-V 2.2 "Image Operands": Bias, Lod, Grad (two), ConstOffset, Offset, ConstOffsets, Sample, MinLod,
// MakeTexelAvailable and MakeTexelVisible (a scope each), then operands without ids, Offsets).
bool Builder::EmitImage(const ir::Instruction& inst, std::span<const uint32_t> operands) {
  auto values = operands.first(inst.valueCount);
  auto literals = operands.subspan(inst.valueCount);
  const spv::Op op = static_cast<spv::Op>(inst.op);
  const ir::Type* image = ImageTypeOf(values[0]);
  if (image == nullptr) return Fail(inst, "an image operand of an unexpected type in");
  ImageInstruction ii;
  ii.dim = static_cast<uint8_t>(image->image[0]);
  ii.arrayed = image->image[2] != 0;
  ii.multisampled = image->image[3] != 0;
  // Subpass inputs are read with OpImageRead only, at the fragment's pixel plus the (constant) coordinate.
  if (ii.dim == spv::DimSubpassData && (op != spv::OpImageRead ||
                                         m_.entryPoint.executionModel != spv::ExecutionModelFragment))
    return Fail(inst, "a subpass input outside a fragment shader's OpImageRead in");
  const uint32_t dst = inst.result != kNone ? slot_[inst.result] : 0;
  Scalar kind = Scalar::F32;
  if (inst.type != kNone) layout_.ScalarOf(inst.type, &kind);
  auto addInstruction = [&]() {
    x_.imageInstructions.push_back(ii);
    return static_cast<uint32_t>(x_.imageInstructions.size() - 1);
  };

  switch (op) {
    case spv::OpImageQuerySizeLod: case spv::OpImageQuerySize:
      if (op == spv::OpImageQuerySizeLod) ii.lod = slot_[values[1]];
      Emit(&ops::ImageQuerySize, dst, slot_[values[0]], 0, 0, layout_.Components(inst.type), addInstruction());
      return true;
    case spv::OpImageQueryLevels:
      Emit(&ops::ImageQueryLevels, dst, slot_[values[0]], 0, 0, 1, 0);
      return true;
    case spv::OpImageQuerySamples:
      Emit(&ops::ImageQuerySamples, dst, slot_[values[0]], 0, 0, 1, 0);
      return true;
    default:
      break;
  }

  // Fixed operands after the image and the coordinate.
  size_t next = 2;
  const ir::TypeId coordinate = m_.values[values[1]].type;
  ii.coordinateCount = static_cast<uint8_t>(layout_.Components(coordinate));
  Scalar coordinateKind = Scalar::F32;
  layout_.ScalarOf(coordinate, &coordinateKind);
  if (BitsOf(coordinateKind) != 32) return Fail(inst, "coordinates that are not 32-bit in");
  ii.integerCoordinates = !IsFloat(coordinateKind);
  switch (op) {
    case spv::OpImageSampleDrefImplicitLod: case spv::OpImageSampleDrefExplicitLod:
    case spv::OpImageSampleProjDrefImplicitLod: case spv::OpImageSampleProjDrefExplicitLod:
    case spv::OpImageDrefGather:
      ii.dref = slot_[values[next++]];
      ii.compare = true;
      break;
    case spv::OpImageGather:
      ii.component = slot_[values[next++]];
      break;
    case spv::OpImageWrite: {
      const ir::ValueId texel = values[next++];
      ii.texel = slot_[texel];
      ii.valueCount = static_cast<uint8_t>(layout_.Components(m_.values[texel].type));
      layout_.ScalarOf(m_.values[texel].type, &kind);
      break;
    }
    case spv::OpImageTexelPointer:
      if (values.size() > 2 && ii.multisampled) ii.sample = slot_[values[2]];
      next = values.size();
      break;
    default:
      break;
  }
  ii.proj = op == spv::OpImageSampleProjImplicitLod || op == spv::OpImageSampleProjExplicitLod ||
            op == spv::OpImageSampleProjDrefImplicitLod || op == spv::OpImageSampleProjDrefExplicitLod;
  ii.gather = op == spv::OpImageGather || op == spv::OpImageDrefGather;
  // Implicit LOD in a fragment shader comes from the quad's derivatives of the coordinate; elsewhere (compute)
  // there are no neighbours and the level is the base level.
  ii.implicitLod = m_.entryPoint.executionModel == spv::ExecutionModelFragment &&
                   (op == spv::OpImageSampleImplicitLod || op == spv::OpImageSampleDrefImplicitLod ||
                    op == spv::OpImageSampleProjImplicitLod || op == spv::OpImageSampleProjDrefImplicitLod);
  if (ii.implicitLod) x_.usesDerivatives = true;

  // Optional image operands.
  const uint32_t mask = literals.empty() || op == spv::OpImageTexelPointer ? 0u : literals[0];
  auto take = [&]() { return next < values.size() ? slot_[values[next++]] : kNoSlot; };
  auto components = [&]() { return next < values.size() ? layout_.Components(m_.values[values[next]].type) : 0u; };
  if (mask & spv::ImageOperandsBiasMask) ii.bias = take();
  if (mask & spv::ImageOperandsLodMask) ii.lod = take();
  if (mask & spv::ImageOperandsGradMask) {
    ii.gradCount = static_cast<uint8_t>(components());
    ii.gradX = take();
    ii.gradY = take();
  }
  if (mask & spv::ImageOperandsConstOffsetMask) {
    ii.offsetCount = static_cast<uint8_t>(components());
    ii.offset = take();
  }
  if (mask & spv::ImageOperandsOffsetMask) {
    ii.offsetCount = static_cast<uint8_t>(components());
    ii.offset = take();
  }
  if (mask & spv::ImageOperandsConstOffsetsMask) ii.gatherOffsets = take();
  if (mask & spv::ImageOperandsSampleMask) ii.sample = take();
  if (mask & spv::ImageOperandsMinLodMask) ii.minLod = take();
  if (mask & 0x10000u) return Fail(inst, "the Offsets image operand in");
  // MakeTexelAvailable/Visible scopes, NonPrivate, Volatile, SignExtend, ZeroExtend, Nontemporal: execution is
  // in order and coherent already; texels convert by the view's format.

  if (op != spv::OpImageWrite) ii.valueCount = static_cast<uint8_t>(std::min(4u, layout_.Components(inst.type)));
  // 64-bit texels: integer ones through OpImageRead/Fetch/Write only (SPIR-V Int64ImageEXT; Vulkan allows a 64-bit
  // Sampled Type for R64_UINT and R64_SINT, never for sampling or with a float type).
  const bool wide = BitsOf(kind) == 64;
  if (wide && (IsFloat(kind) || (op != spv::OpImageRead && op != spv::OpImageFetch && op != spv::OpImageWrite)))
    return Fail(inst, op == spv::OpImageWrite ? "a 64-bit texel in" : "a 64-bit texel result in");
  ii.valueKind = static_cast<uint8_t>(kind);

  switch (op) {
    case spv::OpImageRead: case spv::OpImageFetch:
      Emit(wide ? &ops::ImageReadWide : &ops::ImageRead, dst, slot_[values[0]], slot_[values[1]], 0,
           ii.valueCount * SlotsOf(kind), addInstruction());
      return true;
    case spv::OpImageWrite:
      Emit(wide ? &ops::ImageWriteWide : &ops::ImageWrite, 0, slot_[values[0]], slot_[values[1]], 0, ii.valueCount,
           addInstruction());
      return true;
    case spv::OpImageTexelPointer:
      Emit(&ops::ImageTexelPointer, dst, slot_[values[0]], slot_[values[1]], 0, 2, addInstruction());
      return true;
    default:
      if (ii.integerCoordinates && ii.dim != spv::DimRect) return Fail(inst, "integer sampling coordinates in");
      Emit(&ops::ImageSample, dst, slot_[values[0]], slot_[values[1]], 0, ii.valueCount, addInstruction());
      return true;
  }
}

}  // namespace crashtest::execution::builder
