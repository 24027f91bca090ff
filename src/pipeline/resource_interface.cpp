#include "pipeline/resource_interface.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <unordered_set>
#include <vector>

#include "descriptor/descriptor_set_layout.h"
#include "descriptor/pipeline_layout.h"

namespace crashtest {

namespace {

// What a shader variable needs from its descriptor, before matching it against the layout's VkDescriptorType.
enum class ResourceKind {
  UniformBlock, StorageBlock, Sampler, SampledImage, StorageImage, CombinedImageSampler, UniformTexelBuffer,
  StorageTexelBuffer, InputAttachment, AccelerationStructure, Image,  // Image: Sampled = 0, known only at run time
};

const char* DescriptorTypeName(VkDescriptorType type) {
  switch (type) {
    case VK_DESCRIPTOR_TYPE_SAMPLER: return "SAMPLER";
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: return "COMBINED_IMAGE_SAMPLER";
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return "SAMPLED_IMAGE";
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return "STORAGE_IMAGE";
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return "UNIFORM_TEXEL_BUFFER";
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return "STORAGE_TEXEL_BUFFER";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return "UNIFORM_BUFFER";
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return "STORAGE_BUFFER";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC: return "UNIFORM_BUFFER_DYNAMIC";
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: return "STORAGE_BUFFER_DYNAMIC";
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: return "INPUT_ATTACHMENT";
    case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK: return "INLINE_UNIFORM_BLOCK";
    case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR: return "ACCELERATION_STRUCTURE_KHR";
    default: return "another type";
  }
}

const char* KindName(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::UniformBlock: return "uniform buffer";
    case ResourceKind::StorageBlock: return "storage buffer";
    case ResourceKind::Sampler: return "sampler";
    case ResourceKind::SampledImage: return "sampled image";
    case ResourceKind::StorageImage: return "storage image";
    case ResourceKind::CombinedImageSampler: return "combined image sampler";
    case ResourceKind::UniformTexelBuffer: return "uniform texel buffer";
    case ResourceKind::StorageTexelBuffer: return "storage texel buffer";
    case ResourceKind::InputAttachment: return "input attachment";
    case ResourceKind::AccelerationStructure: return "acceleration structure";
    case ResourceKind::Image: return "image";
  }
  return "resource";
}

// Descriptor types that may back a variable of `kind` (Vulkan 1.3, 15.1 "Shader Resource and Descriptor Type
// Correspondence"; a combined image sampler also serves a separate sampler or sampled image).
bool Compatible(ResourceKind kind, VkDescriptorType type) {
  if (type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT) return true;
  switch (kind) {
    case ResourceKind::UniformBlock:
      return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
             type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
    case ResourceKind::StorageBlock:
      return type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
    case ResourceKind::Sampler:
      return type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case ResourceKind::SampledImage:
      return type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case ResourceKind::StorageImage: return type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    case ResourceKind::CombinedImageSampler: return type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case ResourceKind::UniformTexelBuffer: return type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    case ResourceKind::StorageTexelBuffer: return type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    case ResourceKind::InputAttachment: return type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
    case ResourceKind::AccelerationStructure:
      return type == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR ||
             type == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_NV;
    case ResourceKind::Image:
      return type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
             type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  }
  return false;
}

// SPIR-V ids of the variables whose block is decorated BufferBlock: before SPIR-V 1.3, storage buffers are
// Uniform-class variables of such blocks, and the IR folds Block and BufferBlock into one flag.
std::unordered_set<uint32_t> BufferBlockVariables(std::span<const uint32_t> words) {
  std::unordered_set<uint32_t> bufferBlocks, pointers, variables;
  std::vector<std::pair<uint32_t, uint32_t>> arrays, pointerTypes, variableTypes;  // result, element/type
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16, op = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) break;
    const uint32_t* w = &words[at];
    if (op == spv::OpDecorate && count >= 3 && w[2] == spv::DecorationBufferBlock) bufferBlocks.insert(w[1]);
    if ((op == spv::OpTypeArray || op == spv::OpTypeRuntimeArray) && count >= 3) arrays.push_back({w[1], w[2]});
    if (op == spv::OpTypePointer && count >= 4) pointerTypes.push_back({w[1], w[3]});
    if (op == spv::OpVariable && count >= 4) variableTypes.push_back({w[2], w[1]});
    at += count;
  }
  // Arrays of such blocks count too (declared after their element, so one pass in order suffices).
  for (auto [array, element] : arrays)
    if (bufferBlocks.count(element)) bufferBlocks.insert(array);
  for (auto [pointer, pointee] : pointerTypes)
    if (bufferBlocks.count(pointee)) pointers.insert(pointer);
  for (auto [variable, type] : variableTypes)
    if (pointers.count(type)) variables.insert(variable);
  return variables;
}

struct ShaderResource {
  const ir::Global* global;
  ResourceKind kind;
  uint32_t arraySize;  // 1 for a single descriptor, 0 for a runtime array
};

bool Classify(const ir::Module& module, const ir::Global& global, const std::unordered_set<uint32_t>& bufferBlocks,
              ShaderResource* out) {
  const ir::Type& pointer = module.TypeOf(global.value);
  if (pointer.kind != ir::TypeKind::Pointer) return false;
  ir::TypeId typeId = pointer.element;
  uint32_t arraySize = 1;
  while (module.types[typeId].kind == ir::TypeKind::Array || module.types[typeId].kind == ir::TypeKind::RuntimeArray) {
    const ir::Type& array = module.types[typeId];
    arraySize = array.kind == ir::TypeKind::RuntimeArray ? 0 : arraySize * array.count;
    typeId = array.element;
  }
  const ir::Type& type = module.types[typeId];
  ResourceKind kind;
  switch (global.storageClass) {
    case spv::StorageClassUniform:
      kind = bufferBlocks.count(module.values[global.value].spirvId) ? ResourceKind::StorageBlock
                                                                       : ResourceKind::UniformBlock;
      break;
    case spv::StorageClassStorageBuffer: kind = ResourceKind::StorageBlock; break;
    case spv::StorageClassUniformConstant:
      switch (type.kind) {
        case ir::TypeKind::Sampler: kind = ResourceKind::Sampler; break;
        case ir::TypeKind::SampledImage:
          // samplerBuffer: a sampled image of a buffer, backed by a uniform texel buffer.
          kind = module.types[type.element].image[0] == spv::DimBuffer ? ResourceKind::UniformTexelBuffer
                                                                      : ResourceKind::CombinedImageSampler;
          break;
        case ir::TypeKind::AccelerationStructure: kind = ResourceKind::AccelerationStructure; break;
        case ir::TypeKind::Image: {
          uint32_t dim = type.image[0], sampled = type.image[4];
          if (dim == spv::DimSubpassData)
            kind = ResourceKind::InputAttachment;
          else if (dim == spv::DimBuffer)
            kind = sampled == 2 ? ResourceKind::StorageTexelBuffer : ResourceKind::UniformTexelBuffer;
          else
            kind = sampled == 1 ? ResourceKind::SampledImage
                                : sampled == 2 ? ResourceKind::StorageImage : ResourceKind::Image;
          break;
        }
        default: return false;
      }
      break;
    default: return false;
  }
  *out = {&global, kind, arraySize};
  return true;
}

// Bytes a push-constant member occupies (explicit layout: offsets, array and matrix strides).
uint32_t SizeOf(const ir::Module& module, ir::TypeId id, uint32_t matrixStride) {
  const ir::Type& type = module.types[id];
  switch (type.kind) {
    case ir::TypeKind::Bool: return 4;
    case ir::TypeKind::Int: case ir::TypeKind::Float: return type.width / 8u;
    case ir::TypeKind::Vector: return type.count * SizeOf(module, type.element, 0);
    case ir::TypeKind::Matrix:
      return matrixStride != 0 ? type.count * matrixStride : type.count * SizeOf(module, type.element, 0);
    case ir::TypeKind::Array:
      return type.count * (type.arrayStride != 0 ? type.arrayStride : SizeOf(module, type.element, matrixStride));
    case ir::TypeKind::Struct: {
      uint32_t end = 0;
      for (size_t m = 0; m < type.members.size(); ++m) {
        bool explicitOffset = m < type.memberOffsets.size() && type.memberOffsets[m] != ir::kNone;
        uint32_t offset = explicitOffset ? type.memberOffsets[m] : end;
        end = std::max(end, offset + SizeOf(module, type.members[m], type.matrixStride));
      }
      return end;
    }
    case ir::TypeKind::Pointer: return 8;  // PhysicalStorageBuffer addresses
    default: return 0;
  }
}

// [first, end) bytes of a push-constant block: from its lowest member offset to the end of its last member.
std::pair<uint32_t, uint32_t> PushConstantExtent(const ir::Module& module, const ir::Global& global) {
  ir::TypeId blockType = module.TypeOf(global.value).element;
  const ir::Type& block = module.types[blockType];
  uint32_t end = SizeOf(module, blockType, 0);
  if (block.kind != ir::TypeKind::Struct || block.members.empty()) return {0, end};
  uint32_t first = UINT32_MAX;
  for (uint32_t offset : block.memberOffsets) first = std::min(first, offset == ir::kNone ? 0u : offset);
  return {first, end};
}

// True when the ranges that include `stage` cover every byte of [first, end).
bool Covered(std::span<const VkPushConstantRange> ranges, VkShaderStageFlagBits stage, uint32_t first, uint32_t end) {
  std::vector<std::pair<uint32_t, uint32_t>> spans;
  for (const VkPushConstantRange& range : ranges)
    if (range.stageFlags & stage) spans.push_back({range.offset, range.offset + range.size});
  std::sort(spans.begin(), spans.end());
  uint32_t reached = first;
  for (auto [from, to] : spans) {
    if (from > reached) break;
    reached = std::max(reached, to);
  }
  return reached >= end;
}

std::string Describe(const ShaderResource& resource) {
  const ir::Global& global = *resource.global;
  std::string text = "set " + std::to_string(global.set) + " binding " + std::to_string(global.binding) + " (" +
                     KindName(resource.kind);
  if (resource.arraySize != 1)
    text += resource.arraySize == 0 ? " runtime array" : " array of " + std::to_string(resource.arraySize);
  if (!global.name.empty()) text += " \"" + global.name + "\"";
  return text + ")";
}

}  // namespace

bool CheckStageAgainstLayout(const pipeline::CompiledShader& shader, VkShaderStageFlagBits stage,
                             const PipelineLayout& layout, const char* createInfoName, std::string* message) {
  const ir::Module& module = shader.module;
  // Statically used: named by some instruction of the (optimised, inlined) body.
  std::vector<bool> used(module.values.size(), false);
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      std::span<const uint32_t> operands = module.Operands(inst);
      for (uint16_t i = 0; i < inst.valueCount; ++i)
        if (operands[i] < used.size()) used[operands[i]] = true;
    }
  std::unordered_set<uint32_t> bufferBlocks;
  bool scanned = false;
  auto vuid = [&](const char* number) { return std::string(" (VUID-") + createInfoName + "-layout-" + number + ")"; };
  for (const ir::Global& global : module.globals) {
    if (!used[global.value]) continue;
    if (global.storageClass == spv::StorageClassPushConstant) {
      auto [first, end] = PushConstantExtent(module, global);
      bool stageDeclared = false;
      for (const VkPushConstantRange& range : layout.pushConstantRanges())
        stageDeclared |= (range.stageFlags & stage) != 0;
      if (!stageDeclared) {
        *message = "the stage uses a push constant block (bytes " + std::to_string(first) + ".." +
                   std::to_string(end) + ") but no push constant range of the pipeline layout includes the stage" +
                   vuid("07987");
        return false;
      }
      if (!Covered(layout.pushConstantRanges(), stage, first, end)) {
        *message = "the stage's push constant block (bytes " + std::to_string(first) + ".." + std::to_string(end) +
                   ") is not contained in the pipeline layout's push constant ranges for the stage" + vuid("10069");
        return false;
      }
      continue;
    }
    if (global.set == ir::kNone || global.binding == ir::kNone) continue;
    if (!scanned) bufferBlocks = BufferBlockVariables(shader.optimizedSpirv), scanned = true;
    ShaderResource resource;
    if (!Classify(module, global, bufferBlocks, &resource)) continue;
    std::span<DescriptorSetLayout* const> sets = layout.setLayouts();
    const DescriptorBinding* binding =
        global.set < sets.size() && sets[global.set] != nullptr ? sets[global.set]->Find(global.binding) : nullptr;
    if (binding == nullptr) {
      std::string setCount = global.set >= sets.size()
                                 ? " (it has " + std::to_string(sets.size()) + " set layouts)"
                                 : std::string();
      *message = "the stage uses " + Describe(resource) + ", which the pipeline layout does not declare" + setCount +
                 vuid("07988");
      return false;
    }
    if ((binding->stages & stage) == 0) {
      *message = "the stage uses " + Describe(resource) + ", whose binding's stageFlags do not include the stage" +
                 vuid("07988");
      return false;
    }
    if (!Compatible(resource.kind, binding->type)) {
      *message = "the stage uses " + Describe(resource) + ", declared in the pipeline layout as VK_DESCRIPTOR_TYPE_" +
                 std::string(DescriptorTypeName(binding->type)) + ", which cannot back a " + KindName(resource.kind) +
                 vuid("07990");
      return false;
    }
    bool inlineBlock = binding->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;  // its count is bytes
    if (!inlineBlock && resource.arraySize > binding->descriptorCount) {
      *message = "the stage uses " + Describe(resource) + ", declared in the pipeline layout with only " +
                 std::to_string(binding->descriptorCount) + " descriptors" + vuid("07991");
      return false;
    }
  }
  return true;
}

}  // namespace crashtest
