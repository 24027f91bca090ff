// The identity of one compiled pipeline stage, for pipeline caches: a 128-bit hash of everything that decides
// what pipeline::Compile produces (the stage's SPIR-V words, entry point, stage, specialisation values, the
// device's SPIR-V environment, the optimisation recipe and the compiler's own version).
#pragma once

#include <vulkan/vulkan.h>

#include <compare>
#include <cstdint>
#include <span>
#include <string_view>

#include "pipeline/frontend/optimizer.h"
#include "pipeline/frontend/specialization.h"

namespace crashtest::pipeline {

// Bump when the compiler's output for the same input changes (lowering, optimiser passes, IR layout): entries of
// an older compiler then simply miss.
inline constexpr uint32_t kCompilerVersion = 4;  // 4: spec constants frozen without SPIRV-Tools; 3: IR optimisation

struct ShaderKey {
  uint64_t low = 0, high = 0;
  auto operator<=>(const ShaderKey&) const = default;
};

struct ShaderKeyInput {
  std::span<const uint32_t> words;
  std::string_view entryPoint;
  VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
  // Resolved values per SpecId, so two VkSpecializationInfo layouts giving the same values share an entry.
  const SpecializationValues* specialization = nullptr;
  uint32_t vulkanApiVersion = 0;  // major.minor only count: the patch does not change the SPIR-V environment
  bool spirv14 = false;
  OptimizationRecipe recipe = OptimizationRecipe::Lean;
};

ShaderKey ComputeShaderKey(const ShaderKeyInput& input);

// 64-bit FNV-1a, also the checksum of the pipeline cache payload.
uint64_t Fnv1a64(const void* data, size_t size, uint64_t seed = 0xcbf29ce484222325ull);

}  // namespace crashtest::pipeline
