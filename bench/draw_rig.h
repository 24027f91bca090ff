// What the draw suite renders into and with: a render pass with one RGBA8 colour attachment (and optionally a
// D32_SFLOAT depth attachment) of a given size in device-local memory, a mipmapped RGBA8 texture with a sampler,
// and graphics pipelines built from SPIR-V words. Vulkan 1.0 commands only (render passes, not dynamic
// rendering), so every driver the bench compares can run it. Errors are "unsupported: …" / "error: …" messages
// (bench_common.h).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vk_context.h"

namespace crashtest::bench {

// An image with its own device-local memory and one view of all its levels.
struct DeviceImage {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};

class RenderTarget {
 public:
  static std::unique_ptr<RenderTarget> Create(const VkContext& ctx, uint32_t width, uint32_t height, bool depth,
                                              std::string* error);
  ~RenderTarget();
  RenderTarget(const RenderTarget&) = delete;
  RenderTarget& operator=(const RenderTarget&) = delete;

  VkRenderPass render_pass() const { return render_pass_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  bool has_depth() const { return depth_.image != VK_NULL_HANDLE; }
  // vkCmdBeginRenderPass clearing colour to dark grey and depth to 1.0.
  void begin(VkCommandBuffer cmd) const;

 private:
  explicit RenderTarget(const VkContext& ctx) : ctx_(ctx) {}
  const VkContext& ctx_;
  uint32_t width_ = 0, height_ = 0;
  DeviceImage color_, depth_;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
};

// A square RGBA8 texture with a full mip chain of a procedural pattern, uploaded once, sampled with trilinear
// filtering and REPEAT addressing; bound as a combined image sampler at set 0, binding 0 of `set_layout()`.
class Texture {
 public:
  static std::unique_ptr<Texture> Create(const VkContext& ctx, uint32_t size, std::string* error);
  ~Texture();
  Texture(const Texture&) = delete;
  Texture& operator=(const Texture&) = delete;
  VkDescriptorSetLayout set_layout() const { return set_layout_; }
  VkDescriptorSet set() const { return set_; }

 private:
  explicit Texture(const VkContext& ctx) : ctx_(ctx) {}
  const VkContext& ctx_;
  DeviceImage image_;
  VkSampler sampler_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

// Vertex input of a pipeline: one interleaved binding of float attributes.
struct VertexLayout {
  uint32_t stride = 0;                   // 0: no vertex input
  std::vector<uint32_t> float_counts;    // per location: 2, 3 or 4 floats, packed in order
};

// A graphics pipeline (and its layout and shader modules) for `target`: triangle lists, back faces kept, depth
// test LESS with writes when the target has depth, no blending.
class GraphicsPipeline {
 public:
  static std::unique_ptr<GraphicsPipeline> Create(const VkContext& ctx, const RenderTarget& target,
                                                  const std::vector<uint32_t>& vertex,
                                                  const std::vector<uint32_t>& fragment, const VertexLayout& input,
                                                  VkDescriptorSetLayout set_layout, uint32_t push_bytes,
                                                  std::string* error);
  ~GraphicsPipeline();
  GraphicsPipeline(const GraphicsPipeline&) = delete;
  GraphicsPipeline& operator=(const GraphicsPipeline&) = delete;
  VkPipeline pipeline() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }

 private:
  explicit GraphicsPipeline(const VkContext& ctx) : ctx_(ctx) {}
  const VkContext& ctx_;
  VkShaderModule modules_[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

// The commands the draw suite needs beyond the copy and dispatch suites'; "" when all are there.
std::string missing_draw_commands(const VkContext& ctx);

}  // namespace crashtest::bench
