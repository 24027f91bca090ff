// Thunks of the command area: command pools and buffers, and the recording of every vkCmd* that is not a
// synchronisation or query command (those are in sync_commands.cpp and query_commands.cpp). Recording appends one
// fixed-layout record (src/command/command_records.h) to the command buffer's own stream: no lock, no heap
// allocation in the common case, and nothing that throws — an allocation failure sticks to the command buffer and
// surfaces at vkEndCommandBuffer — so the vkCmd* thunks need no exception guard.
#include <cstring>
#include <span>

#include "command/command_buffer.h"
#include "command/command_pool.h"
#include "command/command_records.h"
#include "command/transfer_checks.h"
#include "common/pnext.h"
#include "common/struct_types.h"
#include "descriptor/descriptor_pool.h"
#include "device/device.h"
#include "device/resources.h"
#include "entry_points.h"
#include "guard.h"
#include "memory/views.h"
#include "transfer/render_pass.h"

namespace crashtest::icd {

namespace {

template <typename T>
T* Append(VkCommandBuffer commandBuffer, CommandOp op, size_t payload = 0) {
  return FromHandle(commandBuffer)->Record<T>(op, payload);
}

template <typename T>
void CopyArray(T* to, const T* from, uint32_t count) {
  if (count != 0) std::memcpy(to, from, sizeof(T) * count);
}

// The "2" forms of the copy regions, which the executor consumes (VK_KHR_copy_commands2 defines them as the
// same regions with sType/pNext).
VkBufferCopy2 ToCopy2(const VkBufferCopy& r) {
  return {VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, r.srcOffset, r.dstOffset, r.size};
}
VkImageCopy2 ToCopy2(const VkImageCopy& r) {
  return {VK_STRUCTURE_TYPE_IMAGE_COPY_2, nullptr, r.srcSubresource, r.srcOffset, r.dstSubresource, r.dstOffset,
          r.extent};
}
VkImageBlit2 ToCopy2(const VkImageBlit& r) {
  VkImageBlit2 blit{VK_STRUCTURE_TYPE_IMAGE_BLIT_2, nullptr, r.srcSubresource, {}, r.dstSubresource, {}};
  std::memcpy(blit.srcOffsets, r.srcOffsets, sizeof(r.srcOffsets));
  std::memcpy(blit.dstOffsets, r.dstOffsets, sizeof(r.dstOffsets));
  return blit;
}
VkBufferImageCopy2 ToCopy2(const VkBufferImageCopy& r) {
  return {VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2, nullptr, r.bufferOffset, r.bufferRowLength, r.bufferImageHeight,
          r.imageSubresource, r.imageOffset, r.imageExtent};
}
VkImageResolve2 ToCopy2(const VkImageResolve& r) {
  return {VK_STRUCTURE_TYPE_IMAGE_RESOLVE_2, nullptr, r.srcSubresource, r.srcOffset, r.dstSubresource, r.dstOffset,
          r.extent};
}

// Appends record R with `count` regions converted from `regions` (v1 structs, or v2 structs with pNext dropped).
template <typename Region2, typename R, typename Region>
R* AppendRegions(VkCommandBuffer commandBuffer, CommandOp op, uint32_t count, const Region* regions) {
  R* record = Append<R>(commandBuffer, op, sizeof(Region2) * count);
  if (record == nullptr) return nullptr;
  Region2* out = PayloadOf<Region2>(record);
  for (uint32_t i = 0; i < count; ++i) {
    if constexpr (std::is_same_v<Region, Region2>) {
      out[i] = regions[i];
      out[i].pNext = nullptr;
    } else {
      out[i] = ToCopy2(regions[i]);
    }
  }
  record->regionCount = count;
  return record;
}

void AppendDraw(VkCommandBuffer commandBuffer, CommandOp op, const record::Draw& draw) {
  if (auto* r = Append<record::Draw>(commandBuffer, op)) *r = draw;
}

void AppendFlags(VkCommandBuffer commandBuffer, CommandOp op, uint32_t flags) {
  if (auto* r = Append<record::SetFlags>(commandBuffer, op)) r->flags = flags;
}

void AppendEnable(VkCommandBuffer commandBuffer, CommandOp op, VkBool32 enable) {
  if (auto* r = Append<record::SetEnable>(commandBuffer, op)) r->enable = enable;
}

void AppendStencilValue(VkCommandBuffer commandBuffer, CommandOp op, VkStencilFaceFlags faceMask, uint32_t value) {
  if (auto* r = Append<record::SetStencilValue>(commandBuffer, op)) *r = {faceMask, value};
}

void AppendLabel(VkCommandBuffer commandBuffer, CommandOp op, const VkDebugUtilsLabelEXT* label) {
  const char* name = label != nullptr && label->pLabelName != nullptr ? label->pLabelName : "";
  size_t length = std::strlen(name);
  auto* r = Append<record::DebugLabel>(commandBuffer, op, length + 1);
  if (r == nullptr) return;
  if (label != nullptr)
    std::memcpy(r->color, label->color, sizeof(r->color));
  else
    std::memset(r->color, 0, sizeof(r->color));
  r->nameLength = static_cast<uint32_t>(length);
  std::memcpy(PayloadOf<char>(r), name, length + 1);
}

void AppendVertexBuffers(VkCommandBuffer commandBuffer, CommandOp op, uint32_t first, uint32_t count,
                         const VkBuffer* buffers, const VkDeviceSize* offsets, const VkDeviceSize* sizes,
                         const VkDeviceSize* strides) {
  auto* r = Append<record::BindVertexBuffers>(commandBuffer, op, count * (sizeof(Buffer*) + 3 * sizeof(VkDeviceSize)));
  if (r == nullptr) return;
  *r = {first, count};
  auto** bound = PayloadOf<const Buffer*>(r);
  auto* values = reinterpret_cast<VkDeviceSize*>(bound + count);
  for (uint32_t i = 0; i < count; ++i) {
    bound[i] = FromHandle(buffers[i]);
    values[i] = offsets[i];
    values[count + i] = sizes != nullptr ? sizes[i] : VK_WHOLE_SIZE;
    values[2 * count + i] = strides != nullptr ? strides[i] : 0;
  }
}

void AppendBeginRenderPass(VkCommandBuffer commandBuffer, CommandOp op, const VkRenderPassBeginInfo& begin,
                           VkSubpassContents contents) {
  // Imageless framebuffers take their views from the begin info (VK_KHR_imageless_framebuffer, core in 1.2).
  const auto* attachmentInfo = FindInChain<VkRenderPassAttachmentBeginInfo>(begin.pNext);
  uint32_t viewCount = attachmentInfo != nullptr ? attachmentInfo->attachmentCount : 0;
  auto* r = Append<record::BeginRenderPass>(commandBuffer, op,
                                            sizeof(VkClearValue) * begin.clearValueCount + sizeof(ImageView*) * viewCount);
  if (r == nullptr) return;
  *r = {FromHandle(begin.renderPass), FromHandle(begin.framebuffer), begin.renderArea, begin.clearValueCount, viewCount,
        contents};
  VkClearValue* clearValues = PayloadOf<VkClearValue>(r);
  CopyArray(clearValues, begin.pClearValues, begin.clearValueCount);
  auto** views = reinterpret_cast<const ImageView**>(clearValues + begin.clearValueCount);
  for (uint32_t i = 0; i < viewCount; ++i) views[i] = FromHandle(attachmentInfo->pAttachments[i]);
}

record::RenderingAttachment ToRenderingAttachment(const VkRenderingAttachmentInfo* info) {
  if (info == nullptr || info->imageView == VK_NULL_HANDLE) return record::RenderingAttachment{};
  return {FromHandle(info->imageView), info->loadOp, info->storeOp, info->clearValue,
          FromHandle(info->resolveImageView), info->resolveMode};
}

}  // namespace

// --- Command pools --------------------------------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateCommandPool(VkDevice device, const VkCommandPoolCreateInfo* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator, VkCommandPool* pCommandPool) {
  return Guarded("vkCreateCommandPool",
                 [&] { return CommandPool::Create(*FromHandle(device), *pCreateInfo, pAllocator, pCommandPool); });
}

VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice, VkCommandPool commandPool,
                                              const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroyCommandPool", [&] { CommandPool::Destroy(FromHandle(commandPool), pAllocator); });
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice, VkCommandPool commandPool, VkCommandPoolResetFlags flags) {
  return Guarded("vkResetCommandPool", [&] {
    CommandPool* pool =
        CommandPool::Live(commandPool, "vkResetCommandPool", "VUID-vkResetCommandPool-commandPool-parameter");
    if (pool == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
    pool->Reset(flags);
    return VK_SUCCESS;
  });
}

VKAPI_ATTR void VKAPI_CALL TrimCommandPool(VkDevice, VkCommandPool commandPool, VkCommandPoolTrimFlags) {
  GuardedVoid("vkTrimCommandPool", [&] {
    if (CommandPool* pool =
            CommandPool::Live(commandPool, "vkTrimCommandPool", "VUID-vkTrimCommandPool-commandPool-parameter"))
      pool->Trim();
  });
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice, const VkCommandBufferAllocateInfo* pAllocateInfo,
                                                      VkCommandBuffer* pCommandBuffers) {
  return Guarded("vkAllocateCommandBuffers", [&] {
    CommandPool* pool = CommandPool::Live(pAllocateInfo->commandPool, "vkAllocateCommandBuffers",
                                          "VUID-VkCommandBufferAllocateInfo-commandPool-parameter");
    if (pool == nullptr) {
      for (uint32_t i = 0; i < pAllocateInfo->commandBufferCount; ++i) pCommandBuffers[i] = VK_NULL_HANDLE;
      return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    return pool->Allocate(*pAllocateInfo, pCommandBuffers);
  });
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice, VkCommandPool commandPool, uint32_t commandBufferCount,
                                              const VkCommandBuffer* pCommandBuffers) {
  GuardedVoid("vkFreeCommandBuffers", [&] {
    CommandPool* pool =
        CommandPool::Live(commandPool, "vkFreeCommandBuffers", "VUID-vkFreeCommandBuffers-commandPool-parameter");
    if (pool == nullptr) return;
    for (uint32_t i = 0; i < commandBufferCount; ++i) pool->Free(FromHandle(pCommandBuffers[i]));
  });
}

// --- Command buffers ------------------------------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                  const VkCommandBufferBeginInfo* pBeginInfo) {
  return Guarded("vkBeginCommandBuffer", [&] { return FromHandle(commandBuffer)->Begin(*pBeginInfo); });
}

VKAPI_ATTR VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer commandBuffer) {
  return Guarded("vkEndCommandBuffer", [&] { return FromHandle(commandBuffer)->End(); });
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandBuffer(VkCommandBuffer commandBuffer, VkCommandBufferResetFlags flags) {
  return Guarded("vkResetCommandBuffer", [&] {
    FromHandle(commandBuffer)->Reset((flags & VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT) != 0);
    return VK_SUCCESS;
  });
}

VKAPI_ATTR void VKAPI_CALL CmdExecuteCommands(VkCommandBuffer commandBuffer, uint32_t commandBufferCount,
                                              const VkCommandBuffer* pCommandBuffers) {
  auto* r = Append<record::ExecuteCommands>(commandBuffer, CommandOp::ExecuteCommands,
                                            sizeof(CommandBuffer*) * commandBufferCount);
  if (r == nullptr) return;
  r->count = commandBufferCount;
  auto** secondaries = PayloadOf<CommandBuffer*>(r);
  for (uint32_t i = 0; i < commandBufferCount; ++i) secondaries[i] = FromHandle(pCommandBuffers[i]);
  FromHandle(commandBuffer)->NoteExecuteCommands(r);
}

// --- Binds and push constants ---------------------------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                           VkPipeline pipeline) {
  if (auto* r = Append<record::BindPipeline>(commandBuffer, CommandOp::BindPipeline)) *r = {pipelineBindPoint, pipeline};
}

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorSets(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                                 VkPipelineLayout layout, uint32_t firstSet, uint32_t descriptorSetCount,
                                                 const VkDescriptorSet* pDescriptorSets, uint32_t dynamicOffsetCount,
                                                 const uint32_t* pDynamicOffsets) {
  auto* r = Append<record::BindDescriptorSets>(
      commandBuffer, CommandOp::BindDescriptorSets,
      sizeof(record::DescriptorSetRef) * descriptorSetCount + sizeof(uint32_t) * dynamicOffsetCount);
  if (r == nullptr) return;
  *r = {pipelineBindPoint, layout, firstSet, descriptorSetCount, dynamicOffsetCount};
  auto* sets = PayloadOf<record::DescriptorSetRef>(r);
  // The sets are live now (VUID-vkCmdBindDescriptorSets-pDescriptorSets-parameter); the queue checks they still
  // are when it runs the bind and the work that reads them.
  for (uint32_t i = 0; i < descriptorSetCount; ++i) sets[i] = DescriptorPool::Ref(FromHandle(pDescriptorSets[i]));
  CopyArray(reinterpret_cast<uint32_t*>(sets + descriptorSetCount), pDynamicOffsets, dynamicOffsetCount);
}

VKAPI_ATTR void VKAPI_CALL CmdBindIndexBuffer(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                              VkIndexType indexType) {
  if (auto* r = Append<record::BindIndexBuffer>(commandBuffer, CommandOp::BindIndexBuffer))
    *r = {FromHandle(buffer), offset, indexType};
}

VKAPI_ATTR void VKAPI_CALL CmdBindVertexBuffers(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                                                uint32_t bindingCount, const VkBuffer* pBuffers,
                                                const VkDeviceSize* pOffsets) {
  AppendVertexBuffers(commandBuffer, CommandOp::BindVertexBuffers, firstBinding, bindingCount, pBuffers, pOffsets,
                      nullptr, nullptr);
}

VKAPI_ATTR void VKAPI_CALL CmdBindVertexBuffers2(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                                                 uint32_t bindingCount, const VkBuffer* pBuffers,
                                                 const VkDeviceSize* pOffsets, const VkDeviceSize* pSizes,
                                                 const VkDeviceSize* pStrides) {
  AppendVertexBuffers(commandBuffer, CommandOp::BindVertexBuffers2, firstBinding, bindingCount, pBuffers, pOffsets,
                      pSizes, pStrides);
}

VKAPI_ATTR void VKAPI_CALL CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                                            VkShaderStageFlags stageFlags, uint32_t offset, uint32_t size,
                                            const void* pValues) {
  auto* r = Append<record::PushConstants>(commandBuffer, CommandOp::PushConstants, size);
  if (r == nullptr) return;
  *r = {layout, stageFlags, offset, size};
  std::memcpy(PayloadOf<std::byte>(r), pValues, size);
}

// --- Dynamic state --------------------------------------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdSetViewport(VkCommandBuffer commandBuffer, uint32_t firstViewport,
                                          uint32_t viewportCount, const VkViewport* pViewports) {
  auto* r = Append<record::SetViewport>(commandBuffer, CommandOp::SetViewport, sizeof(VkViewport) * viewportCount);
  if (r == nullptr) return;
  *r = {firstViewport, viewportCount};
  CopyArray(PayloadOf<VkViewport>(r), pViewports, viewportCount);
}

VKAPI_ATTR void VKAPI_CALL CmdSetViewportWithCount(VkCommandBuffer commandBuffer, uint32_t viewportCount,
                                                   const VkViewport* pViewports) {
  auto* r = Append<record::SetViewport>(commandBuffer, CommandOp::SetViewportWithCount,
                                        sizeof(VkViewport) * viewportCount);
  if (r == nullptr) return;
  *r = {0, viewportCount};
  CopyArray(PayloadOf<VkViewport>(r), pViewports, viewportCount);
}

VKAPI_ATTR void VKAPI_CALL CmdSetScissor(VkCommandBuffer commandBuffer, uint32_t firstScissor, uint32_t scissorCount,
                                         const VkRect2D* pScissors) {
  auto* r = Append<record::SetScissor>(commandBuffer, CommandOp::SetScissor, sizeof(VkRect2D) * scissorCount);
  if (r == nullptr) return;
  *r = {firstScissor, scissorCount};
  CopyArray(PayloadOf<VkRect2D>(r), pScissors, scissorCount);
}

VKAPI_ATTR void VKAPI_CALL CmdSetScissorWithCount(VkCommandBuffer commandBuffer, uint32_t scissorCount,
                                                  const VkRect2D* pScissors) {
  auto* r = Append<record::SetScissor>(commandBuffer, CommandOp::SetScissorWithCount, sizeof(VkRect2D) * scissorCount);
  if (r == nullptr) return;
  *r = {0, scissorCount};
  CopyArray(PayloadOf<VkRect2D>(r), pScissors, scissorCount);
}

VKAPI_ATTR void VKAPI_CALL CmdSetLineWidth(VkCommandBuffer commandBuffer, float lineWidth) {
  if (auto* r = Append<record::SetFloat>(commandBuffer, CommandOp::SetLineWidth)) r->value = lineWidth;
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthBias(VkCommandBuffer commandBuffer, float depthBiasConstantFactor,
                                           float depthBiasClamp, float depthBiasSlopeFactor) {
  if (auto* r = Append<record::SetDepthBias>(commandBuffer, CommandOp::SetDepthBias))
    *r = {depthBiasConstantFactor, depthBiasClamp, depthBiasSlopeFactor};
}

VKAPI_ATTR void VKAPI_CALL CmdSetBlendConstants(VkCommandBuffer commandBuffer, const float blendConstants[4]) {
  if (auto* r = Append<record::SetBlendConstants>(commandBuffer, CommandOp::SetBlendConstants))
    std::memcpy(r->constants, blendConstants, sizeof(r->constants));
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthBounds(VkCommandBuffer commandBuffer, float minDepthBounds, float maxDepthBounds) {
  if (auto* r = Append<record::SetDepthBounds>(commandBuffer, CommandOp::SetDepthBounds))
    *r = {minDepthBounds, maxDepthBounds};
}

VKAPI_ATTR void VKAPI_CALL CmdSetStencilCompareMask(VkCommandBuffer commandBuffer, VkStencilFaceFlags faceMask,
                                                    uint32_t compareMask) {
  AppendStencilValue(commandBuffer, CommandOp::SetStencilCompareMask, faceMask, compareMask);
}

VKAPI_ATTR void VKAPI_CALL CmdSetStencilWriteMask(VkCommandBuffer commandBuffer, VkStencilFaceFlags faceMask,
                                                  uint32_t writeMask) {
  AppendStencilValue(commandBuffer, CommandOp::SetStencilWriteMask, faceMask, writeMask);
}

VKAPI_ATTR void VKAPI_CALL CmdSetStencilReference(VkCommandBuffer commandBuffer, VkStencilFaceFlags faceMask,
                                                  uint32_t reference) {
  AppendStencilValue(commandBuffer, CommandOp::SetStencilReference, faceMask, reference);
}

VKAPI_ATTR void VKAPI_CALL CmdSetCullMode(VkCommandBuffer commandBuffer, VkCullModeFlags cullMode) {
  AppendFlags(commandBuffer, CommandOp::SetCullMode, cullMode);
}

VKAPI_ATTR void VKAPI_CALL CmdSetFrontFace(VkCommandBuffer commandBuffer, VkFrontFace frontFace) {
  AppendFlags(commandBuffer, CommandOp::SetFrontFace, static_cast<uint32_t>(frontFace));
}

VKAPI_ATTR void VKAPI_CALL CmdSetPrimitiveTopology(VkCommandBuffer commandBuffer,
                                                   VkPrimitiveTopology primitiveTopology) {
  AppendFlags(commandBuffer, CommandOp::SetPrimitiveTopology, static_cast<uint32_t>(primitiveTopology));
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthCompareOp(VkCommandBuffer commandBuffer, VkCompareOp depthCompareOp) {
  AppendFlags(commandBuffer, CommandOp::SetDepthCompareOp, static_cast<uint32_t>(depthCompareOp));
}

VKAPI_ATTR void VKAPI_CALL CmdSetDeviceMask(VkCommandBuffer commandBuffer, uint32_t deviceMask) {
  AppendFlags(commandBuffer, CommandOp::SetDeviceMask, deviceMask);
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthTestEnable(VkCommandBuffer commandBuffer, VkBool32 depthTestEnable) {
  AppendEnable(commandBuffer, CommandOp::SetDepthTestEnable, depthTestEnable);
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthWriteEnable(VkCommandBuffer commandBuffer, VkBool32 depthWriteEnable) {
  AppendEnable(commandBuffer, CommandOp::SetDepthWriteEnable, depthWriteEnable);
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthBoundsTestEnable(VkCommandBuffer commandBuffer, VkBool32 depthBoundsTestEnable) {
  AppendEnable(commandBuffer, CommandOp::SetDepthBoundsTestEnable, depthBoundsTestEnable);
}

VKAPI_ATTR void VKAPI_CALL CmdSetStencilTestEnable(VkCommandBuffer commandBuffer, VkBool32 stencilTestEnable) {
  AppendEnable(commandBuffer, CommandOp::SetStencilTestEnable, stencilTestEnable);
}

VKAPI_ATTR void VKAPI_CALL CmdSetRasterizerDiscardEnable(VkCommandBuffer commandBuffer,
                                                         VkBool32 rasterizerDiscardEnable) {
  AppendEnable(commandBuffer, CommandOp::SetRasterizerDiscardEnable, rasterizerDiscardEnable);
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthBiasEnable(VkCommandBuffer commandBuffer, VkBool32 depthBiasEnable) {
  AppendEnable(commandBuffer, CommandOp::SetDepthBiasEnable, depthBiasEnable);
}

VKAPI_ATTR void VKAPI_CALL CmdSetPrimitiveRestartEnable(VkCommandBuffer commandBuffer,
                                                        VkBool32 primitiveRestartEnable) {
  AppendEnable(commandBuffer, CommandOp::SetPrimitiveRestartEnable, primitiveRestartEnable);
}

VKAPI_ATTR void VKAPI_CALL CmdSetStencilOp(VkCommandBuffer commandBuffer, VkStencilFaceFlags faceMask,
                                           VkStencilOp failOp, VkStencilOp passOp, VkStencilOp depthFailOp,
                                           VkCompareOp compareOp) {
  if (auto* r = Append<record::SetStencilOp>(commandBuffer, CommandOp::SetStencilOp))
    *r = {faceMask, failOp, passOp, depthFailOp, compareOp};
}

// --- Draws and dispatches: recorded and counted for pipeline statistics, not executed ---------------------------

VKAPI_ATTR void VKAPI_CALL CmdDraw(VkCommandBuffer commandBuffer, uint32_t vertexCount, uint32_t instanceCount,
                                   uint32_t firstVertex, uint32_t firstInstance) {
  AppendDraw(commandBuffer, CommandOp::Draw, {vertexCount, instanceCount, firstVertex, firstInstance});
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexed(VkCommandBuffer commandBuffer, uint32_t indexCount, uint32_t instanceCount,
                                          uint32_t firstIndex, int32_t vertexOffset, uint32_t firstInstance) {
  if (auto* r = Append<record::DrawIndexed>(commandBuffer, CommandOp::DrawIndexed))
    *r = {indexCount, instanceCount, firstIndex, vertexOffset, firstInstance};
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                           uint32_t drawCount, uint32_t stride) {
  if (auto* r = Append<record::DrawIndirect>(commandBuffer, CommandOp::DrawIndirect))
    *r = {FromHandle(buffer), offset, drawCount, stride};
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexedIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                  uint32_t drawCount, uint32_t stride) {
  if (auto* r = Append<record::DrawIndirect>(commandBuffer, CommandOp::DrawIndexedIndirect))
    *r = {FromHandle(buffer), offset, drawCount, stride};
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirectCount(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                VkBuffer countBuffer, VkDeviceSize countBufferOffset,
                                                uint32_t maxDrawCount, uint32_t stride) {
  if (auto* r = Append<record::DrawIndirectCount>(commandBuffer, CommandOp::DrawIndirectCount))
    *r = {FromHandle(buffer), offset, FromHandle(countBuffer), countBufferOffset, maxDrawCount, stride};
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexedIndirectCount(VkCommandBuffer commandBuffer, VkBuffer buffer,
                                                       VkDeviceSize offset, VkBuffer countBuffer,
                                                       VkDeviceSize countBufferOffset, uint32_t maxDrawCount,
                                                       uint32_t stride) {
  if (auto* r = Append<record::DrawIndirectCount>(commandBuffer, CommandOp::DrawIndexedIndirectCount))
    *r = {FromHandle(buffer), offset, FromHandle(countBuffer), countBufferOffset, maxDrawCount, stride};
}

VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer commandBuffer, uint32_t groupCountX, uint32_t groupCountY,
                                       uint32_t groupCountZ) {
  if (auto* r = Append<record::Dispatch>(commandBuffer, CommandOp::Dispatch))
    *r = {0, 0, 0, groupCountX, groupCountY, groupCountZ};
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseGroupX, uint32_t baseGroupY,
                                           uint32_t baseGroupZ, uint32_t groupCountX, uint32_t groupCountY,
                                           uint32_t groupCountZ) {
  if (auto* r = Append<record::Dispatch>(commandBuffer, CommandOp::DispatchBase))
    *r = {baseGroupX, baseGroupY, baseGroupZ, groupCountX, groupCountY, groupCountZ};
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset) {
  if (auto* r = Append<record::DispatchIndirect>(commandBuffer, CommandOp::DispatchIndirect))
    *r = {FromHandle(buffer), offset};
}

// --- Transfers and clears -------------------------------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer(VkCommandBuffer commandBuffer, VkBuffer srcBuffer, VkBuffer dstBuffer,
                                         uint32_t regionCount, const VkBufferCopy* pRegions) {
  if (!CheckCopyBuffer(*FromHandle(commandBuffer), "vkCmdCopyBuffer", FromHandle(srcBuffer), FromHandle(dstBuffer),
                       regionCount, pRegions))
    return;
  if (auto* r = AppendRegions<VkBufferCopy2, record::CopyBuffer>(commandBuffer, CommandOp::CopyBuffer, regionCount,
                                                                 pRegions)) {
    r->src = FromHandle(srcBuffer);
    r->dst = FromHandle(dstBuffer);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer2(VkCommandBuffer commandBuffer, const VkCopyBufferInfo2* pCopyBufferInfo) {
  if (!CheckCopyBuffer(*FromHandle(commandBuffer), "vkCmdCopyBuffer2", FromHandle(pCopyBufferInfo->srcBuffer),
                       FromHandle(pCopyBufferInfo->dstBuffer), pCopyBufferInfo->regionCount,
                       pCopyBufferInfo->pRegions))
    return;
  if (auto* r = AppendRegions<VkBufferCopy2, record::CopyBuffer>(commandBuffer, CommandOp::CopyBuffer2,
                                                                 pCopyBufferInfo->regionCount, pCopyBufferInfo->pRegions)) {
    r->src = FromHandle(pCopyBufferInfo->srcBuffer);
    r->dst = FromHandle(pCopyBufferInfo->dstBuffer);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImage(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout, VkImage dstImage,
                                        VkImageLayout, uint32_t regionCount, const VkImageCopy* pRegions) {
  if (auto* r = AppendRegions<VkImageCopy2, record::CopyImage>(commandBuffer, CommandOp::CopyImage, regionCount,
                                                               pRegions)) {
    r->src = FromHandle(srcImage);
    r->dst = FromHandle(dstImage);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImage2(VkCommandBuffer commandBuffer, const VkCopyImageInfo2* pCopyImageInfo) {
  if (auto* r = AppendRegions<VkImageCopy2, record::CopyImage>(commandBuffer, CommandOp::CopyImage2,
                                                               pCopyImageInfo->regionCount, pCopyImageInfo->pRegions)) {
    r->src = FromHandle(pCopyImageInfo->srcImage);
    r->dst = FromHandle(pCopyImageInfo->dstImage);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdBlitImage(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout, VkImage dstImage,
                                        VkImageLayout, uint32_t regionCount, const VkImageBlit* pRegions,
                                        VkFilter filter) {
  if (auto* r = AppendRegions<VkImageBlit2, record::BlitImage>(commandBuffer, CommandOp::BlitImage, regionCount,
                                                               pRegions)) {
    r->src = FromHandle(srcImage);
    r->dst = FromHandle(dstImage);
    r->filter = filter;
  }
}

VKAPI_ATTR void VKAPI_CALL CmdBlitImage2(VkCommandBuffer commandBuffer, const VkBlitImageInfo2* pBlitImageInfo) {
  if (auto* r = AppendRegions<VkImageBlit2, record::BlitImage>(commandBuffer, CommandOp::BlitImage2,
                                                               pBlitImageInfo->regionCount, pBlitImageInfo->pRegions)) {
    r->src = FromHandle(pBlitImageInfo->srcImage);
    r->dst = FromHandle(pBlitImageInfo->dstImage);
    r->filter = pBlitImageInfo->filter;
  }
}

VKAPI_ATTR void VKAPI_CALL CmdResolveImage(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout,
                                           VkImage dstImage, VkImageLayout, uint32_t regionCount,
                                           const VkImageResolve* pRegions) {
  if (auto* r = AppendRegions<VkImageResolve2, record::ResolveImage>(commandBuffer, CommandOp::ResolveImage,
                                                                     regionCount, pRegions)) {
    r->src = FromHandle(srcImage);
    r->dst = FromHandle(dstImage);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdResolveImage2(VkCommandBuffer commandBuffer,
                                            const VkResolveImageInfo2* pResolveImageInfo) {
  if (auto* r = AppendRegions<VkImageResolve2, record::ResolveImage>(
          commandBuffer, CommandOp::ResolveImage2, pResolveImageInfo->regionCount, pResolveImageInfo->pRegions)) {
    r->src = FromHandle(pResolveImageInfo->srcImage);
    r->dst = FromHandle(pResolveImageInfo->dstImage);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdCopyBufferToImage(VkCommandBuffer commandBuffer, VkBuffer srcBuffer, VkImage dstImage,
                                                VkImageLayout, uint32_t regionCount, const VkBufferImageCopy* pRegions) {
  if (auto* r = AppendRegions<VkBufferImageCopy2, record::BufferImageCopy>(commandBuffer, CommandOp::CopyBufferToImage,
                                                                           regionCount, pRegions)) {
    r->buffer = FromHandle(srcBuffer);
    r->image = FromHandle(dstImage);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdCopyBufferToImage2(VkCommandBuffer commandBuffer,
                                                 const VkCopyBufferToImageInfo2* pCopyBufferToImageInfo) {
  if (auto* r = AppendRegions<VkBufferImageCopy2, record::BufferImageCopy>(
          commandBuffer, CommandOp::CopyBufferToImage2, pCopyBufferToImageInfo->regionCount,
          pCopyBufferToImageInfo->pRegions)) {
    r->buffer = FromHandle(pCopyBufferToImageInfo->srcBuffer);
    r->image = FromHandle(pCopyBufferToImageInfo->dstImage);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImageToBuffer(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout,
                                                VkBuffer dstBuffer, uint32_t regionCount,
                                                const VkBufferImageCopy* pRegions) {
  if (auto* r = AppendRegions<VkBufferImageCopy2, record::BufferImageCopy>(commandBuffer, CommandOp::CopyImageToBuffer,
                                                                           regionCount, pRegions)) {
    r->buffer = FromHandle(dstBuffer);
    r->image = FromHandle(srcImage);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImageToBuffer2(VkCommandBuffer commandBuffer,
                                                 const VkCopyImageToBufferInfo2* pCopyImageToBufferInfo) {
  if (auto* r = AppendRegions<VkBufferImageCopy2, record::BufferImageCopy>(
          commandBuffer, CommandOp::CopyImageToBuffer2, pCopyImageToBufferInfo->regionCount,
          pCopyImageToBufferInfo->pRegions)) {
    r->buffer = FromHandle(pCopyImageToBufferInfo->dstBuffer);
    r->image = FromHandle(pCopyImageToBufferInfo->srcImage);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdUpdateBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer, VkDeviceSize dstOffset,
                                           VkDeviceSize dataSize, const void* pData) {
  // "dataSize must be less than or equal to 65536" (VUID-vkCmdUpdateBuffer-dataSize-00037): the data fits a record.
  if (!CheckUpdateBuffer(*FromHandle(commandBuffer), FromHandle(dstBuffer), dstOffset, dataSize)) return;
  auto* r = Append<record::UpdateBuffer>(commandBuffer, CommandOp::UpdateBuffer, static_cast<size_t>(dataSize));
  if (r == nullptr) return;
  *r = {FromHandle(dstBuffer), dstOffset, dataSize};
  std::memcpy(PayloadOf<std::byte>(r), pData, static_cast<size_t>(dataSize));
}

VKAPI_ATTR void VKAPI_CALL CmdFillBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer, VkDeviceSize dstOffset,
                                         VkDeviceSize size, uint32_t data) {
  if (!CheckFillBuffer(*FromHandle(commandBuffer), FromHandle(dstBuffer), dstOffset, size)) return;
  if (auto* r = Append<record::FillBuffer>(commandBuffer, CommandOp::FillBuffer))
    *r = {FromHandle(dstBuffer), dstOffset, size, data};
}

VKAPI_ATTR void VKAPI_CALL CmdClearColorImage(VkCommandBuffer commandBuffer, VkImage image, VkImageLayout,
                                              const VkClearColorValue* pColor, uint32_t rangeCount,
                                              const VkImageSubresourceRange* pRanges) {
  auto* r = Append<record::ClearColorImage>(commandBuffer, CommandOp::ClearColorImage,
                                            sizeof(VkImageSubresourceRange) * rangeCount);
  if (r == nullptr) return;
  *r = {FromHandle(image), *pColor, rangeCount};
  CopyArray(PayloadOf<VkImageSubresourceRange>(r), pRanges, rangeCount);
}

VKAPI_ATTR void VKAPI_CALL CmdClearDepthStencilImage(VkCommandBuffer commandBuffer, VkImage image, VkImageLayout,
                                                     const VkClearDepthStencilValue* pDepthStencil, uint32_t rangeCount,
                                                     const VkImageSubresourceRange* pRanges) {
  auto* r = Append<record::ClearDepthStencilImage>(commandBuffer, CommandOp::ClearDepthStencilImage,
                                                   sizeof(VkImageSubresourceRange) * rangeCount);
  if (r == nullptr) return;
  *r = {FromHandle(image), *pDepthStencil, rangeCount};
  CopyArray(PayloadOf<VkImageSubresourceRange>(r), pRanges, rangeCount);
}

VKAPI_ATTR void VKAPI_CALL CmdClearAttachments(VkCommandBuffer commandBuffer, uint32_t attachmentCount,
                                               const VkClearAttachment* pAttachments, uint32_t rectCount,
                                               const VkClearRect* pRects) {
  auto* r = Append<record::ClearAttachments>(commandBuffer, CommandOp::ClearAttachments,
                                             sizeof(VkClearAttachment) * attachmentCount + sizeof(VkClearRect) * rectCount);
  if (r == nullptr) return;
  *r = {attachmentCount, rectCount};
  VkClearAttachment* attachments = PayloadOf<VkClearAttachment>(r);
  CopyArray(attachments, pAttachments, attachmentCount);
  CopyArray(reinterpret_cast<VkClearRect*>(attachments + attachmentCount), pRects, rectCount);
}

// --- Render passes and dynamic rendering ----------------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass(VkCommandBuffer commandBuffer, const VkRenderPassBeginInfo* pRenderPassBegin,
                                              VkSubpassContents contents) {
  AppendBeginRenderPass(commandBuffer, CommandOp::BeginRenderPass, *pRenderPassBegin, contents);
}

VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass2(VkCommandBuffer commandBuffer,
                                               const VkRenderPassBeginInfo* pRenderPassBegin,
                                               const VkSubpassBeginInfo* pSubpassBeginInfo) {
  AppendBeginRenderPass(commandBuffer, CommandOp::BeginRenderPass2, *pRenderPassBegin, pSubpassBeginInfo->contents);
}

VKAPI_ATTR void VKAPI_CALL CmdNextSubpass(VkCommandBuffer commandBuffer, VkSubpassContents contents) {
  if (auto* r = Append<record::NextSubpass>(commandBuffer, CommandOp::NextSubpass)) r->contents = contents;
}

VKAPI_ATTR void VKAPI_CALL CmdNextSubpass2(VkCommandBuffer commandBuffer, const VkSubpassBeginInfo* pSubpassBeginInfo,
                                           const VkSubpassEndInfo*) {
  if (auto* r = Append<record::NextSubpass>(commandBuffer, CommandOp::NextSubpass2))
    r->contents = pSubpassBeginInfo->contents;
}

VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass(VkCommandBuffer commandBuffer) {
  if (auto* r = Append<record::Empty>(commandBuffer, CommandOp::EndRenderPass)) r->unused = 0;
}

VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass2(VkCommandBuffer commandBuffer, const VkSubpassEndInfo*) {
  if (auto* r = Append<record::Empty>(commandBuffer, CommandOp::EndRenderPass2)) r->unused = 0;
}

VKAPI_ATTR void VKAPI_CALL CmdBeginRendering(VkCommandBuffer commandBuffer, const VkRenderingInfo* pRenderingInfo) {
  const uint32_t colorCount = pRenderingInfo->colorAttachmentCount;
  auto* r = Append<record::BeginRendering>(commandBuffer, CommandOp::BeginRendering,
                                           sizeof(record::RenderingAttachment) * (colorCount + 2));
  if (r == nullptr) return;
  *r = {pRenderingInfo->flags, pRenderingInfo->renderArea, pRenderingInfo->layerCount, pRenderingInfo->viewMask,
        colorCount};
  record::RenderingAttachment* attachments = PayloadOf<record::RenderingAttachment>(r);
  for (uint32_t i = 0; i < colorCount; ++i) attachments[i] = ToRenderingAttachment(&pRenderingInfo->pColorAttachments[i]);
  attachments[colorCount] = ToRenderingAttachment(pRenderingInfo->pDepthAttachment);
  attachments[colorCount + 1] = ToRenderingAttachment(pRenderingInfo->pStencilAttachment);
}

VKAPI_ATTR void VKAPI_CALL CmdEndRendering(VkCommandBuffer commandBuffer) {
  if (auto* r = Append<record::Empty>(commandBuffer, CommandOp::EndRendering)) r->unused = 0;
}

// --- VK_EXT_debug_utils labels: kept in the stream as markers for fault reports ---------------------------------

VKAPI_ATTR void VKAPI_CALL CmdBeginDebugUtilsLabelEXT(VkCommandBuffer commandBuffer,
                                                      const VkDebugUtilsLabelEXT* pLabelInfo) {
  AppendLabel(commandBuffer, CommandOp::BeginDebugUtilsLabelEXT, pLabelInfo);
}

VKAPI_ATTR void VKAPI_CALL CmdEndDebugUtilsLabelEXT(VkCommandBuffer commandBuffer) {
  AppendLabel(commandBuffer, CommandOp::EndDebugUtilsLabelEXT, nullptr);
}

VKAPI_ATTR void VKAPI_CALL CmdInsertDebugUtilsLabelEXT(VkCommandBuffer commandBuffer,
                                                       const VkDebugUtilsLabelEXT* pLabelInfo) {
  AppendLabel(commandBuffer, CommandOp::InsertDebugUtilsLabelEXT, pLabelInfo);
}

}  // namespace crashtest::icd
