// The kinds of record a command buffer's stream holds: one per vkCmd* the driver records (every Vulkan 1.3 core
// command plus the VK_EXT_debug_utils labels, the breadcrumbs of VK_AMD_buffer_marker and
// VK_NV_device_diagnostic_checkpoints, and VK_KHR_push_descriptor's pushes). The names let a fault report say
// "command #N (vkCmdX)".
#pragma once

#include <cstdint>

namespace crashtest {

// X(Name): the record kind CommandOp::Name stands for vkCmd<Name>.
#define CT_COMMAND_OPS(X)                                                                                          \
  X(BindPipeline) X(SetViewport) X(SetScissor) X(SetLineWidth) X(SetDepthBias) X(SetBlendConstants)             \
  X(SetDepthBounds) X(SetStencilCompareMask) X(SetStencilWriteMask) X(SetStencilReference) X(BindDescriptorSets) \
  X(BindIndexBuffer) X(BindVertexBuffers) X(Draw) X(DrawIndexed) X(DrawIndirect) X(DrawIndexedIndirect)          \
  X(Dispatch) X(DispatchIndirect) X(CopyBuffer) X(CopyImage) X(BlitImage) X(CopyBufferToImage)                   \
  X(CopyImageToBuffer) X(UpdateBuffer) X(FillBuffer) X(ClearColorImage) X(ClearDepthStencilImage)                \
  X(ClearAttachments) X(ResolveImage) X(SetEvent) X(ResetEvent) X(WaitEvents) X(PipelineBarrier) X(BeginQuery)   \
  X(EndQuery) X(ResetQueryPool) X(WriteTimestamp) X(CopyQueryPoolResults) X(PushConstants) X(BeginRenderPass)     \
  X(NextSubpass) X(EndRenderPass) X(ExecuteCommands) X(SetDeviceMask) X(DispatchBase) X(DrawIndirectCount)       \
  X(DrawIndexedIndirectCount) X(BeginRenderPass2) X(NextSubpass2) X(EndRenderPass2) X(SetEvent2) X(ResetEvent2)  \
  X(WaitEvents2) X(PipelineBarrier2) X(WriteTimestamp2) X(CopyBuffer2) X(CopyImage2) X(CopyBufferToImage2)       \
  X(CopyImageToBuffer2) X(BlitImage2) X(ResolveImage2) X(BeginRendering) X(EndRendering) X(SetCullMode)          \
  X(SetFrontFace) X(SetPrimitiveTopology) X(SetViewportWithCount) X(SetScissorWithCount) X(BindVertexBuffers2)   \
  X(SetDepthTestEnable) X(SetDepthWriteEnable) X(SetDepthCompareOp) X(SetDepthBoundsTestEnable)                  \
  X(SetStencilTestEnable) X(SetStencilOp) X(SetRasterizerDiscardEnable) X(SetDepthBiasEnable)                    \
  X(SetPrimitiveRestartEnable) X(BeginDebugUtilsLabelEXT) X(EndDebugUtilsLabelEXT) X(InsertDebugUtilsLabelEXT)     \
  X(WriteBufferMarkerAMD) X(WriteBufferMarker2AMD) X(SetCheckpointNV) X(PushDescriptorSetKHR)                      \
  X(PushDescriptorSetWithTemplateKHR)

enum class CommandOp : uint16_t {
#define CT_COMMAND_OP_ENUM(Name) Name,
  CT_COMMAND_OPS(CT_COMMAND_OP_ENUM)
#undef CT_COMMAND_OP_ENUM
      Count
};

// "vkCmdCopyBuffer" for CommandOp::CopyBuffer. Never nullptr.
const char* CommandName(CommandOp op);

}  // namespace crashtest
