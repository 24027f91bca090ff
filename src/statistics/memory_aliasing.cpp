#include "statistics/memory_aliasing.h"

#include <spirv/unified1/spirv.hpp>

namespace crashtest::statistics {
namespace {

bool IsChain(uint16_t op) {
  return op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain || op == spv::OpPtrAccessChain ||
         op == spv::OpInBoundsPtrAccessChain || op == spv::OpCopyObject || op == spv::OpLoad ||
         op == spv::OpSampledImage || op == spv::OpImage || op == spv::OpImageTexelPointer;
}

bool IsBufferOrImage(uint32_t storageClass) {
  return storageClass == spv::StorageClassStorageBuffer || storageClass == spv::StorageClassUniform ||
         storageClass == spv::StorageClassPhysicalStorageBuffer || storageClass == spv::StorageClassUniformConstant ||
         storageClass == spv::StorageClassImage;
}

}  // namespace

MemoryAliasing::MemoryAliasing(const ir::Module& module) : m_(module), written_(module.values.size(), false) {
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      const bool atomic = inst.op >= spv::OpAtomicLoad && inst.op <= spv::OpAtomicXor && inst.op != spv::OpAtomicLoad;
      const bool writes = inst.op == spv::OpStore || inst.op == spv::OpImageWrite || inst.op == spv::OpCopyMemory ||
                          atomic || inst.op == spv::OpAtomicFAddEXT || inst.op == spv::OpAtomicFMinEXT ||
                          inst.op == spv::OpAtomicFMaxEXT;
      if (!writes || inst.valueCount == 0) continue;
      const ir::ValueId target = m_.Operands(inst)[0];
      const uint32_t storage = m_.TypeOf(target).storageClass;
      if (inst.op != spv::OpImageWrite && !IsBufferOrImage(storage)) continue;
      if (storage == spv::StorageClassPhysicalStorageBuffer) {
        physicalWritten_ = true;
        continue;
      }
      const ir::ValueId root = RootOf(target);
      if (root == ir::kNone)
        unknownWritten_ = true;
      else
        written_[root] = true;
    }
}

ir::ValueId MemoryAliasing::RootOf(ir::ValueId v) const {
  for (int steps = 0; steps < 64; ++steps) {
    const ir::Value& value = m_.values[v];
    if (value.kind == ir::ValueKind::Global) return v;
    if (value.kind != ir::ValueKind::Instruction || value.owner == ir::kNone) return ir::kNone;
    const ir::Instruction& inst = m_.function.blocks[value.owner].instructions[value.index];
    if (!IsChain(inst.op) || inst.valueCount == 0) return ir::kNone;
    // A loaded image or sampler comes from its descriptor's variable; a loaded pointer from memory is another
    // object than the variable it was stored in.
    if (inst.op == spv::OpLoad && m_.types[inst.type].kind == ir::TypeKind::Pointer) return ir::kNone;
    v = m_.Operands(inst)[0];
  }
  return ir::kNone;
}

StoreTarget MemoryAliasing::TargetOf(const ir::Instruction& store) const {
  if (store.op == spv::OpImageWrite) return StoreTarget::kBufferOrImage;
  if (store.op != spv::OpStore || store.valueCount == 0) return StoreTarget::kFixed;
  const uint32_t storage = m_.TypeOf(m_.Operands(store)[0]).storageClass;
  if (storage == spv::StorageClassFunction || storage == spv::StorageClassPrivate) return StoreTarget::kRegisters;
  if (storage == spv::StorageClassWorkgroup) return StoreTarget::kWorkgroup;
  if (IsBufferOrImage(storage)) return StoreTarget::kBufferOrImage;
  return StoreTarget::kFixed;
}

bool MemoryAliasing::CanReorder(const ir::Instruction& load) const {
  if (load.valueCount == 0) return false;
  switch (load.op) {
    case spv::OpLoad: {
      const uint32_t storage = m_.TypeOf(m_.Operands(load)[0]).storageClass;
      if (storage == spv::StorageClassPhysicalStorageBuffer) return !physicalWritten_;
      if (storage == spv::StorageClassUniform || storage == spv::StorageClassPushConstant) {
        const ir::ValueId root = RootOf(m_.Operands(load)[0]);
        return root != ir::kNone && !written_[root] && !unknownWritten_;  // Uniform also names BufferBlock
      }
      if (storage != spv::StorageClassStorageBuffer) return false;
      const ir::ValueId root = RootOf(m_.Operands(load)[0]);
      return root != ir::kNone && !written_[root] && !unknownWritten_;
    }
    case spv::OpImageRead: case spv::OpImageSparseRead: {
      const ir::ValueId root = RootOf(m_.Operands(load)[0]);
      return root != ir::kNone && !written_[root] && !unknownWritten_;
    }
    default:
      // Samples, gathers and fetches read sampled images and uniform texel buffers, which shaders cannot write.
      return true;
  }
}

}  // namespace crashtest::statistics
