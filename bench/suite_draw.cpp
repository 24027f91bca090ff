// Draws: rendering into a render pass's attachments, one submission and fence wait per iteration.
//   BM_DrawNewPipeline  vkCreateShaderModule ×2 + vkCreateGraphicsPipelines + recording + the first
//                                 submission of one lit triangle pair into 64×64, with freshly salted SPIR-V: the time
//                                 until a new graphics pipeline has drawn once (lavapipe compiles its shaders with
//                                 LLVM at pipeline creation or first draw; either way it is inside this figure).
//   BM_DrawTexturedQuad1080p      a full-screen quad at 1920×1080 sampling a 256² RGBA8 texture (trilinear, mipmaps,
//                                 REPEAT) per frame: fragment-bound.
//   BM_DrawMesh100k               a 100,352-triangle indexed height-field mesh (lit, position + normal attributes)
//                                 at 1280×720 with a D32 depth test per frame: vertex- and setup-bound.
// Every frame clears the attachments (load op CLEAR) and draws; nothing is read back.
#include <cmath>
#include <cstring>

#include "bench_common.h"
#include "draw_rig.h"
#include "shader_layout.h"
#include "suites.h"

namespace crashtest::bench {
namespace {

const CorpusShader* find_shader(const Corpus& corpus, const std::string& name) {
  for (const CorpusShader& shader : corpus.shaders)
    if (shader.name == name && shader.error.empty()) return &shader;
  return nullptr;
}

// A height field of `quads`² quads over NDC x, y in [-0.95, 0.95], depth 0.3..0.7: position (3 floats) and normal
// (3 floats) per vertex, two triangles per quad.
struct Mesh {
  std::vector<float> vertices;
  std::vector<uint32_t> indices;
};

Mesh height_field(uint32_t quads) {
  Mesh mesh;
  const uint32_t n = quads + 1;
  auto height = [](float x, float y) { return 0.5f + 0.2f * std::sin(x * 9.0f) * std::cos(y * 7.0f); };
  for (uint32_t j = 0; j < n; ++j) {
    for (uint32_t i = 0; i < n; ++i) {
      const float x = -0.95f + 1.9f * static_cast<float>(i) / static_cast<float>(quads);
      const float y = -0.95f + 1.9f * static_cast<float>(j) / static_cast<float>(quads);
      const float e = 1e-3f;
      const float dx = (height(x + e, y) - height(x - e, y)) / (2 * e);
      const float dy = (height(x, y + e) - height(x, y - e)) / (2 * e);
      const float len = std::sqrt(dx * dx + dy * dy + 1.0f);
      mesh.vertices.insert(mesh.vertices.end(), {x, y, height(x, y), -dx / len, -dy / len, 1.0f / len});
    }
  }
  for (uint32_t j = 0; j < quads; ++j) {
    for (uint32_t i = 0; i < quads; ++i) {
      const uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      mesh.indices.insert(mesh.indices.end(), {a, b, c, c, b, d});
    }
  }
  return mesh;
}

// The bench's own shaders are compiled with it; a missing one means a broken build directory.
std::string shaders_problem(const CorpusShader* vertex, const CorpusShader* fragment) {
  if (vertex == nullptr || fragment == nullptr) return "error: bench/shaders' draw shaders were not found";
  return {};
}

const float kIdentity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

// Everything one draw benchmark holds: target, optional texture, pipeline, vertex and index buffers, commands.
struct DrawRig {
  const VkContext& ctx;
  std::unique_ptr<RenderTarget> target;
  std::unique_ptr<Texture> texture;
  std::unique_ptr<GraphicsPipeline> pipeline;
  std::unique_ptr<HostBuffer> vertices, indices;
  uint32_t index_count = 0;
  uint32_t vertex_count = 0;  // for non-indexed draws
  std::unique_ptr<CommandRig> commands;
  explicit DrawRig(const VkContext& context) : ctx(context) {}
  ~DrawRig() { commands.reset(); }

  std::string upload_mesh(const Mesh& mesh) {
    std::string error;
    vertices = HostBuffer::Create(ctx, mesh.vertices.size() * sizeof(float), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &error);
    if (!vertices) return error;
    std::memcpy(vertices->mapped(), mesh.vertices.data(), mesh.vertices.size() * sizeof(float));
    indices = HostBuffer::Create(ctx, mesh.indices.size() * sizeof(uint32_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &error);
    if (!indices) return error;
    std::memcpy(indices->mapped(), mesh.indices.data(), mesh.indices.size() * sizeof(uint32_t));
    index_count = static_cast<uint32_t>(mesh.indices.size());
    return {};
  }

  // Records begin render pass, the draw, end render pass into the rig's command buffer.
  std::string record() {
    const DeviceCommands& vk = ctx.vk();
    VkCommandBuffer cmd = commands->command_buffer();
    VkResult result = vk.vkResetCommandPool(ctx.device(), commands->pool(), 0);
    if (result != VK_SUCCESS) return call_failed("vkResetCommandPool", result);
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    vk.vkBeginCommandBuffer(cmd, &begin);
    target->begin(cmd);
    vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline->pipeline());
    if (texture) {
      VkDescriptorSet set = texture->set();
      vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline->layout(), 0, 1, &set, 0, nullptr);
    }
    if (indices) {
      vk.vkCmdPushConstants(cmd, pipeline->layout(), VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof kIdentity, kIdentity);
      const VkBuffer buffer = vertices->buffer();
      const VkDeviceSize offset = 0;
      vk.vkCmdBindVertexBuffers(cmd, 0, 1, &buffer, &offset);
      vk.vkCmdBindIndexBuffer(cmd, indices->buffer(), 0, VK_INDEX_TYPE_UINT32);
      vk.vkCmdDrawIndexed(cmd, index_count, 1, 0, 0, 0);
    } else {
      vk.vkCmdDraw(cmd, vertex_count, 1, 0, 0);
    }
    vk.vkCmdEndRenderPass(cmd);
    result = vk.vkEndCommandBuffer(cmd);
    return result == VK_SUCCESS ? std::string() : call_failed("vkEndCommandBuffer", result);
  }
};

const VertexLayout kMeshInput{24, {3, 3}};

void draw_frames(benchmark::State& state, DrawRig& rig) {
  if (!ok_or_skip(state, rig.record())) return;
  // One untimed frame first: lavapipe JIT-compiles its shaders at the first draw, which BM_DrawNewPipeline
  // measures; here only the steady-state frame counts.
  VkResult result = rig.commands->submit_and_wait();
  if (result != VK_SUCCESS) {
    ok_or_skip(state, call_failed("vkQueueSubmit", result));
    return;
  }
  for (auto _ : state) {
    result = rig.commands->submit_and_wait();
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkQueueSubmit", result));
      return;
    }
  }
}

void textured_quad(benchmark::State& state, const CorpusShader* vertex, const CorpusShader* fragment) {
  if (!ok_or_skip(state, shaders_problem(vertex, fragment))) return;
  const VkContext* ctx = context_or_skip(state, DeviceFlavor::kPlain);
  if (!ctx || !ok_or_skip(state, missing_draw_commands(*ctx))) return;
  DrawRig rig(*ctx);
  std::string error;
  rig.target = RenderTarget::Create(*ctx, 1920, 1080, false, &error);
  if (rig.target) rig.texture = Texture::Create(*ctx, 256, &error);
  if (rig.texture)
    rig.pipeline = GraphicsPipeline::Create(*ctx, *rig.target, vertex->words, fragment->words, VertexLayout{},
                                            rig.texture->set_layout(), 0, &error);
  if (rig.pipeline) rig.commands = CommandRig::Create(*ctx, &error);
  if (!ok_or_skip(state, error)) return;
  rig.vertex_count = 6;
  draw_frames(state, rig);
  state.counters["pixels"] = 1920.0 * 1080.0;
}

void mesh(benchmark::State& state, const CorpusShader* vertex, const CorpusShader* fragment) {
  if (!ok_or_skip(state, shaders_problem(vertex, fragment))) return;
  const VkContext* ctx = context_or_skip(state, DeviceFlavor::kPlain);
  if (!ctx || !ok_or_skip(state, missing_draw_commands(*ctx))) return;
  DrawRig rig(*ctx);
  std::string error;
  rig.target = RenderTarget::Create(*ctx, 1280, 720, true, &error);
  if (rig.target)
    rig.pipeline = GraphicsPipeline::Create(*ctx, *rig.target, vertex->words, fragment->words, kMeshInput,
                                            VK_NULL_HANDLE, sizeof kIdentity, &error);
  if (rig.pipeline) rig.commands = CommandRig::Create(*ctx, &error);
  if (!ok_or_skip(state, error)) return;
  if (!ok_or_skip(state, rig.upload_mesh(height_field(224)))) return;
  draw_frames(state, rig);
  state.counters["triangles"] = static_cast<double>(rig.index_count / 3);
}

void pipeline_first_draw(benchmark::State& state, const CorpusShader* vertex, const CorpusShader* fragment) {
  if (!ok_or_skip(state, shaders_problem(vertex, fragment))) return;
  const VkContext* ctx = context_or_skip(state, DeviceFlavor::kPlain);
  if (!ctx || !ok_or_skip(state, missing_draw_commands(*ctx))) return;
  DrawRig rig(*ctx);
  std::string error;
  rig.target = RenderTarget::Create(*ctx, 64, 64, true, &error);
  if (rig.target) rig.commands = CommandRig::Create(*ctx, &error);
  if (!ok_or_skip(state, error)) return;
  if (!ok_or_skip(state, rig.upload_mesh(height_field(1)))) return;
  uint32_t salt = 1;
  for (auto _ : state) {
    ++salt;
    rig.pipeline = GraphicsPipeline::Create(*ctx, *rig.target, salted_spirv(vertex->words, salt),
                                            salted_spirv(fragment->words, salt), kMeshInput, VK_NULL_HANDLE,
                                            sizeof kIdentity, &error);
    if (!ok_or_skip(state, error)) return;
    if (!ok_or_skip(state, rig.record())) return;
    const VkResult result = rig.commands->submit_and_wait();
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkQueueSubmit", result));
      return;
    }
    rig.pipeline.reset();
  }
}

}  // namespace

void register_draw_benchmarks(const Corpus& own) {
  const CorpusShader* quad_vert = find_shader(own, "quad.vert");
  const CorpusShader* quad_frag = find_shader(own, "quad.frag");
  const CorpusShader* mesh_vert = find_shader(own, "mesh.vert");
  const CorpusShader* mesh_frag = find_shader(own, "mesh.frag");
  benchmark::RegisterBenchmark("BM_DrawNewPipeline", pipeline_first_draw, mesh_vert, mesh_frag)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_DrawTexturedQuad1080p", textured_quad, quad_vert, quad_frag)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_DrawMesh100k", mesh, mesh_vert, mesh_frag)->Unit(benchmark::kMillisecond);
}

}  // namespace crashtest::bench
