// Mesa's RADV through the real loader, as a reference compiler: it compiles for an AMD GPU without one when
// RADV_FORCE_FAMILY is set, and reports ACO's statistics through VK_KHR_pipeline_executable_properties.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "calibration_corpus.h"

namespace crashtest::test {

// One executable of a RADV pipeline: the stages it was compiled from (RADV merges stages on GFX9+ and runs
// vertex/tessellation-evaluation stages as NGG on GFX10+), its name and ACO's statistics by name.
struct RadvExecutable {
  VkShaderStageFlags stages = 0;
  std::string name;
  std::map<std::string, uint64_t> statistics;
};

class Radv {
 public:
  Radv() = default;
  ~Radv();
  Radv(const Radv&) = delete;
  Radv& operator=(const Radv&) = delete;

  // Empty on success, else why RADV cannot be used here.
  std::string Open();

  // The executables of the pipeline; empty if RADV did not create it.
  std::vector<RadvExecutable> Compute(const CorpusEntry& entry);
  std::vector<RadvExecutable> Graphics(const GraphicsRecipe& recipe,
                                       const std::map<std::string, CorpusEntry>& corpus);

 private:
  VkPipelineLayout CreateLayout(const std::vector<const CorpusEntry*>& entries, VkShaderStageFlags stages,
                                std::vector<VkDescriptorSetLayout>& setLayouts);
  VkShaderModule CreateModule(const std::string& file);
  std::vector<RadvExecutable> Executables(VkPipeline pipeline);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  PFN_vkGetPipelineExecutablePropertiesKHR getProperties_ = nullptr;
  PFN_vkGetPipelineExecutableStatisticsKHR getStatistics_ = nullptr;
};

}  // namespace crashtest::test
