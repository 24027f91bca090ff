// Graphics stages' Input/Output variables: built-ins and Location slots (Executable::inputs/outputs).
#include "execution/executable_builder_internal.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>

#include "execution/ops/ops.h"

namespace crashtest::execution::builder {

bool Builder::AssignInterface(const ir::Global& global, ir::TypeId pointee, uint32_t word, uint32_t words) {
  const bool input = global.storageClass == spv::StorageClassInput;
  if (global.builtIn != kNone) {
    if (input)
      x_.builtins.push_back(BuiltinInput{global.builtIn, word, words});
    else
      x_.builtinOutputs.push_back(BuiltinOutput{global.builtIn, word, words});
    return true;
  }
  const ir::Type& t = m_.types[pointee];
  if (t.kind == ir::TypeKind::Struct && !t.memberBuiltIns.empty() && t.memberBuiltIns[0] != kNone) {
    // gl_PerVertex and the like: a block of built-ins, one per member.
    uint32_t at = word;
    for (size_t i = 0; i < t.members.size(); ++i) {
      const uint32_t memberWords = layout_.Slots(t.members[i]);
      if (i < t.memberBuiltIns.size() && t.memberBuiltIns[i] != kNone) {
        if (input)
          x_.builtins.push_back(BuiltinInput{t.memberBuiltIns[i], at, memberWords});
        else
          x_.builtinOutputs.push_back(BuiltinOutput{t.memberBuiltIns[i], at, memberWords});
      }
      at += memberWords;
    }
    return true;
  }
  if (m_.entryPoint.executionModel == spv::ExecutionModelGLCompute ||
      m_.entryPoint.executionModel == spv::ExecutionModelKernel)
    return FailText("an input variable without a BuiltIn decoration (\"" + global.name + "\")");
  if (m_.entryPoint.executionModel != spv::ExecutionModelVertex &&
      m_.entryPoint.executionModel != spv::ExecutionModelFragment)
    return FailText("tessellation and geometry stages");
  if (global.location == kNone)
    return FailText("an interface block without Location decorations (\"" + global.name + "\")");
  uint32_t location = global.location;
  return AddLocations(global, pointee, &location, word, input ? &x_.inputs : &x_.outputs);
}

// "Location Assignment" (Vulkan 1.3, 15.1.4): each array element, matrix column and struct member takes the next
// location; 32-bit scalars and vectors take one each. 64-bit vectors of three or four components would take two:
// not executed yet.
bool Builder::AddLocations(const ir::Global& global, ir::TypeId type, uint32_t* location, uint32_t word,
                           std::vector<InterfaceSlot>* out) {
  const ir::Type& t = m_.types[type];
  switch (t.kind) {
    case ir::TypeKind::Array:
    case ir::TypeKind::Matrix: {
      const uint32_t stride = layout_.Slots(t.element);
      for (uint32_t i = 0; i < t.count; ++i)
        if (!AddLocations(global, t.element, location, word + i * stride, out)) return false;
      return true;
    }
    case ir::TypeKind::Struct: {
      uint32_t at = word;
      for (ir::TypeId member : t.members) {
        if (!AddLocations(global, member, location, at, out)) return false;
        at += layout_.Slots(member);
      }
      return true;
    }
    default:
      break;
  }
  Scalar kind;
  if (!layout_.ScalarOf(type, &kind) || SlotsOf(kind) != 1 || kind == Scalar::Bool)
    return FailText("an interface variable of a 64-bit or non-numeric type (\"" + global.name + "\")");
  InterfaceSlot slot;
  slot.location = (*location)++;
  slot.component = global.component;
  slot.index = global.index;
  slot.word = word;
  slot.components = static_cast<uint8_t>(layout_.Components(type));
  slot.kind = static_cast<uint8_t>(kind);
  // Integer fragment inputs must be Flat ("VUID-StandaloneSpirv-Flat-04744"); interpolating them would be wrong.
  slot.flat = global.flat || !IsFloat(kind);
  slot.noPerspective = global.noPerspective;
  slot.centroid = global.centroid;
  slot.perSample = global.perSample;
  out->push_back(slot);
  return true;
}

// InterpolateAtCentroid, InterpolateAtSample, InterpolateAtOffset: "Interpolant must be a pointer to the Input
// Storage Class" of a fragment shader. The first use reserves the private rows the rasteriser fills with each input
// word's interpolation around the pixel centre (Executable::interpolationWord).
bool Builder::EmitInterpolateAt(const ir::Instruction& inst, std::span<const uint32_t> values, uint32_t ext) {
  if (m_.entryPoint.executionModel != spv::ExecutionModelFragment)
    return Fail(inst, "an interpolation function outside a fragment shader in");
  if (values.size() < (ext == 76 ? 1u : 2u) || StorageClassOf(values[0]) != spv::StorageClassInput)
    return Fail(inst, "an interpolation function whose interpolant is not an input variable in");
  if (x_.interpolationWord == Executable::kNoWord) {
    uint32_t end = 0;
    for (const InterfaceSlot& in : x_.inputs) end = std::max(end, in.word + in.components);
    x_.interpolatedWords = end;
    x_.interpolationWord = x_.privateWords;
    x_.privateWords += 4 * end + 5;
  }
  Emit(&ops::InterpolateAt, slot_[inst.result], slot_[values[0]], ext == 76 ? 0 : slot_[values[1]], 0,
       layout_.Components(inst.type), ext);
  return true;
}

}  // namespace crashtest::execution::builder
