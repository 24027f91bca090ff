#include "queue/graphics_draw.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "command/command_arena.h"
#include "common/log.h"
#include "device/device.h"
#include "device/instance.h"
#include "device/physical_device.h"
#include "device/resources.h"
#include "execution/executable.h"
#include "memory/views.h"
#include "pipeline/pipeline.h"
#include "queue/device_execution.h"
#include "queue/queue.h"
#include "queue/resource_liveness.h"
#include "queue/sampling_bindings.h"
#include "queue/shader_fault_report.h"
#include "raster/draw.h"

namespace crashtest {

namespace {

constexpr VkShaderStageFlags kGraphicsStages = VK_SHADER_STAGE_ALL_GRAPHICS;

int64_t DeadlineNs(uint32_t timeoutMs) {
  if (timeoutMs == 0) return 0;
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
             .count() +
         static_cast<int64_t>(timeoutMs) * 1000000;
}

}  // namespace

GraphicsDispatcher::GraphicsDispatcher(Queue& queue)
    : queue_(queue), resources_(queue, VK_PIPELINE_BIND_POINT_GRAPHICS, kGraphicsStages) {}

void GraphicsDispatcher::Reset() {
  pipeline_ = nullptr;
  resources_.Reset();
  vertexBuffers_.clear();
  indexBuffer_ = nullptr;
  dynamic_ = Dynamic{};
}

void GraphicsDispatcher::BindPipeline(const record::BindPipeline& bind) {
  if (bind.bindPoint != VK_PIPELINE_BIND_POINT_GRAPHICS) return;
  pipeline_ = FromHandle(bind.pipeline);
}

bool GraphicsDispatcher::SetState(CommandOp op, const void* record) {
  Dynamic& d = dynamic_;
  auto faces = [](VkStencilFaceFlags mask, auto&& set) {
    if (mask & VK_STENCIL_FACE_FRONT_BIT) set(0);
    if (mask & VK_STENCIL_FACE_BACK_BIT) set(1);
  };
  switch (op) {
    case CommandOp::BindVertexBuffers:
    case CommandOp::BindVertexBuffers2: {
      const auto* r = static_cast<const record::BindVertexBuffers*>(record);
      const Buffer* const* buffers = PayloadOf<const Buffer*>(r);
      const VkDeviceSize* offsets = reinterpret_cast<const VkDeviceSize*>(buffers + r->count);
      const VkDeviceSize* sizes = offsets + r->count;
      const VkDeviceSize* strides = sizes + r->count;
      if (vertexBuffers_.size() < r->first + r->count) vertexBuffers_.resize(r->first + r->count);
      for (uint32_t i = 0; i < r->count; ++i) {
        VertexBufferBinding& b = vertexBuffers_[r->first + i];
        b = {buffers[i], offsets[i], sizes[i], strides[i], op == CommandOp::BindVertexBuffers2 && strides[i] != 0};
      }
      return true;
    }
    case CommandOp::BindIndexBuffer: {
      const auto* r = static_cast<const record::BindIndexBuffer*>(record);
      indexBuffer_ = r->buffer;
      indexOffset_ = r->offset;
      indexType_ = r->indexType;
      return true;
    }
    case CommandOp::SetViewport:
    case CommandOp::SetViewportWithCount: {
      const auto* r = static_cast<const record::SetViewport*>(record);
      if (op == CommandOp::SetViewportWithCount) d.viewports.clear();
      if (d.viewports.size() < r->first + r->count) d.viewports.resize(r->first + r->count);
      std::copy_n(PayloadOf<VkViewport>(r), r->count, d.viewports.begin() + r->first);
      return true;
    }
    case CommandOp::SetScissor:
    case CommandOp::SetScissorWithCount: {
      const auto* r = static_cast<const record::SetScissor*>(record);
      if (op == CommandOp::SetScissorWithCount) d.scissors.clear();
      if (d.scissors.size() < r->first + r->count) d.scissors.resize(r->first + r->count);
      std::copy_n(PayloadOf<VkRect2D>(r), r->count, d.scissors.begin() + r->first);
      return true;
    }
    case CommandOp::SetBlendConstants:
      std::copy_n(static_cast<const record::SetBlendConstants*>(record)->constants, 4, d.blendConstants);
      return true;
    case CommandOp::SetLineWidth: d.lineWidth = static_cast<const record::SetFloat*>(record)->value; return true;
    case CommandOp::SetDepthBias: {
      const auto* r = static_cast<const record::SetDepthBias*>(record);
      d.depthBias[0] = r->constantFactor, d.depthBias[1] = r->clamp, d.depthBias[2] = r->slopeFactor;
      return true;
    }
    case CommandOp::SetDepthBounds: {
      const auto* r = static_cast<const record::SetDepthBounds*>(record);
      d.depthBounds[0] = r->min, d.depthBounds[1] = r->max;
      return true;
    }
    case CommandOp::SetStencilCompareMask:
    case CommandOp::SetStencilWriteMask:
    case CommandOp::SetStencilReference: {
      const auto* r = static_cast<const record::SetStencilValue*>(record);
      uint32_t* values = op == CommandOp::SetStencilCompareMask ? d.compareMask
                         : op == CommandOp::SetStencilWriteMask ? d.writeMask
                                                                : d.reference;
      faces(r->faceMask, [&](int f) { values[f] = r->value; });
      return true;
    }
    case CommandOp::SetStencilOp: {
      const auto* r = static_cast<const record::SetStencilOp*>(record);
      faces(r->faceMask, [&](int f) {
        d.stencil[f].failOp = r->fail, d.stencil[f].passOp = r->pass, d.stencil[f].depthFailOp = r->depthFail;
        d.stencil[f].compareOp = r->compare;
      });
      return true;
    }
    case CommandOp::SetCullMode: d.cullMode = static_cast<const record::SetFlags*>(record)->flags; return true;
    case CommandOp::SetFrontFace:
      d.frontFace = static_cast<VkFrontFace>(static_cast<const record::SetFlags*>(record)->flags);
      return true;
    case CommandOp::SetPrimitiveTopology:
      d.topology = static_cast<VkPrimitiveTopology>(static_cast<const record::SetFlags*>(record)->flags);
      return true;
    case CommandOp::SetDepthCompareOp:
      d.depthCompare = static_cast<VkCompareOp>(static_cast<const record::SetFlags*>(record)->flags);
      return true;
    case CommandOp::SetDepthTestEnable:
    case CommandOp::SetDepthWriteEnable:
    case CommandOp::SetDepthBoundsTestEnable:
    case CommandOp::SetStencilTestEnable:
    case CommandOp::SetRasterizerDiscardEnable:
    case CommandOp::SetDepthBiasEnable:
    case CommandOp::SetPrimitiveRestartEnable: {
      const bool enable = static_cast<const record::SetEnable*>(record)->enable == VK_TRUE;
      bool* target = op == CommandOp::SetDepthTestEnable          ? &d.depthTest
                     : op == CommandOp::SetDepthWriteEnable       ? &d.depthWrite
                     : op == CommandOp::SetDepthBoundsTestEnable  ? &d.depthBoundsTest
                     : op == CommandOp::SetStencilTestEnable      ? &d.stencilTest
                     : op == CommandOp::SetRasterizerDiscardEnable ? &d.rasterizerDiscard
                     : op == CommandOp::SetDepthBiasEnable        ? &d.depthBiasEnable
                                                                  : &d.primitiveRestart;
      *target = enable;
      return true;
    }
    default:
      return false;
  }
}

bool GraphicsDispatcher::IndexBuffer(raster::DrawCall* call, const std::string& where) {
  call->indexType = indexType_;
  if (!BufferLive(queue_, indexBuffer_, ResourceAccess::Read, where)) [[unlikely]] return false;
  if (indexBuffer_ == nullptr || indexBuffer_->data() == nullptr) return true;
  const VkDeviceSize size = indexBuffer_->size();
  call->indices = indexBuffer_->data() + std::min(indexOffset_, size);
  call->indexBytes = indexOffset_ < size ? size - indexOffset_ : 0;
  call->indexAddress = indexBuffer_->address() + indexOffset_;
  return true;
}

void GraphicsDispatcher::Warn(const std::string& where, const std::string& what) {
  if (warned_.insert(what).second)
    CT_WARN("%s: %s; such draws are skipped (reported once per pipeline and reason)", where.c_str(), what.c_str());
}

bool GraphicsDispatcher::Flatten(const DrawAttachments& attachments, const std::string& where,
                                 raster::DrawState* state) {
  const Pipeline& pipeline = *pipeline_;
  const GraphicsState& g = pipeline.graphics();
  Device& device = queue_.device();
  char pipelineId[64];
  std::snprintf(pipelineId, sizeof pipelineId, "pipeline %p", static_cast<const void*>(&pipeline));
  const PipelineStage* vertex = pipeline.FindStage(VK_SHADER_STAGE_VERTEX_BIT);
  const PipelineStage* fragment = pipeline.FindStage(VK_SHADER_STAGE_FRAGMENT_BIT);
  for (const PipelineStage& stage : pipeline.stages()) {
    if (stage.stage != VK_SHADER_STAGE_VERTEX_BIT && stage.stage != VK_SHADER_STAGE_FRAGMENT_BIT) {
      Warn(where, std::string(pipelineId) + " has tessellation or geometry stages, which are not executed yet");
      return false;
    }
    if (stage.executable == nullptr) {
      Warn(where, std::string(pipelineId) + ": its " + (stage.stage == VK_SHADER_STAGE_VERTEX_BIT ? "vertex" : "fragment") +
                      " shader \"" + stage.entryPoint + "\" is not executed (the interpreter does not run " +
                      stage.executableError + " yet)");
      return false;
    }
  }
  state->multisample.samples = static_cast<uint32_t>(g.rasterizationSamples);
  state->multisample.sampleMask = g.sampleMask;
  state->multisample.alphaToCoverage = g.alphaToCoverageEnable;
  state->multisample.sampleShading = g.sampleShadingEnable;
  state->multisample.minSampleShading = g.minSampleShading;
  state->logicOpEnable = g.logicOpEnable;
  state->logicOp = g.logicOp;

  const ExecutionOptions& options = device.physicalDevice().instance().executionOptions();
  auto context = [&](const PipelineStage& stage, FlatBindings& flat, execution::DispatchContext& out) {
    std::string unsupported;
    const BoundResources::FlattenResult flattened = resources_.Flatten(*stage.executable, where, &flat, &unsupported);
    if (flattened == BoundResources::FlattenResult::kUseAfterFree) [[unlikely]] return false;
    if (flattened == BoundResources::FlattenResult::kUnsupported) {
      Warn(where, std::string(pipelineId) + ": the shaders read " + unsupported + ", which the engine cannot decode yet");
      return false;
    }
    out.exe = stage.executable.get();
    flat.Apply(out);
    out.outOfRange = resources_.OutOfRange();
    out.width = std::max(4u, stage.subgroupSize);
    out.instructionBudget = options.shaderInstructionBudget;
    out.deadlineNs = DeadlineNs(options.shaderTimeoutMs);
    out.external = queue_.execution().lostFlag();
    return true;
  };
  if (!context(*vertex, vertexBindings_, state->vertex)) return false;
  if (fragment != nullptr && !context(*fragment, fragmentBindings_, state->fragment)) return false;

  const Dynamic& d = dynamic_;
  auto dynamic = [&](VkDynamicState s) { return g.IsDynamic(s); };
  state->topology = dynamic(VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY) ? d.topology : g.topology;
  state->primitiveRestart = dynamic(VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE) ? d.primitiveRestart
                                                                               : g.primitiveRestartEnable;
  // Vertex input: the pipeline's bindings with the buffers bound to them.
  const bool dynamicStride = dynamic(VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE);
  for (const GraphicsState::VertexBinding& b : g.vertexBindings) {
    if (state->bindings.size() <= b.binding) state->bindings.resize(b.binding + 1);
    raster::VertexBinding& out = state->bindings[b.binding];
    out.stride = b.stride;
    out.rate = b.inputRate;
    out.divisor = b.divisor;
    if (b.binding >= vertexBuffers_.size()) continue;
    const VertexBufferBinding& bound = vertexBuffers_[b.binding];
    if (dynamicStride && bound.strideGiven) out.stride = static_cast<uint32_t>(bound.stride);
    if (!BufferLive(queue_, bound.buffer, ResourceAccess::Read, where)) [[unlikely]] return false;
    if (bound.buffer == nullptr || bound.buffer->data() == nullptr) continue;
    const VkDeviceSize size = bound.buffer->size();
    const VkDeviceSize offset = std::min(bound.offset, size);
    out.data = bound.buffer->data() + offset;
    out.size = bound.size == VK_WHOLE_SIZE ? size - offset : std::min(bound.size, size - offset);
    out.address = bound.buffer->address() + offset;
  }
  for (const VkVertexInputAttributeDescription& a : g.vertexAttributes) {
    raster::VertexAttribute attribute;
    attribute.location = a.location;
    attribute.binding = a.binding;
    attribute.offset = a.offset;
    attribute.format = a.format;
    attribute.codec = format::ColorCodec(a.format);
    if (!attribute.codec.valid()) {
      Warn(where, std::string(pipelineId) + " reads a vertex attribute of format " + FormatName(a.format) +
                      ", which the engine cannot decode yet");
      return false;
    }
    state->attributes.push_back(attribute);
  }

  // Viewport and scissor (the first of each: multiple viewports need geometry shaders to select them).
  const std::vector<VkViewport>& viewports =
      dynamic(VK_DYNAMIC_STATE_VIEWPORT) || dynamic(VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT) ? d.viewports : g.viewports;
  const std::vector<VkRect2D>& scissors =
      dynamic(VK_DYNAMIC_STATE_SCISSOR) || dynamic(VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT) ? d.scissors : g.scissors;
  if (viewports.empty() || scissors.empty()) {
    CT_ERROR("%s: no viewport or scissor is set (VUID-vkCmdDraw-None-07831/07832); the draw is skipped",
             where.c_str());
    return false;
  }
  const VkViewport& vp = viewports[0];
  state->viewport = {vp.x, vp.y, vp.width, vp.height, vp.minDepth, vp.maxDepth};
  const VkRect2D& sc = scissors[0];
  const VkRect2D& area = attachments.renderArea;
  raster::Rect rect;
  rect.x0 = std::max(sc.offset.x, area.offset.x);
  rect.y0 = std::max(sc.offset.y, area.offset.y);
  rect.x1 = static_cast<int32_t>(std::min<int64_t>(int64_t{sc.offset.x} + sc.extent.width,
                                                   int64_t{area.offset.x} + area.extent.width));
  rect.y1 = static_cast<int32_t>(std::min<int64_t>(int64_t{sc.offset.y} + sc.extent.height,
                                                   int64_t{area.offset.y} + area.extent.height));

  // Rasterisation.
  const VkPipelineRasterizationStateCreateInfo& r = g.rasterization;
  raster::RasterState& rs = state->raster;
  rs.cullMode = dynamic(VK_DYNAMIC_STATE_CULL_MODE) ? d.cullMode : r.cullMode;
  // Non-solid modes need fillModeNonSolid; anything else (VK_NV_fill_rectangle) is not advertised.
  rs.polygonMode = r.polygonMode == VK_POLYGON_MODE_LINE || r.polygonMode == VK_POLYGON_MODE_POINT
                       ? r.polygonMode
                       : VK_POLYGON_MODE_FILL;
  rs.frontFace = dynamic(VK_DYNAMIC_STATE_FRONT_FACE) ? d.frontFace : r.frontFace;
  rs.depthClamp = r.depthClampEnable == VK_TRUE;
  rs.rasterizerDiscard = dynamic(VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE) ? d.rasterizerDiscard
                                                                            : r.rasterizerDiscardEnable == VK_TRUE;
  rs.depthBias = dynamic(VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE) ? d.depthBiasEnable : r.depthBiasEnable == VK_TRUE;
  if (dynamic(VK_DYNAMIC_STATE_DEPTH_BIAS)) {
    rs.depthBiasConstant = d.depthBias[0], rs.depthBiasClamp = d.depthBias[1], rs.depthBiasSlope = d.depthBias[2];
  } else {
    rs.depthBiasConstant = r.depthBiasConstantFactor, rs.depthBiasClamp = r.depthBiasClamp;
    rs.depthBiasSlope = r.depthBiasSlopeFactor;
  }
  const VkPhysicalDeviceLimits& limits = device.physicalDevice().description().properties.limits;
  rs.subPixelBits = limits.subPixelPrecisionBits;
  if (rs.subPixelBits == 0) rs.subPixelBits = 4;
  // Line widths and point sizes outside the device's ranges are clamped to them ("lineWidth ... clamped to the
  // lineWidthRange"; PointSize "clamped to the implementation-dependent point size range").
  const float lineWidth = dynamic(VK_DYNAMIC_STATE_LINE_WIDTH) ? d.lineWidth : r.lineWidth;
  rs.lineWidth = std::clamp(std::isfinite(lineWidth) ? lineWidth : 1.0f, limits.lineWidthRange[0],
                            std::max(limits.lineWidthRange[0], limits.lineWidthRange[1]));
  rs.pointSizeRange[0] = limits.pointSizeRange[0];
  rs.pointSizeRange[1] = std::max(limits.pointSizeRange[0], limits.pointSizeRange[1]);

  // Attachments: every colour attachment (its blend state), depth and stencil. Checked when the instance began;
  // checked again here, since the application may destroy one while the instance runs.
  for (const ImageView* view : attachments.colors)
    if (!ImageViewLive(queue_, view, ResourceAccess::Write, where)) [[unlikely]] return false;
  if (!ImageViewLive(queue_, attachments.depth, ResourceAccess::Write, where) ||
      !ImageViewLive(queue_, attachments.stencil, ResourceAccess::Write, where)) [[unlikely]]
    return false;
  std::string unsupported;
  for (size_t i = 0; i < attachments.colors.size(); ++i) {
    raster::ColorTarget target;
    if (const ImageView* view = attachments.colors[i]) {
      target.image = DescribeAttachment(*view, VK_IMAGE_ASPECT_COLOR_BIT, &unsupported);
      if (target.image.bound && target.image.samples != state->multisample.samples) {
        // "the sample count of each attachment must match rasterizationSamples"
        // (VUID-vkCmdDraw-multisampledRenderToSingleSampled-07284).
        Warn(where, std::string(pipelineId) + " rasterises with a sample count its colour attachment does not have");
        return false;
      }
    }
    if (i < g.blendAttachments.size()) {
      const VkPipelineColorBlendAttachmentState& b = g.blendAttachments[i];
      target.blend = {b.blendEnable == VK_TRUE, b.srcColorBlendFactor, b.dstColorBlendFactor, b.colorBlendOp,
                      b.srcAlphaBlendFactor, b.dstAlphaBlendFactor, b.alphaBlendOp, b.colorWriteMask};
    }
    if (target.image.bound) {
      // Rendering never reaches past the attachment ("the render area must be contained within the framebuffer").
      rect.x1 = std::min<int32_t>(rect.x1, static_cast<int32_t>(target.image.level[0].width));
      rect.y1 = std::min<int32_t>(rect.y1, static_cast<int32_t>(target.image.level[0].height));
    }
    state->colors.push_back(target);
  }
  const VkPipelineDepthStencilStateCreateInfo& ds = g.depthStencil;
  raster::DepthStencilState& out = state->depthStencil;
  if (attachments.depth != nullptr) out.depth = DescribeAttachment(*attachments.depth, VK_IMAGE_ASPECT_DEPTH_BIT, &unsupported);
  if (attachments.stencil != nullptr)
    out.stencil = DescribeAttachment(*attachments.stencil, VK_IMAGE_ASPECT_STENCIL_BIT, &unsupported);
  for (const sampling::ImageDescriptor* image : {&out.depth, &out.stencil})
    if (image->bound) {
      if (image->samples != state->multisample.samples) {
        Warn(where, std::string(pipelineId) + " rasterises with a sample count its depth/stencil attachment does not have");
        return false;
      }
      rect.x1 = std::min<int32_t>(rect.x1, static_cast<int32_t>(image->level[0].width));
      rect.y1 = std::min<int32_t>(rect.y1, static_cast<int32_t>(image->level[0].height));
    }
  if (!unsupported.empty()) {
    Warn(where, "an attachment of " + unsupported + " (not executed yet)");
    return false;
  }
  rect.x0 = std::max(rect.x0, 0);
  rect.y0 = std::max(rect.y0, 0);
  state->scissor = rect;
  out.depthTest = dynamic(VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE) ? d.depthTest : ds.depthTestEnable == VK_TRUE;
  out.depthWrite = dynamic(VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE) ? d.depthWrite : ds.depthWriteEnable == VK_TRUE;
  out.depthCompare = dynamic(VK_DYNAMIC_STATE_DEPTH_COMPARE_OP) ? d.depthCompare : ds.depthCompareOp;
  out.depthBoundsTest = dynamic(VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE) ? d.depthBoundsTest
                                                                           : ds.depthBoundsTestEnable == VK_TRUE;
  out.minDepthBounds = dynamic(VK_DYNAMIC_STATE_DEPTH_BOUNDS) ? d.depthBounds[0] : ds.minDepthBounds;
  out.maxDepthBounds = dynamic(VK_DYNAMIC_STATE_DEPTH_BOUNDS) ? d.depthBounds[1] : ds.maxDepthBounds;
  out.stencilTest = dynamic(VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE) ? d.stencilTest : ds.stencilTestEnable == VK_TRUE;
  const bool dynamicOp = dynamic(VK_DYNAMIC_STATE_STENCIL_OP);
  for (int f = 0; f < 2; ++f) {
    const VkStencilOpState& s = dynamicOp ? d.stencil[f] : (f == 0 ? ds.front : ds.back);
    raster::StencilFace& face = f == 0 ? out.front : out.back;
    face.failOp = s.failOp, face.passOp = s.passOp, face.depthFailOp = s.depthFailOp, face.compareOp = s.compareOp;
    const VkStencilOpState& fixed = f == 0 ? ds.front : ds.back;
    face.compareMask = dynamic(VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK) ? d.compareMask[f] : fixed.compareMask;
    face.writeMask = dynamic(VK_DYNAMIC_STATE_STENCIL_WRITE_MASK) ? d.writeMask[f] : fixed.writeMask;
    face.reference = dynamic(VK_DYNAMIC_STATE_STENCIL_REFERENCE) ? d.reference[f] : fixed.reference;
  }
  const float* constants = dynamic(VK_DYNAMIC_STATE_BLEND_CONSTANTS) ? d.blendConstants : g.blendConstants;
  std::copy_n(constants, 4, state->blendConstants);
  return true;
}

bool GraphicsDispatcher::Draw(const raster::DrawCall& call, const DrawAttachments& attachments,
                              const std::string& where, raster::DrawOutcome* total, bool* executed) {
  *total = raster::DrawOutcome{};
  *executed = false;
  if (pipeline_ == nullptr) {
    CT_ERROR("%s: no graphics pipeline is bound (VUID-vkCmdDraw-None-02700); the draw is skipped", where.c_str());
    return true;
  }
  if (!attachments.active) {
    CT_ERROR("%s: a draw outside a render pass instance (VUID-vkCmdDraw-renderpass); the draw is skipped",
             where.c_str());
    return true;
  }
  raster::DrawState state;
  // Skipped; stopped when a use after free lost the device.
  if (!Flatten(attachments, where, &state)) return !queue_.execution().lost();
  std::string reason;
  if (!raster::CanRun(state, &reason)) {
    Warn(where, "the rasteriser does not draw " + reason + " yet");
    return true;
  }
  DeviceAddressMap addresses(queue_.device());
  state.vertex.addresses = &addresses;
  state.fragment.addresses = &addresses;
  DeviceExecution& execution = queue_.execution();
  const ExecutionOptions& options = queue_.device().physicalDevice().instance().executionOptions();
  // Multiview: the draw runs once per view of the subpass's view mask, each into its own attachment layer
  // ("the draw is broadcast to each view", VK_KHR_multiview), in view order.
  const uint32_t viewMask = pipeline_->graphics().viewMask;
  raster::DrawOutcome outcome;
  *executed = true;
  for (uint32_t view = 0; view < 32; ++view) {
    if (viewMask != 0 && (viewMask & (1u << view)) == 0) continue;
    state.viewIndex = view;
    outcome = raster::RunDraw(state, call, &execution.computePool(options.computeThreads));
    total->AddCounts(outcome);
    if (outcome.fault.kind != execution::ShaderFaultKind::None || outcome.cancelled || viewMask == 0) break;
  }
  if (outcome.fault.kind == execution::ShaderFaultKind::None) return !outcome.cancelled;
  const PipelineStage* stage =
      pipeline_->FindStage(outcome.faultInVertexStage ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT);
  char invocation[96];
  std::snprintf(invocation, sizeof invocation, "%s invocation %u",
                outcome.faultInVertexStage ? "vertex" : "fragment", outcome.fault.localIndex);
  return RaiseShaderFault(queue_, *pipeline_, *stage, outcome.fault, where, invocation);
}

}  // namespace crashtest
