// A small rendering harness through the real loader, for the draw tests: one device of a chosen driver
// (crashtest or Mesa's lavapipe, both in VK_ICD_FILENAMES), one colour attachment (and optionally depth/stencil)
// rendered with dynamic rendering by a list of draws, and the attachment read back.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace crashtest::test {

struct VertexAttribute {
  uint32_t location = 0, binding = 0;
  VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
  uint32_t offset = 0;
};

struct VertexStream {
  std::vector<float> data;  // raw words (floats, or integers stored bitwise)
  uint32_t stride = 0;      // bytes
  VkVertexInputRate rate = VK_VERTEX_INPUT_RATE_VERTEX;
};

struct DrawCommand {
  uint32_t count = 3, instances = 1, first = 0;
  int32_t vertexOffset = 0;
  uint32_t firstInstance = 0;
  bool indexed = false;
  std::vector<float> pushConstants;  // pushed before the draw (vertex and fragment stages), at offset 0
};

// A texture bound as a combined image sampler at set 0, binding 0 (fragment stage): RGBA8 levels.
struct Texture {
  uint32_t width = 0, height = 0, levels = 1;
  std::vector<uint32_t> texels;  // every level in order, tightly packed RGBA8
  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
};

struct RenderJob {
  std::vector<uint32_t> vertexSpirv, fragmentSpirv;
  uint32_t width = 64, height = 64;
  VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM;
  VkClearColorValue clearColor{};
  VkFormat depthFormat = VK_FORMAT_UNDEFINED;  // UNDEFINED: no depth/stencil attachment
  float clearDepth = 1.0f;
  uint32_t clearStencil = 0;
  VkPipelineDepthStencilStateCreateInfo depthStencil{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  VkPipelineColorBlendAttachmentState blend{VK_FALSE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD,
                                            VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xf};
  float blendConstants[4] = {0, 0, 0, 0};
  bool logicOpEnable = false;  // needs the logicOp feature
  VkLogicOp logicOp = VK_LOGIC_OP_COPY;
  // An optional second colour attachment (fragment output location 1) with its own blend state (the
  // independentBlend feature when it differs from `blend`), read back into RenderResult::secondColor. UNDEFINED:
  // none. Not with multisampling.
  VkFormat secondColorFormat = VK_FORMAT_UNDEFINED;
  VkClearColorValue secondClearColor{};
  VkPipelineColorBlendAttachmentState secondBlend{VK_FALSE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
                                                  VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
                                                  VK_BLEND_OP_ADD, 0xf};
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool primitiveRestart = false;
  VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
  VkPolygonMode polygonMode = VK_POLYGON_MODE_FILL;
  float lineWidth = 1.0f;
  VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  bool depthBias = false;
  float depthBiasConstant = 0, depthBiasSlope = 0;
  float depthBiasClamp = 0;  // non-zero needs the depthBiasClamp feature
  bool depthClamp = false;   // needs the depthClamp feature
  VkViewport viewport{};  // width 0: the whole attachment, depth 0..1
  VkRect2D scissor{};     // extent 0: the whole attachment
  // Viewports and scissors 1, 2, ... after `viewport` and `scissor` (needs the multiViewport feature).
  std::vector<VkViewport> moreViewports;
  std::vector<VkRect2D> moreScissors;
  std::vector<VertexStream> streams;  // binding i = streams[i]
  std::vector<VertexAttribute> attributes;
  std::vector<uint32_t> indices;
  VkIndexType indexType = VK_INDEX_TYPE_UINT32;
  std::vector<Texture> textures;  // at most one
  // A storage buffer at set 0, binding 1 (fragment stage) with these words, read back into RenderResult::storage;
  // empty: none.
  std::vector<uint32_t> storage;
  std::vector<DrawCommand> draws;
  bool occlusionQuery = false;  // count the samples that pass over all draws
  // Pipeline statistics counted over all draws (0: no query); RenderResult::statistics holds them in bit order.
  VkQueryPipelineStatisticFlags statistics = 0;
  // Multiview (0: none): the views rendered, each into its layer of the attachments; RenderResult's images then
  // hold every layer up to the highest view, one after the other.
  uint32_t viewMask = 0;
  // Multisampling: attachments of this many samples, the colour one resolved (average) into the image read back;
  // the depth attachment is then not read back.
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  uint32_t sampleMask = ~0u;
  bool alphaToCoverage = false;
  // Sample shading (needs the sampleRateShading feature): the pipeline's sampleShadingEnable and minSampleShading.
  bool sampleShading = false;
  float minSampleShading = 0;
};

struct RenderResult {
  VkResult result = VK_SUCCESS;
  std::string error;
  std::vector<uint8_t> color;  // width * height texels of the colour format, tightly packed
  std::vector<uint8_t> depth;  // the depth aspect, tightly packed, when a depth format was given
  std::vector<uint8_t> secondColor;  // the second colour attachment, when RenderJob::secondColorFormat is set
  uint64_t samplesPassed = 0;
  std::vector<uint64_t> statistics;
  std::vector<uint32_t> storage;  // the storage buffer after the draws
  // After VK_ERROR_DEVICE_LOST on a device opened with `faults`: vkGetDeviceFaultInfoEXT's answer.
  std::string faultDescription;
  std::vector<VkDeviceFaultAddressInfoEXT> faultAddresses;
};

class RenderDevice {
 public:
  // The first physical device whose name contains `nameFragment` and that is (crashtest 1) or is not (0) a
  // crashtest device (one offering VK_KHR_device_fault); nullptr with *error if none. With `faults`, also enables
  // VK_EXT_device_fault (when offered) so a lost device's report can be read.
  static std::unique_ptr<RenderDevice> Open(VkInstance instance, const std::string& nameFragment, int crashtest,
                                            std::string* error, bool faults = false);
  ~RenderDevice();
  RenderResult Render(const RenderJob& job);
  const std::string& name() const { return name_; }
  const VkPhysicalDeviceFeatures& features() const { return features_; }

 private:
  uint32_t MemoryType(uint32_t bits, VkMemoryPropertyFlags want) const;
  void ReadFault(RenderResult* out) const;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  std::string name_;
  bool deviceFault_ = false;
  VkPhysicalDeviceFeatures features_{};  // the features enabled
  VkPhysicalDeviceMemoryProperties memory_{};
};

// Bytes per texel of the formats the harness reads back.
uint32_t FormatBytes(VkFormat format);

// The words of tests/raster/shaders/NAME compiled by the build (CRASHTEST_RASTER_SHADER_DIR); empty if missing.
std::vector<uint32_t> RasterShader(const std::string& name);

}  // namespace crashtest::test
