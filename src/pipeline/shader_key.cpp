#include "pipeline/shader_key.h"

#include <algorithm>
#include <vector>

namespace crashtest::pipeline {

uint64_t Fnv1a64(const void* data, size_t size, uint64_t seed) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  uint64_t hash = seed;
  for (size_t i = 0; i < size; ++i) {
    hash ^= bytes[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

namespace {

// Two independent 64-bit streams over the same bytes (different seeds, the second also mixed at the end), so an
// accidental collision needs both to collide.
class KeyBuilder {
 public:
  void Add(const void* data, size_t size) {
    low_ = Fnv1a64(data, size, low_);
    high_ = Fnv1a64(data, size, high_);
  }
  void Add(uint32_t value) { Add(&value, sizeof value); }
  ShaderKey Finish() const {
    uint64_t h = high_;
    h ^= h >> 33, h *= 0xff51afd7ed558ccdull, h ^= h >> 33, h *= 0xc4ceb9fe1a85ec53ull, h ^= h >> 33;
    return {low_, h};
  }

 private:
  uint64_t low_ = 0xcbf29ce484222325ull;
  uint64_t high_ = 0x84222325cbf29ce4ull;
};

}  // namespace

ShaderKey ComputeShaderKey(const ShaderKeyInput& input) {
  KeyBuilder key;
  key.Add(kCompilerVersion);
  key.Add(VK_API_VERSION_MAJOR(input.vulkanApiVersion));
  key.Add(VK_API_VERSION_MINOR(input.vulkanApiVersion));
  key.Add(input.spirv14 ? 1u : 0u);
  key.Add(static_cast<uint32_t>(input.recipe));
  key.Add(static_cast<uint32_t>(input.stage));
  key.Add(static_cast<uint32_t>(input.entryPoint.size()));
  key.Add(input.entryPoint.data(), input.entryPoint.size());
  key.Add(static_cast<uint32_t>(input.words.size()));
  key.Add(input.words.data(), input.words.size_bytes());
  if (input.specialization != nullptr) {
    std::vector<uint32_t> ids;
    for (const auto& [id, bits] : *input.specialization) ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    key.Add(static_cast<uint32_t>(ids.size()));
    for (uint32_t id : ids) {
      const std::vector<uint32_t>& bits = input.specialization->at(id);
      key.Add(id);
      key.Add(static_cast<uint32_t>(bits.size()));
      key.Add(bits.data(), bits.size() * sizeof(uint32_t));
    }
  } else {
    key.Add(0u);
  }
  return key.Finish();
}

}  // namespace crashtest::pipeline
