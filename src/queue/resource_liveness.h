// Before a command touches a resource, the queue checks that it — and what it is made of: a view's image or
// buffer, a resource's memory — is still alive (common/live_objects.h). Destroying them while pending work uses
// them is a misuse (VUID-vkDestroyBuffer-buffer-00922, VUID-vkDestroyImage-image-01000,
// VUID-vkDestroyImageView-imageView-01026, VUID-vkDestroyBufferView-bufferView-00936,
// VUID-vkDestroySampler-sampler-01082, VUID-vkFreeMemory-memory-00677, VUID-vkDestroyQueryPool-queryPool-00793,
// VUID-vkDestroyRenderPass-renderPass-00873, VUID-vkDestroyFramebuffer-framebuffer-00892) that a GPU answers with a page fault: the
// queue raises a device fault through the fault engine — READ_INVALID or WRITE_INVALID at the resource's device
// address, described as a use after free — and the command does not run. Objects destroyed while work is in flight
// keep their storage (device/deferred_destruction.h), so checking never races with the free; an object found dead
// is never dereferenced (it may be gone already when it was destroyed before the submission).
//
// Used by every path that reads resources: transfers and indirect parameters (CommandResourcesLive), descriptor
// flattening for dispatches and draws (queue/bound_resources), vertex and index buffers and attachments (queue/
// graphics_draw, render passes in queue/executor).
#pragma once

#include <vulkan/vulkan.h>

#include <string>

#include "command/command_ops.h"

namespace crashtest {

class Buffer;
class BufferView;
class Image;
class ImageView;
class Framebuffer;
class QueryPool;
class RenderPass;
class Queue;
class Sampler;

enum class ResourceAccess { Read, Write };

// Each returns true when the resource (nullptr included: nothing to check) and what it depends on are alive; else
// the use-after-free fault is raised (a device loss unless the plan masks it) and the caller must neither run the
// command nor dereference the resource. `where` names the command.
bool BufferLive(Queue& queue, const Buffer* buffer, ResourceAccess access, const std::string& where);
bool ImageLive(Queue& queue, const Image* image, ResourceAccess access, const std::string& where);
bool ImageViewLive(Queue& queue, const ImageView* view, ResourceAccess access, const std::string& where);
bool BufferViewLive(Queue& queue, const BufferView* view, ResourceAccess access, const std::string& where);
bool SamplerLive(Queue& queue, const Sampler* sampler, const std::string& where);
// A query pool has no device address: its faults are at 0 (VUID-vkDestroyQueryPool-queryPool-00793,
// VUID-vkDestroyRenderPass-renderPass-00873, VUID-vkDestroyFramebuffer-framebuffer-00892).
bool QueryPoolLive(Queue& queue, const QueryPool* pool, ResourceAccess access, const std::string& where);

// Raises the use-after-free fault described by `text` (logged with `where`) at `address`: id `use-after-free`,
// READ_INVALID or WRITE_INVALID. For the other checks of this kind (queue/descriptor_set_liveness.h).
void RaiseUseAfterFree(Queue& queue, ResourceAccess access, VkDeviceAddress address, const char* text,
                       const std::string& where);

// The render pass and framebuffer a vkCmdBeginRenderPass names, before anything of them is read (their faults are at
// 0: VUID-vkDestroyRenderPass-renderPass-00873, VUID-vkDestroyFramebuffer-framebuffer-00892).
bool RenderPassInstanceLive(Queue& queue, const RenderPass* pass, const Framebuffer* framebuffer,
                            const std::string& where);

// The buffers and images a transfer command (copies, blits, clears, resolves, fills, updates) or the indirect
// parameters of a draw or dispatch (its indirect and count buffers) name, the destination of a buffer marker, and the
// query pool (and destination buffer) of a query command, checked as above.
bool CommandResourcesLive(Queue& queue, CommandOp op, const void* record, const std::string& where);

}  // namespace crashtest
