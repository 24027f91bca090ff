#include "statistics/memory_footprint.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <vector>

namespace crashtest::statistics {
namespace {

uint64_t AlignmentOf(const ir::Module& module, ir::TypeId id) {
  const ir::Type& type = module.types[id];
  switch (type.kind) {
    case ir::TypeKind::Bool: return 4;
    case ir::TypeKind::Int: case ir::TypeKind::Float: return std::max<uint64_t>(1, type.width / 8);
    case ir::TypeKind::Pointer: return type.storageClass == spv::StorageClassPhysicalStorageBuffer ? 8 : 4;
    case ir::TypeKind::Vector: case ir::TypeKind::Matrix: case ir::TypeKind::Array:
    case ir::TypeKind::RuntimeArray:
      return type.element == ir::kNone ? 1 : AlignmentOf(module, type.element);
    case ir::TypeKind::Struct: {
      uint64_t alignment = 1;
      for (ir::TypeId member : type.members) alignment = std::max(alignment, AlignmentOf(module, member));
      return alignment;
    }
    default: return 1;
  }
}

uint64_t RoundUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

}  // namespace

uint64_t TypeSizeBytes(const ir::Module& module, ir::TypeId id) {
  if (id == ir::kNone || id >= module.types.size()) return 0;
  const ir::Type& type = module.types[id];
  switch (type.kind) {
    case ir::TypeKind::Bool: return 4;
    case ir::TypeKind::Int: case ir::TypeKind::Float: return std::max<uint64_t>(1, type.width / 8);
    case ir::TypeKind::Pointer: return type.storageClass == spv::StorageClassPhysicalStorageBuffer ? 8 : 4;
    case ir::TypeKind::Vector: case ir::TypeKind::Matrix:
      return type.count * TypeSizeBytes(module, type.element);
    case ir::TypeKind::Array: {
      uint64_t element = TypeSizeBytes(module, type.element);
      uint64_t stride = type.arrayStride != 0 ? type.arrayStride
                                              : RoundUp(element, AlignmentOf(module, type.element));
      return type.count == 0 ? 0 : stride * (type.count - 1) + element;
    }
    case ir::TypeKind::Struct: {
      uint64_t size = 0;
      for (size_t m = 0; m < type.members.size(); ++m) {
        uint64_t offset = m < type.memberOffsets.size() && type.memberOffsets[m] != ir::kNone
                              ? type.memberOffsets[m]
                              : RoundUp(size, AlignmentOf(module, type.members[m]));
        size = std::max(size, offset + TypeSizeBytes(module, type.members[m]));
      }
      return RoundUp(size, AlignmentOf(module, id));
    }
    default: return 0;  // runtime arrays, images, samplers: no storage of the shader's own
  }
}

namespace {

uint64_t PointeeBytes(const ir::Module& module, ir::TypeId pointer) {
  const ir::Type& type = module.types[pointer];
  return type.kind == ir::TypeKind::Pointer ? TypeSizeBytes(module, type.element) : 0;
}

}  // namespace

uint64_t WorkgroupMemoryBytes(const ir::Module& module) {
  uint64_t bytes = 0;
  for (const ir::Global& global : module.globals)
    if (global.storageClass == spv::StorageClassWorkgroup)
      bytes += PointeeBytes(module, module.values[global.value].type);
  return bytes;
}

}  // namespace crashtest::statistics
