// What the RADV calibration compiles: the corpus modules with the descriptor bindings and push-constant size
// corpus.txt lists for them, and the graphics pipelines that embed each graphics shader of the corpus between
// companion stages (tests/shaders/companions) matching its interface.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace crashtest::test {

struct CorpusEntry {
  std::string file;   // e.g. "reduce.comp.spv"
  std::string stage;  // comp, vert, frag, geom, tesc, tese
  std::vector<VkDescriptorSetLayoutBinding> bindings[4];  // by set; stageFlags left 0
  uint32_t pushConstantBytes = 0;
};

// Every module of corpus.txt whose bindings this test can express, by file name: the shader corpus's, or the
// manifest at `manifest` (corpus_manifest.py's format, e.g. the hold-out's).
std::map<std::string, CorpusEntry> ReadCalibrationCorpus(const std::string& manifest = {});

// One graphics pipeline: a file per stage (corpus modules, or companion_*.spv companions that are never
// measured), the vertex attributes the vertex stage reads (location i has format vertexAttributes[i]), the
// colour attachments the fragment stage writes, whether it reads an input attachment, and the topology.
struct GraphicsRecipe {
  std::vector<std::pair<VkShaderStageFlagBits, std::string>> stages;
  std::vector<VkFormat> vertexAttributes;
  std::vector<VkFormat> colorAttachments;
  bool inputAttachment = false;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  uint32_t patchControlPoints = 0;  // tessellation only
};

bool IsCompanion(const std::string& file);

// Pipelines covering every graphics shader of the corpus at least once.
const std::vector<GraphicsRecipe>& GraphicsRecipes();

}  // namespace crashtest::test
