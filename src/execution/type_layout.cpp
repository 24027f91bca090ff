#include "execution/type_layout.h"

namespace crashtest::execution {

TypeLayout::TypeLayout(const ir::Module& module) : module_(module), slots_(module.types.size(), ir::kNone) {
  for (ir::TypeId t = 0; t < module.types.size(); ++t) Compute(t);
}

uint32_t TypeLayout::Compute(ir::TypeId type) {
  if (slots_[type] != ir::kNone) return slots_[type];
  const ir::Type& t = module_.types[type];
  uint32_t slots = 0;
  slots_[type] = 0;  // guards recursion through pointers to structs being computed
  switch (t.kind) {
    case ir::TypeKind::Bool: slots = 1; break;
    case ir::TypeKind::Int:
    case ir::TypeKind::Float: slots = t.width == 64 ? 2 : 1; break;
    case ir::TypeKind::Vector:
    case ir::TypeKind::Matrix:
    case ir::TypeKind::Array: slots = t.count * Compute(t.element); break;
    case ir::TypeKind::Struct:
      for (ir::TypeId member : t.members) slots += Compute(member);
      break;
    case ir::TypeKind::Pointer: slots = 2; break;
    // Descriptor values: an index into the dispatch's image table; a sampled image holds the image's and the
    // sampler's (executable.h).
    case ir::TypeKind::Image:
    case ir::TypeKind::Sampler: slots = 1; break;
    case ir::TypeKind::SampledImage: slots = 2; break;
    default: slots = 0; break;
  }
  slots_[type] = slots;
  return slots;
}

bool TypeLayout::ScalarOf(ir::TypeId type, Scalar* out) const {
  const ir::Type* t = &module_.types[type];
  while (t->kind == ir::TypeKind::Vector || t->kind == ir::TypeKind::Matrix) t = &module_.types[t->element];
  switch (t->kind) {
    case ir::TypeKind::Bool: *out = Scalar::Bool; return true;
    case ir::TypeKind::Int:
      switch (t->width) {
        case 8: *out = t->isSigned ? Scalar::S8 : Scalar::U8; return true;
        case 16: *out = t->isSigned ? Scalar::S16 : Scalar::U16; return true;
        case 32: *out = t->isSigned ? Scalar::S32 : Scalar::U32; return true;
        case 64: *out = t->isSigned ? Scalar::S64 : Scalar::U64; return true;
        default: return false;
      }
    case ir::TypeKind::Float:
      switch (t->width) {
        case 16: *out = Scalar::F16; return true;
        case 32: *out = Scalar::F32; return true;
        case 64: *out = Scalar::F64; return true;
        default: return false;
      }
    default: return false;
  }
}

uint32_t TypeLayout::Components(ir::TypeId type) const {
  const ir::Type& t = module_.types[type];
  if (t.kind == ir::TypeKind::Vector) return t.count;
  if (t.kind == ir::TypeKind::Matrix) return t.count * Components(t.element);
  return 1;
}

uint32_t TypeLayout::ScalarBytes(ir::TypeId type) const {
  const ir::Type* t = &module_.types[type];
  while (t->kind == ir::TypeKind::Vector || t->kind == ir::TypeKind::Matrix) t = &module_.types[t->element];
  if (t->kind == ir::TypeKind::Pointer) return 8;
  if (t->kind == ir::TypeKind::Bool) return 4;
  return t->width / 8;
}

uint32_t MemberMatrixLayout(const ir::Type& structType, size_t member) {
  const uint32_t stride = member < structType.memberMatrixStrides.size() ? structType.memberMatrixStrides[member] : 0;
  const bool rowMajor = member < structType.memberRowMajor.size() && structType.memberRowMajor[member] != 0;
  return stride | (rowMajor ? kRowMajor : 0u);
}

bool TypeLayout::ExplicitLeaves(ir::TypeId type, uint32_t offset, uint32_t slot, uint32_t matrixLayout,
                                std::vector<Leaf>* leaves, std::string* message) const {
  const ir::Type& t = module_.types[type];
  switch (t.kind) {
    case ir::TypeKind::Bool:
    case ir::TypeKind::Int:
    case ir::TypeKind::Float:
    case ir::TypeKind::Pointer: {
      const uint32_t bytes = t.kind == ir::TypeKind::Pointer ? 8 : t.kind == ir::TypeKind::Bool ? 4 : t.width / 8;
      leaves->push_back(Leaf{offset, static_cast<uint16_t>(bytes), static_cast<uint16_t>(slot)});
      return true;
    }
    case ir::TypeKind::Vector: {
      // Packed components, or a row-major matrix's column: components one row stride apart.
      const uint32_t bytes = (matrixLayout & kRowMajor) ? StrideOf(matrixLayout) : ScalarBytes(t.element);
      const uint32_t per = Slots(t.element);
      for (uint32_t c = 0; c < t.count; ++c)
        if (!ExplicitLeaves(t.element, offset + c * bytes, slot + c * per, 0, leaves, message)) return false;
      return true;
    }
    case ir::TypeKind::Matrix: {
      const ir::Type& column = module_.types[t.element];
      const uint32_t per = Slots(t.element);
      if (matrixLayout & kRowMajor) {
        // Row-major: column c starts c scalars into the first row; its components are a row stride apart.
        const uint32_t bytes = ScalarBytes(column.element);
        for (uint32_t c = 0; c < t.count; ++c)
          if (!ExplicitLeaves(t.element, offset + c * bytes, slot + c * per, matrixLayout, leaves, message))
            return false;
        return true;
      }
      const uint32_t stride =
          StrideOf(matrixLayout) != 0 ? StrideOf(matrixLayout) : column.count * ScalarBytes(column.element);
      for (uint32_t c = 0; c < t.count; ++c)
        if (!ExplicitLeaves(t.element, offset + c * stride, slot + c * per, 0, leaves, message)) return false;
      return true;
    }
    case ir::TypeKind::Array: {
      const uint32_t per = Slots(t.element);
      uint32_t stride = t.arrayStride;
      if (stride == 0) {
        *message = "an array in buffer memory without an ArrayStride decoration";
        return false;
      }
      for (uint32_t i = 0; i < t.count; ++i)
        if (!ExplicitLeaves(t.element, offset + i * stride, slot + i * per, matrixLayout, leaves, message))
          return false;
      return true;
    }
    case ir::TypeKind::Struct: {
      uint32_t memberSlot = slot;
      for (size_t m = 0; m < t.members.size(); ++m) {
        const uint32_t memberOffset = m < t.memberOffsets.size() ? t.memberOffsets[m] : ir::kNone;
        if (memberOffset == ir::kNone) {
          *message = "a struct member in buffer memory without an Offset decoration";
          return false;
        }
        if (!ExplicitLeaves(t.members[m], offset + memberOffset, memberSlot, MemberMatrixLayout(t, m), leaves,
                            message))
          return false;
        memberSlot += Slots(t.members[m]);
      }
      return true;
    }
    default:
      *message = "a value of this type cannot be loaded from or stored to buffer memory";
      return false;
  }
}

}  // namespace crashtest::execution
