#include "spirv_reflect.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace crashtest::bench {
namespace {

// SPIR-V enumerant values (SPIR-V specification, section 3).
constexpr uint32_t kMagic = 0x07230203;
enum Op : uint32_t {
  kOpEntryPoint = 15,
  kOpCapability = 17,
  kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpTypeVector = 23,
  kOpTypeImage = 25,
  kOpTypeSampler = 26,
  kOpTypeSampledImage = 27,
  kOpTypeArray = 28,
  kOpTypeRuntimeArray = 29,
  kOpTypeStruct = 30,
  kOpTypePointer = 32,
  kOpConstant = 43,
  kOpVariable = 59,
  kOpDecorate = 71,
  kOpTypeAccelerationStructure = 5341,
};
enum Decoration : uint32_t { kBlock = 2, kBufferBlock = 3, kBuiltIn = 11, kLocation = 30, kBinding = 33, kSet = 34 };
enum StorageClass : uint32_t {
  kUniformConstant = 0,
  kInput = 1,
  kUniform = 2,
  kPushConstant = 9,
  kStorageBuffer = 12,
};
constexpr uint32_t kDimBuffer = 5;
constexpr uint32_t kDimSubpassData = 6;

struct Type {
  uint32_t opcode = 0;
  std::vector<uint32_t> operands;  // the words after the result id
};

std::optional<VkShaderStageFlagBits> stage_of(uint32_t execution_model) {
  switch (execution_model) {
    case 0: return VK_SHADER_STAGE_VERTEX_BIT;
    case 1: return VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
    case 2: return VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
    case 3: return VK_SHADER_STAGE_GEOMETRY_BIT;
    case 4: return VK_SHADER_STAGE_FRAGMENT_BIT;
    case 5: return VK_SHADER_STAGE_COMPUTE_BIT;
    default: return std::nullopt;
  }
}

// Decodes the nul-terminated literal string starting at words[begin], bounded by end.
std::string literal_string(const std::vector<uint32_t>& words, size_t begin, size_t end) {
  std::string text;
  for (size_t i = begin; i < end; ++i) {
    for (int byte = 0; byte < 4; ++byte) {
      const char c = static_cast<char>((words[i] >> (8 * byte)) & 0xffu);
      if (c == '\0') return text;
      text.push_back(c);
    }
  }
  return text;
}

class Reflector {
 public:
  explicit Reflector(const std::vector<uint32_t>& words) : words_(words) {}

  std::optional<ShaderInterface> run(std::string* error) {
    if (words_.size() < 5) return fail(error, "module shorter than the 5-word header", 0);
    if (words_[0] != kMagic) return fail(error, "bad magic number (not little-endian SPIR-V)", 0);
    bool have_entry = false;
    for (size_t at = 5; at < words_.size();) {
      const uint32_t count = words_[at] >> 16;
      const uint32_t opcode = words_[at] & 0xffffu;
      if (count == 0 || at + count > words_.size()) return fail(error, "instruction runs past the end", at);
      const auto operand = [&](uint32_t i) { return i < count ? words_[at + i] : 0u; };
      switch (opcode) {
        case kOpCapability: result_.capabilities.push_back(operand(1)); break;
        case kOpEntryPoint:
          if (!have_entry && count >= 4) {
            const auto stage = stage_of(operand(1));
            if (!stage) return fail(error, "entry point has an execution model the bench does not know", at);
            result_.stage = *stage;
            result_.entry_point = literal_string(words_, at + 3, at + count);
            have_entry = true;
          }
          break;
        case kOpDecorate:
          if (count >= 3) decorations_[operand(1)][operand(2)] = count >= 4 ? operand(3) : 1u;
          break;
        case kOpConstant:
          if (count >= 4) constants_[operand(2)] = operand(3);
          break;
        case kOpVariable:
          if (count >= 4) variables_.push_back({operand(2), operand(1), operand(3)});
          break;
        default:
          if (is_type(opcode) && count >= 2) {
            types_[operand(1)] = Type{opcode, std::vector<uint32_t>(words_.begin() + static_cast<long>(at) + 2,
                                                                   words_.begin() + static_cast<long>(at + count))};
          }
      }
      at += count;
    }
    if (!have_entry) return fail(error, "module has no OpEntryPoint", words_.size());
    for (const Variable& variable : variables_) {
      if (!describe(variable, error)) return std::nullopt;
    }
    std::sort(result_.bindings.begin(), result_.bindings.end(), [](const auto& a, const auto& b) {
      return a.set != b.set ? a.set < b.set : a.binding < b.binding;
    });
    std::sort(result_.vertex_inputs.begin(), result_.vertex_inputs.end(),
              [](const auto& a, const auto& b) { return a.location < b.location; });
    return result_;
  }

 private:
  struct Variable {
    uint32_t id;
    uint32_t pointer_type;
    uint32_t storage_class;
  };

  static bool is_type(uint32_t opcode) {
    return (opcode >= 19 && opcode <= 39) || opcode == kOpTypeAccelerationStructure;
  }

  std::nullopt_t fail(std::string* error, const std::string& what, size_t at) {
    *error = what + " at word " + std::to_string(at);
    return std::nullopt;
  }

  std::optional<uint32_t> decoration(uint32_t id, uint32_t which) const {
    const auto found = decorations_.find(id);
    if (found == decorations_.end()) return std::nullopt;
    const auto value = found->second.find(which);
    if (value == found->second.end()) return std::nullopt;
    return value->second;
  }

  const Type* type(uint32_t id) const {
    const auto found = types_.find(id);
    return found == types_.end() ? nullptr : &found->second;
  }

  bool describe(const Variable& variable, std::string* error) {
    const Type* pointer = type(variable.pointer_type);
    if (!pointer || pointer->opcode != kOpTypePointer || pointer->operands.size() < 2) {
      *error = "variable %" + std::to_string(variable.id) + " does not have a pointer type";
      return false;
    }
    uint32_t pointee = pointer->operands[1];
    switch (variable.storage_class) {
      case kPushConstant: result_.uses_push_constants = true; return true;
      case kInput: return describe_input(variable.id, pointee, error);
      case kUniformConstant:
      case kUniform:
      case kStorageBuffer: break;
      default: return true;
    }
    const auto set = decoration(variable.id, kSet);
    const auto binding = decoration(variable.id, kBinding);
    if (!set || !binding) return true;  // e.g. an undecorated resource: not part of any layout
    DescriptorBinding out;
    out.set = *set;
    out.binding = *binding;
    // Unwrap descriptor arrays.
    const Type* t = type(pointee);
    while (t && (t->opcode == kOpTypeArray || t->opcode == kOpTypeRuntimeArray)) {
      if (t->opcode == kOpTypeRuntimeArray) {
        result_.runtime_descriptor_array = true;
      } else {
        const auto length = constants_.find(t->operands.size() > 1 ? t->operands[1] : 0);
        out.count *= length == constants_.end() ? 1u : length->second;
      }
      pointee = t->operands.empty() ? 0 : t->operands[0];
      t = type(pointee);
    }
    if (!t) {
      *error = "resource %" + std::to_string(variable.id) + " has an unknown type";
      return false;
    }
    const auto descriptor = descriptor_type(variable.storage_class, pointee, *t);
    if (!descriptor) {
      *error = "resource %" + std::to_string(variable.id) + " (set " + std::to_string(out.set) + ", binding " +
               std::to_string(out.binding) + ") has a type the bench cannot map to a descriptor type";
      return false;
    }
    out.type = *descriptor;
    result_.bindings.push_back(out);
    return true;
  }

  std::optional<VkDescriptorType> descriptor_type(uint32_t storage_class, uint32_t id, const Type& t) const {
    if (storage_class == kStorageBuffer) return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    if (storage_class == kUniform) {
      return decoration(id, kBufferBlock) ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    }
    switch (t.opcode) {
      case kOpTypeSampler: return VK_DESCRIPTOR_TYPE_SAMPLER;
      case kOpTypeSampledImage: return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
      case kOpTypeAccelerationStructure: return std::nullopt;
      case kOpTypeImage: {
        // OpTypeImage operands: sampled type, Dim, Depth, Arrayed, MS, Sampled (1 = with sampler, 2 = storage).
        if (t.operands.size() < 6) return std::nullopt;
        const uint32_t dim = t.operands[1];
        const uint32_t sampled = t.operands[5];
        if (dim == kDimSubpassData) return VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
        if (dim == kDimBuffer) {
          return sampled == 2 ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        }
        return sampled == 2 ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
      }
      default: return std::nullopt;
    }
  }

  // Vertex shader inputs become vertex attributes; built-ins (gl_VertexIndex, …) do not.
  bool describe_input(uint32_t id, uint32_t pointee, std::string* error) {
    if (result_.stage != VK_SHADER_STAGE_VERTEX_BIT || decoration(id, kBuiltIn)) return true;
    const auto location = decoration(id, kLocation);
    if (!location) return true;  // a block of built-ins
    const Type* t = type(pointee);
    uint32_t components = 1;
    if (t && t->opcode == kOpTypeVector && t->operands.size() >= 2) {
      components = t->operands[1];
      t = type(t->operands[0]);
    }
    if (!t || (t->opcode != kOpTypeFloat && t->opcode != kOpTypeInt) || t->operands.empty() ||
        t->operands[0] != 32 || components < 1 || components > 4) {
      *error = "vertex input at location " + std::to_string(*location) +
               " is not a 32-bit scalar or vector (matrices and 16/64-bit inputs are not supported by the bench)";
      return false;
    }
    static constexpr VkFormat kFloat[] = {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32_SFLOAT,
                                          VK_FORMAT_R32G32B32A32_SFLOAT};
    static constexpr VkFormat kSigned[] = {VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32B32_SINT,
                                           VK_FORMAT_R32G32B32A32_SINT};
    static constexpr VkFormat kUnsigned[] = {VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32B32_UINT,
                                             VK_FORMAT_R32G32B32A32_UINT};
    const bool is_signed = t->operands.size() >= 2 && t->operands[1] == 1;
    const VkFormat* table = t->opcode == kOpTypeFloat ? kFloat : (is_signed ? kSigned : kUnsigned);
    result_.vertex_inputs.push_back({*location, table[components - 1]});
    return true;
  }

  const std::vector<uint32_t>& words_;
  ShaderInterface result_;
  std::unordered_map<uint32_t, Type> types_;
  std::unordered_map<uint32_t, std::map<uint32_t, uint32_t>> decorations_;
  std::unordered_map<uint32_t, uint32_t> constants_;
  std::vector<Variable> variables_;
};

}  // namespace

std::optional<ShaderInterface> reflect_spirv(const std::vector<uint32_t>& words, std::string* error) {
  return Reflector(words).run(error);
}

std::string capability_name(uint32_t capability) {
  switch (capability) {
    case 1: return "Shader";
    case 9: return "Float16";
    case 10: return "Float64";
    case 11: return "Int64";
    case 12: return "Int64Atomics";
    case 22: return "Int16";
    case 39: return "Int8";
    case 5347: return "PhysicalStorageBufferAddresses";
    default: return "Capability(" + std::to_string(capability) + ")";
  }
}

}  // namespace crashtest::bench
