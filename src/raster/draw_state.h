// Everything one draw reads, flattened before it starts by the queue side (src/queue/graphics_draw.cpp) from the
// bound pipeline, the dynamic state, the bound vertex and index buffers and the render pass instance's
// attachments: plain pointers, formats and numbers, so the rasteriser never looks at a Vulkan object.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "execution/dispatch_context.h"
#include "format/color_codec.h"
#include "sampling/image_descriptor.h"

namespace crashtest::raster {

struct VertexBinding {
  const std::byte* data = nullptr;  // nullptr: nothing bound
  uint64_t size = 0;                // bytes from data
  uint64_t address = 0;             // device address of data (fault reports)
  uint32_t stride = 0;
  VkVertexInputRate rate = VK_VERTEX_INPUT_RATE_VERTEX;
  uint32_t divisor = 1;
};

struct VertexAttribute {
  uint32_t location = 0, binding = 0, offset = 0;
  VkFormat format = VK_FORMAT_UNDEFINED;
  format::ColorCodec codec;
};

struct Viewport {
  float x = 0, y = 0, width = 0, height = 0, minDepth = 0, maxDepth = 1;
};

struct Rect {
  int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // [x0, x1) x [y0, y1)
};

struct BlendState {
  bool enable = false;
  VkBlendFactor srcColor = VK_BLEND_FACTOR_ONE, dstColor = VK_BLEND_FACTOR_ZERO;
  VkBlendOp colorOp = VK_BLEND_OP_ADD;
  VkBlendFactor srcAlpha = VK_BLEND_FACTOR_ONE, dstAlpha = VK_BLEND_FACTOR_ZERO;
  VkBlendOp alphaOp = VK_BLEND_OP_ADD;
  VkColorComponentFlags writeMask = 0xf;
};

struct ColorTarget {
  sampling::ImageDescriptor image;  // level[0] is the attachment's mip level, layer 0 its first layer
  BlendState blend;
};

struct StencilFace {
  VkStencilOp failOp = VK_STENCIL_OP_KEEP, passOp = VK_STENCIL_OP_KEEP, depthFailOp = VK_STENCIL_OP_KEEP;
  VkCompareOp compareOp = VK_COMPARE_OP_ALWAYS;
  uint32_t compareMask = 0xff, writeMask = 0xff, reference = 0;
};

struct DepthStencilState {
  sampling::ImageDescriptor depth;    // bound == false: no depth attachment
  sampling::ImageDescriptor stencil;  // bound == false: no stencil attachment
  bool depthTest = false, depthWrite = false;
  VkCompareOp depthCompare = VK_COMPARE_OP_LESS;
  bool depthBoundsTest = false;
  float minDepthBounds = 0, maxDepthBounds = 1;
  bool stencilTest = false;
  StencilFace front, back;
};

// "Multisampling" (28.3): samples per pixel at the standard sample locations, the pipeline's sample mask and
// alpha to coverage; and sample shading ("Sample Shading", 28.9) as the pipeline asks for it (the fragment shader
// can ask for it too).
struct MultisampleState {
  uint32_t samples = 1;
  uint32_t sampleMask = ~0u;
  bool alphaToCoverage = false;
  bool sampleShading = false;
  float minSampleShading = 0;
};

struct RasterState {
  VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
  VkPolygonMode polygonMode = VK_POLYGON_MODE_FILL;
  VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  bool depthClamp = false;
  bool depthBias = false;
  float depthBiasConstant = 0, depthBiasClamp = 0, depthBiasSlope = 0;
  bool rasterizerDiscard = false;
  uint32_t subPixelBits = 8;
  float lineWidth = 1.0f;                    // already clamped to the device's lineWidthRange
  float pointSizeRange[2] = {1.0f, 1.0f};    // the device's limits: PointSize is clamped to them
};

struct DrawState {
  // The stages' executable forms and what their invocations see (bindings, budget, fault mode).
  execution::DispatchContext vertex;
  execution::DispatchContext fragment;  // exe nullptr: no fragment shader (depth-only passes)
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool primitiveRestart = false;
  std::vector<VertexBinding> bindings;  // indexed by binding number
  std::vector<VertexAttribute> attributes;
  Viewport viewport;
  Rect scissor;  // the scissor intersected with the render area and the attachments' extent
  RasterState raster;
  MultisampleState multisample;
  DepthStencilState depthStencil;
  std::vector<ColorTarget> colors;  // by colour attachment index (= fragment output location)
  float blendConstants[4] = {0, 0, 0, 0};
  // "Logical Operations" (29.2): when enabled, replaces blending on attachments of integer and normalized formats.
  bool logicOpEnable = false;
  VkLogicOp logicOp = VK_LOGIC_OP_COPY;
  // Multiview: the view this pass of the draw renders (the ViewIndex built-in), which is also the attachment layer
  // it writes ("each view renders to the layer of the attachments given by its index", VK_KHR_multiview). 0
  // without multiview.
  uint32_t viewIndex = 0;
};

// One draw's parameters (vkCmdDraw / vkCmdDrawIndexed and the indirect forms, one draw at a time).
struct DrawCall {
  bool indexed = false;
  uint32_t count = 0;           // vertices, or indices
  uint32_t instanceCount = 1;
  uint32_t first = 0;           // first vertex, or first index
  int32_t vertexOffset = 0;
  uint32_t firstInstance = 0;
  const std::byte* indices = nullptr;  // the bound index buffer from its offset; nullptr: none bound
  uint64_t indexBytes = 0;
  uint64_t indexAddress = 0;
  VkIndexType indexType = VK_INDEX_TYPE_UINT32;
  uint32_t drawIndex = 0;  // the DrawIndex built-in: the draw's position in a multi-draw indirect command
};

}  // namespace crashtest::raster
