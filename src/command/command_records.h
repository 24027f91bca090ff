// The fixed-layout records of the command stream (command_arena.h), one struct per kind of vkCmd*. Objects are
// held as crashtest pointers resolved at record time; objects of other areas the executor does not look into
// (pipelines, layouts) stay handles. Variable-size arrays follow the record as its payload
// (PayloadOf), converted at record time to the form the executor consumes (the "2" structs of
// VK_KHR_copy_commands2), so execution does no conversion. pNext chains are not kept: every extension struct the
// driver honours is folded into the record.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace crashtest {

class Buffer;
class CommandBuffer;
class DescriptorPool;
class DescriptorSet;
class Event;
class Framebuffer;
class Image;
class ImageView;
class QueryPool;
class RenderPass;

namespace record {

struct BindPipeline { VkPipelineBindPoint bindPoint; VkPipeline pipeline; };
struct SetViewport { uint32_t first, count; };          // payload: VkViewport[count]
struct SetScissor { uint32_t first, count; };           // payload: VkRect2D[count]
struct SetFloat { float value; };                       // line width
struct SetDepthBias { float constantFactor, clamp, slopeFactor; };
struct SetBlendConstants { float constants[4]; };
struct SetDepthBounds { float min, max; };
struct SetStencilValue { VkStencilFaceFlags faceMask; uint32_t value; };
struct SetEnable { VkBool32 enable; };
struct SetFlags { uint32_t flags; };                    // cull mode, front face, topology, compare op, device mask
struct SetStencilOp { VkStencilFaceFlags faceMask; VkStencilOp fail, pass, depthFail; VkCompareOp compare; };
// A descriptor set as vkCmdBindDescriptorSets named it, with what the queue needs to tell, without touching the
// set, whether it is still that set (queue/descriptor_set_liveness.h): its pool and both ids, and where the pool
// listed it when it was recorded (a hint: frees move sets). set is null for VK_NULL_HANDLE.
struct DescriptorSetRef {
  const DescriptorSet* set;
  const DescriptorPool* pool;
  uint64_t setId, poolId;
  uint32_t poolIndex;
};
// payload: DescriptorSetRef[setCount], then uint32_t[dynamicOffsetCount]
struct BindDescriptorSets {
  VkPipelineBindPoint bindPoint; VkPipelineLayout layout; uint32_t firstSet, setCount, dynamicOffsetCount;
};
struct BindIndexBuffer { const Buffer* buffer; VkDeviceSize offset; VkIndexType indexType; };
// payload: const Buffer*[count], VkDeviceSize offsets[count], sizes[count] (VK_WHOLE_SIZE when not given),
// strides[count] (0 when not given, i.e. the pipeline's)
struct BindVertexBuffers { uint32_t first, count; };
struct Draw { uint32_t vertexCount, instanceCount, firstVertex, firstInstance; };
struct DrawIndexed { uint32_t indexCount, instanceCount, firstIndex; int32_t vertexOffset; uint32_t firstInstance; };
struct DrawIndirect { const Buffer* buffer; VkDeviceSize offset; uint32_t drawCount, stride; };
struct DrawIndirectCount {
  const Buffer* buffer; VkDeviceSize offset; const Buffer* countBuffer; VkDeviceSize countOffset;
  uint32_t maxDrawCount, stride;
};
struct Dispatch { uint32_t baseX, baseY, baseZ, groupsX, groupsY, groupsZ; };
struct DispatchIndirect { const Buffer* buffer; VkDeviceSize offset; };
struct CopyBuffer { const Buffer* src; const Buffer* dst; uint32_t regionCount; };         // VkBufferCopy2[]
struct CopyImage { const Image* src; const Image* dst; uint32_t regionCount; };           // VkImageCopy2[]
struct BlitImage { const Image* src; const Image* dst; uint32_t regionCount; VkFilter filter; };  // VkImageBlit2[]
struct ResolveImage { const Image* src; const Image* dst; uint32_t regionCount; };        // VkImageResolve2[]
struct BufferImageCopy { const Buffer* buffer; const Image* image; uint32_t regionCount; };  // VkBufferImageCopy2[]
struct UpdateBuffer { const Buffer* dst; VkDeviceSize offset, size; };                    // payload: the bytes
struct FillBuffer { const Buffer* dst; VkDeviceSize offset, size; uint32_t data; };
struct ClearColorImage { const Image* image; VkClearColorValue color; uint32_t rangeCount; };  // ranges[]
struct ClearDepthStencilImage { const Image* image; VkClearDepthStencilValue value; uint32_t rangeCount; };
// payload: VkClearAttachment[attachmentCount], then VkClearRect[rectCount]
struct ClearAttachments { uint32_t attachmentCount, rectCount; };
// vkCmdSetEvent(2) / vkCmdResetEvent(2). For the "2" forms stageMask is the union of the dependency's stages.
struct EventStage { Event* event; VkPipelineStageFlags2 stageMask; };
// vkCmdWaitEvents(2); payload: Event*[eventCount]
struct WaitEvents { uint32_t eventCount; VkPipelineStageFlags2 srcStageMask, dstStageMask; };
// vkCmdPipelineBarrier(2): execution is in order on one CPU thread, so a barrier orders nothing further; its
// scopes and counts are kept for the dump.
struct PipelineBarrier {
  VkPipelineStageFlags2 srcStageMask, dstStageMask; VkDependencyFlags dependencyFlags;
  uint32_t memoryBarrierCount, bufferBarrierCount, imageBarrierCount;
};
struct BeginQuery { QueryPool* pool; uint32_t query; VkQueryControlFlags flags; };
struct EndQuery { QueryPool* pool; uint32_t query; };
struct ResetQueryPool { QueryPool* pool; uint32_t first, count; };
struct WriteTimestamp { QueryPool* pool; uint32_t query; VkPipelineStageFlags2 stage; };
struct CopyQueryPoolResults {
  QueryPool* pool; uint32_t first, count; const Buffer* dst; VkDeviceSize dstOffset, stride;
  VkQueryResultFlags flags;
};
struct PushConstants { VkPipelineLayout layout; VkShaderStageFlags stages; uint32_t offset, size; };  // bytes
// vkCmdBeginRenderPass(2). payload: VkClearValue[clearValueCount], then ImageView*[viewCount] (the attachments of
// VkRenderPassAttachmentBeginInfo for imageless framebuffers; viewCount is 0 otherwise).
struct BeginRenderPass {
  const RenderPass* renderPass; const Framebuffer* framebuffer; VkRect2D renderArea;
  uint32_t clearValueCount, viewCount; VkSubpassContents contents;
};
struct NextSubpass { VkSubpassContents contents; };
struct Empty { uint32_t unused; };
// payload: CommandBuffer*[count]. `next`: the stream's next vkCmdExecuteCommands record (CommandBuffer::
// NoteExecuteCommands), so a submission finds the secondaries to hold without walking the stream.
struct ExecuteCommands { uint32_t count; ExecuteCommands* next; };
// One attachment of vkCmdBeginRendering (view nullptr: none).
struct RenderingAttachment {
  const ImageView* view; VkAttachmentLoadOp loadOp; VkAttachmentStoreOp storeOp; VkClearValue clearValue;
  const ImageView* resolveView; VkResolveModeFlagBits resolveMode;
};
// payload: RenderingAttachment[colorCount], then the depth and the stencil attachment.
struct BeginRendering {
  VkRenderingFlags flags; VkRect2D renderArea; uint32_t layerCount, viewMask, colorCount;
};
struct DebugLabel { float color[4]; uint32_t nameLength; };  // payload: the name, NUL-terminated
// vkCmdWriteBufferMarker(2)AMD: `stage` is the VkPipelineStageFlags2 form of the stage.
struct BufferMarker { const Buffer* dst; VkDeviceSize offset; VkPipelineStageFlags2 stage; uint32_t marker; };
struct Checkpoint { uint64_t marker; };  // vkCmdSetCheckpointNV: pCheckpointMarker as given
// vkCmdPushDescriptorSet(WithTemplate)KHR: the descriptors as they were when the command was recorded ("the
// descriptor contents are consumed when the command is recorded"), with the set layout's shape, so execution needs
// neither the layout nor the application's arrays. `layoutId` names the set layout (its object id): a push with
// another layout starts from an undefined set. payload: descriptor/push_descriptors.h (PushedSetView).
struct PushDescriptorSet {
  VkPipelineBindPoint bindPoint; uint32_t set; uint64_t layoutId; uint32_t bindingCount, recordCount, samplerCount;
};

}  // namespace record
}  // namespace crashtest
