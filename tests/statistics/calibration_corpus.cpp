#include "calibration_corpus.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace crashtest::test {
namespace {

bool DescriptorType(const std::string& name, VkDescriptorType& type) {
  static const std::map<std::string, VkDescriptorType> kTypes = {
      {"storage_buffer", VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
      {"uniform_buffer", VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
      {"storage_image", VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
      {"sampled_image", VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE},
      {"sampler", VK_DESCRIPTOR_TYPE_SAMPLER},
      {"combined_image_sampler", VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER},
      {"storage_texel_buffer", VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER},
      {"uniform_texel_buffer", VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER},
      {"input_attachment", VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT},
  };
  auto it = kTypes.find(name);
  if (it == kTypes.end()) return false;
  type = it->second;
  return true;
}

constexpr VkShaderStageFlagBits kVert = VK_SHADER_STAGE_VERTEX_BIT;
constexpr VkShaderStageFlagBits kTesc = VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
constexpr VkShaderStageFlagBits kTese = VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
constexpr VkShaderStageFlagBits kGeom = VK_SHADER_STAGE_GEOMETRY_BIT;
constexpr VkShaderStageFlagBits kFrag = VK_SHADER_STAGE_FRAGMENT_BIT;
constexpr VkFormat kVec2 = VK_FORMAT_R32G32_SFLOAT;
constexpr VkFormat kVec3 = VK_FORMAT_R32G32B32_SFLOAT;
constexpr VkFormat kVec4 = VK_FORMAT_R32G32B32A32_SFLOAT;
constexpr VkFormat kUvec4 = VK_FORMAT_R32G32B32A32_UINT;
constexpr VkFormat kColour = VK_FORMAT_R16G16B16A16_SFLOAT;

}  // namespace

// corpus.txt lines: "file stage tags bindings=set.binding:type[count],... ... push_constants=bytes ...".
std::map<std::string, CorpusEntry> ReadCalibrationCorpus(const std::string& manifest) {
  std::ifstream file(manifest.empty() ? std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/corpus.txt" : manifest);
  std::map<std::string, CorpusEntry> entries;
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    CorpusEntry entry;
    std::string tags, field;
    fields >> entry.file >> entry.stage >> tags;
    bool ok = true;
    while (fields >> field) {
      if (field.rfind("push_constants=", 0) == 0) entry.pushConstantBytes = std::stoul(field.substr(15));
      if (field.rfind("bindings=", 0) != 0 || field == "bindings=-") continue;
      std::istringstream items(field.substr(9));
      for (std::string item; std::getline(items, item, ',');) {
        uint32_t set = 0, binding = 0, count = 1;
        char type[64] = {};
        if (std::sscanf(item.c_str(), "%u.%u:%63[a-z_]", &set, &binding, type) != 3 || set >= 4) {
          ok = false;
          continue;
        }
        if (auto bracket = item.find('['); bracket != std::string::npos) {
          if (item.compare(bracket, 2, "[]") == 0) {  // a runtime descriptor array: not expressed here
            ok = false;
            continue;
          }
          count = std::stoul(item.substr(bracket + 1));
        }
        VkDescriptorSetLayoutBinding b{};
        b.binding = binding;
        b.descriptorCount = count;
        ok &= DescriptorType(type, b.descriptorType);
        entry.bindings[set].push_back(b);
      }
    }
    if (ok) entries[entry.file] = entry;
  }
  return entries;
}

bool IsCompanion(const std::string& file) { return file.rfind("companion_", 0) == 0; }

// Companions read every output of the stage before them and write every input of the stage after them, with
// values derived from the vertex attribute: RADV links the stages (dead outputs removed, constant outputs
// propagated into the next stage), so a companion that ignored an output or wrote a constant would shrink the
// shader being measured.
const std::vector<GraphicsRecipe>& GraphicsRecipes() {
  static const std::vector<GraphicsRecipe> kRecipes = {
      {{{kVert, "fullscreen_triangle.vert.spv"}, {kFrag, "companion_fs_vec2.frag.spv"}}, {}, {kColour}},
      {{{kVert, "instanced_points.vert.spv"}, {kFrag, "companion_fs_points.frag.spv"}},
       {},
       {kColour},
       false,
       VK_PRIMITIVE_TOPOLOGY_POINT_LIST},
      {{{kVert, "mesh_transform.vert.spv"}, {kFrag, "phong.frag.spv"}}, {kVec3, kVec3, kVec2, kVec4}, {kColour}},
      {{{kVert, "skinning.vert.spv"}, {kFrag, "companion_fs_vec3_flat_uint.frag.spv"}},
       {kVec3, kUvec4, kVec4},
       {kColour}},
      {{{kVert, "companion_vs_vec2_flat_uint.vert.spv"}, {kFrag, "alpha_test.frag.spv"}}, {kVec4}, {kColour}},
      {{{kVert, "companion_vs_vec2.vert.spv"}, {kFrag, "demote.frag.spv"}}, {kVec4}, {kColour}},
      {{{kVert, "companion_vs_derivatives.vert.spv"}, {kFrag, "derivatives.frag.spv"}}, {kVec4}, {kColour}},
      {{{kVert, "companion_vs_gbuffer.vert.spv"}, {kFrag, "gbuffer.frag.spv"}},
       {kVec4},
       {kColour, VK_FORMAT_R16G16_SFLOAT, kUvec4, kColour}},
      {{{kVert, "companion_vs_vec2.vert.spv"}, {kFrag, "terminate.frag.spv"}}, {kVec4}, {kColour}},
      {{{kVert, "companion_vs_vec3_vec4.vert.spv"}, {kFrag, "texture_ops.frag.spv"}}, {kVec4}, {kColour}},
      {{{kVert, "companion_vs_position.vert.spv"}, {kFrag, "tonemap_subpass.frag.spv"}}, {kVec4}, {kColour}, true},
      {{{kVert, "companion_vs_float.vert.spv"},
        {kGeom, "point_to_quad.geom.spv"},
        {kFrag, "companion_fs_vec2_flat_int.frag.spv"}},
       {kVec4},
       {kColour},
       false,
       VK_PRIMITIVE_TOPOLOGY_POINT_LIST},
      {{{kVert, "companion_vs_vec3.vert.spv"},
        {kGeom, "wireframe.geom.spv"},
        {kFrag, "companion_fs_wireframe.frag.spv"}},
       {kVec4},
       {kColour}},
      {{{kVert, "companion_vs_vec3.vert.spv"},
        {kTesc, "pn_triangles.tesc.spv"},
        {kTese, "pn_triangles.tese.spv"},
        {kFrag, "companion_fs_vec3.frag.spv"}},
       {kVec4},
       {kColour},
       false,
       VK_PRIMITIVE_TOPOLOGY_PATCH_LIST,
       3},
      {{{kVert, "companion_vs_vec2.vert.spv"},
        {kTesc, "terrain.tesc.spv"},
        {kTese, "terrain.tese.spv"},
        {kFrag, "companion_fs_vec2_float.frag.spv"}},
       {kVec4},
       {kColour},
       false,
       VK_PRIMITIVE_TOPOLOGY_PATCH_LIST,
       4},
  };
  return kRecipes;
}

}  // namespace crashtest::test
