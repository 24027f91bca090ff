// The queue side of draws: the graphics state a command stream sets (pipeline, descriptor sets, push constants,
// vertex and index buffers, dynamic state), flattened into raster::DrawState with the render pass instance's
// attachments when a draw runs; a fault a draw raises goes to the fault engine. The rasteriser lives in
// src/raster.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "command/command_ops.h"
#include "command/command_records.h"
#include "queue/bound_resources.h"
#include "raster/draw.h"
#include "raster/draw_state.h"

namespace crashtest {

class Buffer;
class ImageView;
class Pipeline;
class Queue;

// The attachments of the current subpass or dynamic rendering instance.
struct DrawAttachments {
  std::vector<const ImageView*> colors;  // by colour attachment index (nullptr: unused)
  const ImageView* depth = nullptr;
  const ImageView* stencil = nullptr;
  VkRect2D renderArea{};
  bool active = false;  // inside a render pass instance
};

class GraphicsDispatcher {
 public:
  explicit GraphicsDispatcher(Queue& queue);

  // A primary command buffer starts with no graphics state (Vulkan 1.3, 6.1).
  void Reset();
  void BindPipeline(const record::BindPipeline& bind);
  void BindDescriptorSets(const record::BindDescriptorSets& bind) { resources_.BindDescriptorSets(bind); }
  void PushDescriptorSet(const record::PushDescriptorSet& push) { resources_.PushDescriptorSet(push); }
  void PushConstants(const record::PushConstants& push) { resources_.PushConstants(push); }
  // Vertex/index buffers and dynamic state; false for records that are not graphics state.
  bool SetState(CommandOp op, const void* record);

  // Runs one draw. False when the draw lost the device (the submission stops there). `where` names the command.
  // *outcome receives what the queries count; *executed says whether the draw ran (false: skipped with a warning
  // or an error, and *outcome is empty).
  bool Draw(const raster::DrawCall& call, const DrawAttachments& attachments, const std::string& where,
            raster::DrawOutcome* outcome, bool* executed);
  // The index buffer bound (for indexed draws). False when it was destroyed or its memory freed: the use-after-free
  // fault was raised (queue/resource_liveness.h) and the draw must not run.
  bool IndexBuffer(raster::DrawCall* call, const std::string& where);

 private:
  // False when the draw is skipped: unsupported state (warned), or a resource it uses was destroyed (the fault was
  // raised; the device is then lost unless the plan masks it).
  bool Flatten(const DrawAttachments& attachments, const std::string& where, raster::DrawState* state);
  void Warn(const std::string& where, const std::string& what);

  struct VertexBufferBinding {
    const Buffer* buffer = nullptr;
    VkDeviceSize offset = 0, size = VK_WHOLE_SIZE, stride = 0;
    bool strideGiven = false;
  };
  // Dynamic state as last set (used when the pipeline lists it as dynamic).
  struct Dynamic {
    std::vector<VkViewport> viewports;
    std::vector<VkRect2D> scissors;
    float blendConstants[4] = {0, 0, 0, 0};
    float depthBias[3] = {0, 0, 0};  // constant, clamp, slope
    float depthBounds[2] = {0, 1};
    float lineWidth = 1.0f;
    uint32_t compareMask[2] = {0xff, 0xff}, writeMask[2] = {0xff, 0xff}, reference[2] = {0, 0};  // front, back
    VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
    VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    bool depthTest = false, depthWrite = false, depthBoundsTest = false, stencilTest = false;
    bool rasterizerDiscard = false, depthBiasEnable = false, primitiveRestart = false;
    VkCompareOp depthCompare = VK_COMPARE_OP_NEVER;
    VkStencilOpState stencil[2]{};
  };

  Queue& queue_;
  const Pipeline* pipeline_ = nullptr;
  BoundResources resources_;
  FlatBindings vertexBindings_, fragmentBindings_;
  std::vector<VertexBufferBinding> vertexBuffers_;
  const Buffer* indexBuffer_ = nullptr;
  VkDeviceSize indexOffset_ = 0;
  VkIndexType indexType_ = VK_INDEX_TYPE_UINT32;
  Dynamic dynamic_;
  std::unordered_set<std::string> warned_;  // messages already logged (once per pipeline and reason)
};

}  // namespace crashtest
