// Loads, stores and access chains: private words, workgroup memory and explicit-layout buffers.
#include "execution/executable_builder_internal.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>

#include "execution/ops/ops.h"

namespace crashtest::execution::builder {

uint32_t Builder::AccessFor(ir::TypeId pointee, uint32_t matrixLayout, std::string* why) {
  MemoryAccess access;
  access.firstLeaf = static_cast<uint32_t>(x_.leaves.size());
  if (!layout_.ExplicitLeaves(pointee, 0, 0, matrixLayout, &x_.leaves, why)) return kNone;
  access.leafCount = static_cast<uint32_t>(x_.leaves.size()) - access.firstLeaf;
  for (uint32_t i = access.firstLeaf; i < x_.leaves.size(); ++i)
    access.extent = std::max(access.extent, x_.leaves[i].offset + x_.leaves[i].bytes);
  x_.accesses.push_back(access);
  return static_cast<uint32_t>(x_.accesses.size() - 1);
}

bool Builder::EmitMemoryAccess(const ir::Instruction& inst, bool store, ir::ValueId pointer, uint32_t valueSlot,
                               uint32_t resultSlot) {
  const ir::Type& pointerType = TypeOf(pointer);
  const uint32_t storageClass = pointerType.storageClass;
  const uint32_t slots = layout_.Slots(pointerType.element);
  if (storageClass == spv::StorageClassUniformConstant && !store) {
    // Loading an image, sampler or sampled image: its table index (twice for a combined image sampler).
    Emit(&ops::LoadDescriptor, resultSlot, slot_[pointer], 0, 0, slots, 0);
    return true;
  }
  OpHandler fn = store ? ops::Store(storageClass) : ops::Load(storageClass);
  if (fn == nullptr) return Fail(inst, store ? "a store to this storage class:" : "a load from this storage class:");
  uint32_t access = 0;
  const bool explicitLayout = IsExplicit(storageClass);
  if (explicitLayout) {
    std::string why;
    // A pointer to a matrix carries no MatrixStride of its own; the access chain that produced it recorded it.
    uint32_t matrixLayout = 0;
    auto stride = matrixLayouts_.find(pointer);
    if (stride != matrixLayouts_.end()) matrixLayout = stride->second;
    access = AccessFor(pointerType.element, matrixLayout, &why);
    if (access == kNone) return Fail(inst, (why + " in").c_str());
  } else if (!IsPrivateMemory(storageClass) && storageClass != spv::StorageClassWorkgroup) {
    return Fail(inst, "a memory access of this storage class in");
  }
  if (fusedChain_[pointer] != kNone) {
    // `global[i]`, its address computed here (EmitAccessChain emitted nothing for it).
    fn = store ? ops::StoreElement(storageClass) : ops::LoadElement(storageClass);
    Emit(fn, resultSlot, slot_[pointer], valueSlot, fusedChain_[pointer], slots, access);
    return true;
  }
  if (!store && uniformPointer_[pointer]) {
    if (explicitLayout) {
      if (OpHandler fixed = ops::LoadFixed(storageClass)) fn = fixed;
    } else if (IsPrivateMemory(storageClass)) {
      fn = &ops::LoadPrivateFixed;
    }
  }
  Emit(fn, resultSlot, slot_[pointer], valueSlot, 0, slots, access);
  return true;
}

// Access chains become one affine computation: base + static offset + sum(index * stride). The first index of a
// chain whose base is an array of buffer blocks selects the descriptor (stride 1 << 40, see executable.h).
bool Builder::EmitAccessChain(const ir::Instruction& inst, std::span<const uint32_t> operands) {
  const ir::ValueId base = operands[0];
  const ir::Type& baseType = TypeOf(base);
  const uint32_t storageClass = baseType.storageClass;
  const bool explicitLayout = IsExplicit(storageClass);
  const bool ptrChain = inst.op == spv::OpPtrAccessChain || inst.op == spv::OpInBoundsPtrAccessChain;
  uint64_t offset = 0;
  std::vector<std::pair<ir::ValueId, uint64_t>> terms;
  auto add = [&](ir::ValueId index, uint64_t stride) {
    const ir::Value& v = m_.values[index];
    if (v.kind == ir::ValueKind::Constant) {
      const ir::Constant& c = m_.constants[v.owner];
      const ir::Type& t = m_.types[v.type];
      int64_t i = t.width == 64 ? static_cast<int64_t>(c.bits)
                                : static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(c.bits)));
      if (t.width < 32 && t.isSigned) i = static_cast<int64_t>(static_cast<int16_t>(c.bits));
      offset += static_cast<uint64_t>(i) * stride;
    } else if (stride != 0) {
      terms.push_back({index, stride});
    }
  };
  ir::TypeId t = baseType.element;
  uint32_t matrixLayout = 0;  // of the matrices the current type is or holds (type_layout.h)
  auto found = matrixLayouts_.find(base);
  if (found != matrixLayouts_.end()) matrixLayout = found->second;
  size_t k = 1;
  if (ptrChain) {
    // The Element operand steps whole pointees: by the pointer type's ArrayStride in explicit memory.
    uint64_t stride = explicitLayout ? baseType.arrayStride : layout_.Slots(t);
    if (explicitLayout && stride == 0) return Fail(inst, "a pointer without ArrayStride in");
    add(operands[1], stride);
    k = 2;
  }
  bool first = !ptrChain;
  for (; k < inst.valueCount; ++k) {
    const ir::Type& type = m_.types[t];
    const ir::ValueId index = operands[k];
    const bool descriptorStep = first && (storageClass == spv::StorageClassStorageBuffer ||
                                          storageClass == spv::StorageClassUniform) &&
                                m_.values[base].kind == ir::ValueKind::Global &&
                                (type.kind == ir::TypeKind::Array || type.kind == ir::TypeKind::RuntimeArray) &&
                                m_.types[type.element].kind == ir::TypeKind::Struct;
    first = false;
    if (descriptorStep) {
      add(index, uint64_t{1} << 40);
      t = type.element;
      continue;
    }
    switch (type.kind) {
      case ir::TypeKind::Struct: {
        const ir::Value& v = m_.values[index];
        if (v.kind != ir::ValueKind::Constant) return Fail(inst, "a struct index that is not a constant in");
        const uint32_t member = static_cast<uint32_t>(m_.constants[v.owner].bits);
        if (member >= type.members.size()) return Fail(inst, "a struct index out of range in");
        if (explicitLayout) {
          offset += type.memberOffsets[member] == kNone ? 0 : type.memberOffsets[member];
          matrixLayout = MemberMatrixLayout(type, member);
        } else {
          for (uint32_t mIdx = 0; mIdx < member; ++mIdx) offset += layout_.Slots(type.members[mIdx]);
        }
        t = type.members[member];
        break;
      }
      case ir::TypeKind::Array:
      case ir::TypeKind::RuntimeArray: {
        // Arrays of descriptors step one table entry per element.
        uint64_t stride = explicitLayout                                     ? type.arrayStride
                          : storageClass == spv::StorageClassUniformConstant ? 1
                                                                             : layout_.Slots(type.element);
        if (explicitLayout && stride == 0) return Fail(inst, "an array without ArrayStride in");
        add(index, stride);
        t = type.element;
        break;
      }
      case ir::TypeKind::Matrix: {
        const ir::Type& column = m_.types[type.element];
        if (explicitLayout && (matrixLayout & kRowMajor)) {
          // A column of a row-major matrix starts one scalar further; its components stay a row stride apart.
          add(index, layout_.ScalarBytes(column.element));
        } else {
          const uint32_t stride = StrideOf(matrixLayout);
          add(index, explicitLayout ? (stride != 0 ? stride : column.count * layout_.ScalarBytes(column.element))
                                    : layout_.Slots(type.element));
          matrixLayout = 0;
        }
        t = type.element;
        break;
      }
      case ir::TypeKind::Vector:
        if (explicitLayout && (matrixLayout & kRowMajor))
          add(index, StrideOf(matrixLayout));  // a component of a row-major matrix's column
        else
          add(index, explicitLayout ? layout_.ScalarBytes(type.element) : layout_.Slots(type.element));
        matrixLayout = 0;
        t = type.element;
        break;
      default:
        return Fail(inst, "an index into a scalar in");
    }
  }
  if (matrixLayout != 0) matrixLayouts_[inst.result] = matrixLayout;
  const uint32_t firstExtra = static_cast<uint32_t>(x_.extra.size());
  x_.extra.push_back(static_cast<uint32_t>(terms.size()));
  x_.extra.push_back(static_cast<uint32_t>(offset));
  x_.extra.push_back(static_cast<uint32_t>(offset >> 32));
  for (auto& [index, stride] : terms) {
    const ir::Type& indexType = TypeOf(index);
    x_.extra.push_back(slot_[index]);
    x_.extra.push_back(indexType.width == 64 ? 1 : 0);
    x_.extra.push_back(static_cast<uint32_t>(stride));
    x_.extra.push_back(static_cast<uint32_t>(stride >> 32));
    if (indexType.width < 32) return Fail(inst, "an 8- or 16-bit index in");
  }
  // A global's pointer plus constant indices is a constant: it gets a slot of its own with the value written once
  // per dispatch (push-constant members, fixed buffer elements), no operation at all.
  const ir::Value& baseValue = m_.values[base];
  if (baseValue.kind == ir::ValueKind::Global && terms.empty() && !patchedGlobal_[base]) {
    const uint64_t value = Join(x_.constantWords[slot_[base]], x_.constantWords[slot_[base] + 1]) + offset;
    x_.extra.resize(firstExtra);
    const uint32_t constant = NewSlots(2);
    x_.constantWords.resize(x_.slotCount, 0);
    x_.constantWords[constant] = static_cast<uint32_t>(value);
    x_.constantWords[constant + 1] = static_cast<uint32_t>(value >> 32);
    slot_[inst.result] = constant;
    uniformPointer_[inst.result] = true;
    return true;
  }
  // A global's pointer is the same in every lane: with one 32-bit index the common form applies.
  const bool uniformBase = m_.values[base].kind == ir::ValueKind::Global && terms.size() == 1 &&
                           TypeOf(terms[0].first).width == 32 && terms[0].second <= UINT32_MAX;
  // Used only by loads and stores of one 32-bit word: they compute the address themselves (LoadElement and
  // StoreElement check the whole subgroup's range once and copy a row when the lanes' elements are consecutive).
  const ir::Type& pointee = m_.types[m_.types[inst.type].element];
  if (uniformBase && explicitLayout && storageClass != spv::StorageClassPhysicalStorageBuffer &&
      onlyAccessed_[inst.result] && (pointee.kind == ir::TypeKind::Int || pointee.kind == ir::TypeKind::Float) &&
      pointee.width == 32) {
    fusedChain_[inst.result] = static_cast<uint32_t>(x_.extra.size());
    x_.extra.push_back(slot_[base]);
    x_.extra.push_back(firstExtra);
    return true;
  }
  // A workgroup variable's element through 32-bit indices: likewise, for a value of any size.
  const bool narrowTerms = std::all_of(terms.begin(), terms.end(), [&](const auto& term) {
    return TypeOf(term.first).width == 32 && term.second <= UINT32_MAX;
  });
  if (storageClass == spv::StorageClassWorkgroup && m_.values[base].kind == ir::ValueKind::Global && narrowTerms &&
      onlyAccessed_[inst.result] && layout_.Slots(m_.types[inst.type].element) != 0) {
    fusedChain_[inst.result] = static_cast<uint32_t>(x_.extra.size());
    x_.extra.push_back(slot_[base]);
    x_.extra.push_back(firstExtra);
    return true;
  }
  Emit(uniformBase ? &ops::AccessChainUniformBase : &ops::AccessChain, slot_[inst.result], slot_[base], 0, 0, 0,
       firstExtra);
  return true;
}

}  // namespace crashtest::execution::builder
