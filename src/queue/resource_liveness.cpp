#include "queue/resource_liveness.h"

#include <cinttypes>
#include <cstdio>

#include "command/command_records.h"
#include "common/live_objects.h"
#include "common/log.h"
#include "device/device.h"
#include "device/resources.h"
#include "fault/fault_engine.h"
#include "memory/sampler.h"
#include "memory/views.h"
#include "queue/queue.h"

namespace crashtest {

namespace {

// What a kind of object is called in the fault's description and the VUID its destruction under pending work
// breaks.
struct Kind {
  VkObjectType type;
  const char* name;
  const char* vuid;
};
constexpr Kind kBuffer{VK_OBJECT_TYPE_BUFFER, "buffer", "VUID-vkDestroyBuffer-buffer-00922"};
constexpr Kind kImage{VK_OBJECT_TYPE_IMAGE, "image", "VUID-vkDestroyImage-image-01000"};
constexpr Kind kImageView{VK_OBJECT_TYPE_IMAGE_VIEW, "image view", "VUID-vkDestroyImageView-imageView-01026"};
constexpr Kind kBufferView{VK_OBJECT_TYPE_BUFFER_VIEW, "buffer view", "VUID-vkDestroyBufferView-bufferView-00936"};
constexpr Kind kSampler{VK_OBJECT_TYPE_SAMPLER, "sampler", "VUID-vkDestroySampler-sampler-01082"};
constexpr Kind kRenderPass{VK_OBJECT_TYPE_RENDER_PASS, "render pass", "VUID-vkDestroyRenderPass-renderPass-00873"};
constexpr Kind kFramebuffer{VK_OBJECT_TYPE_FRAMEBUFFER, "framebuffer", "VUID-vkDestroyFramebuffer-framebuffer-00892"};
constexpr Kind kQueryPool{VK_OBJECT_TYPE_QUERY_POOL, "query pool", "VUID-vkDestroyQueryPool-queryPool-00793"};

// Raises the use-after-free fault described by `text` at `address` and returns false.
bool Raise(Queue& queue, ResourceAccess access, VkDeviceAddress address, const char* text, const std::string& where) {
  RaiseUseAfterFree(queue, access, address, text, where);
  return false;
}

// Checks `object` of `kind` and, while it lives, what it is made of (a view's image or buffer, a resource's
// memory). `via` names the view the command reached it through ("" when it names it directly), for the
// description. A dead object is never dereferenced.
bool Check(Queue& queue, const void* object, const Kind& kind, ResourceAccess access, const std::string& where,
           const std::string& via) {
  if (object == nullptr) return true;
  const char* verb = access == ResourceAccess::Write ? "write" : "read";
  live_objects::Entry entry;
  const live_objects::State state = live_objects::Find(object, kind.type, &entry);
  char text[512];
  if (state == live_objects::State::Live) {
    // Live: its fields may be read.
    if (kind.type == VK_OBJECT_TYPE_IMAGE_VIEW || kind.type == VK_OBJECT_TYPE_BUFFER_VIEW) {
      char through[96];
      std::snprintf(through, sizeof through, " (through %s %" PRIu64 ")", kind.name, entry.id);
      if (kind.type == VK_OBJECT_TYPE_IMAGE_VIEW)
        return Check(queue, &static_cast<const ImageView*>(object)->image(), kImage, access, where, through);
      return Check(queue, &static_cast<const BufferView*>(object)->buffer(), kBuffer, access, where, through);
    }
    // A buffer or image must have live memory too ("using a resource whose memory was freed").
    const DeviceMemory* memory = kind.type == VK_OBJECT_TYPE_BUFFER ? static_cast<const Buffer*>(object)->memory()
                                 : kind.type == VK_OBJECT_TYPE_IMAGE ? static_cast<const Image*>(object)->memory()
                                                                     : nullptr;
    if (memory == nullptr) return true;  // a sampler or query pool, or never bound: the recording checks reject that elsewhere
    live_objects::Entry memoryEntry;
    if (live_objects::Find(memory, VK_OBJECT_TYPE_DEVICE_MEMORY, &memoryEntry) == live_objects::State::Live)
      return true;
    std::snprintf(text, sizeof text,
                  "use after free: %s of %s %" PRIu64 " at 0x%" PRIx64 "%s, whose memory %" PRIu64
                  " was freed while work used it (VUID-vkFreeMemory-memory-00677)",
                  verb, kind.name, entry.id, entry.address, via.c_str(), memoryEntry.id);
  } else if (state == live_objects::State::Destroyed) {
    std::snprintf(text, sizeof text,
                  "use after free: %s of %s %" PRIu64 " at 0x%" PRIx64 "%s, destroyed while work used it (%s)", verb,
                  kind.name, entry.id, entry.address, via.c_str(), kind.vuid);
  } else {
    std::snprintf(text, sizeof text,
                  "use after free: %s of %s %p%s, which no longer exists (destroyed while work used it, %s)", verb,
                  kind.name, object, via.c_str(), kind.vuid);
  }
  return Raise(queue, access, entry.address, text, where);
}

}  // namespace

void RaiseUseAfterFree(Queue& queue, ResourceAccess access, VkDeviceAddress address, const char* text,
                       const std::string& where) {
  CT_ERROR("%s: %s", where.c_str(), text);
  PlannedFault planned;
  planned.id = "use-after-free";
  planned.effect = FaultEffect::DeviceLost;
  planned.report.description = text;
  planned.report.address = FaultAddress{access == ResourceAccess::Write ? VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_KHR
                                                                        : VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR,
                                        address, 1};
  queue.device().faults().Inject(planned, ("at " + where).c_str());
}

bool BufferLive(Queue& queue, const Buffer* buffer, ResourceAccess access, const std::string& where) {
  return Check(queue, buffer, kBuffer, access, where, "");
}

bool ImageLive(Queue& queue, const Image* image, ResourceAccess access, const std::string& where) {
  return Check(queue, image, kImage, access, where, "");
}

bool ImageViewLive(Queue& queue, const ImageView* view, ResourceAccess access, const std::string& where) {
  return Check(queue, view, kImageView, access, where, "");
}

bool BufferViewLive(Queue& queue, const BufferView* view, ResourceAccess access, const std::string& where) {
  return Check(queue, view, kBufferView, access, where, "");
}

bool SamplerLive(Queue& queue, const Sampler* sampler, const std::string& where) {
  return Check(queue, sampler, kSampler, ResourceAccess::Read, where, "");
}

bool QueryPoolLive(Queue& queue, const QueryPool* pool, ResourceAccess access, const std::string& where) {
  return Check(queue, pool, kQueryPool, access, where, "");
}

bool RenderPassInstanceLive(Queue& queue, const RenderPass* pass, const Framebuffer* framebuffer,
                            const std::string& where) {
  return Check(queue, pass, kRenderPass, ResourceAccess::Write, where, "") &&
         Check(queue, framebuffer, kFramebuffer, ResourceAccess::Write, where, "");
}

bool CommandResourcesLive(Queue& queue, CommandOp op, const void* record, const std::string& where) {
  constexpr ResourceAccess kRead = ResourceAccess::Read, kWrite = ResourceAccess::Write;
  switch (op) {
    case CommandOp::CopyBuffer:
    case CommandOp::CopyBuffer2: {
      const auto* r = static_cast<const record::CopyBuffer*>(record);
      return BufferLive(queue, r->src, kRead, where) && BufferLive(queue, r->dst, kWrite, where);
    }
    case CommandOp::CopyImage:
    case CommandOp::CopyImage2: {
      const auto* r = static_cast<const record::CopyImage*>(record);
      return ImageLive(queue, r->src, kRead, where) && ImageLive(queue, r->dst, kWrite, where);
    }
    case CommandOp::BlitImage:
    case CommandOp::BlitImage2: {
      const auto* r = static_cast<const record::BlitImage*>(record);
      return ImageLive(queue, r->src, kRead, where) && ImageLive(queue, r->dst, kWrite, where);
    }
    case CommandOp::ResolveImage:
    case CommandOp::ResolveImage2: {
      const auto* r = static_cast<const record::ResolveImage*>(record);
      return ImageLive(queue, r->src, kRead, where) && ImageLive(queue, r->dst, kWrite, where);
    }
    case CommandOp::CopyBufferToImage:
    case CommandOp::CopyBufferToImage2: {
      const auto* r = static_cast<const record::BufferImageCopy*>(record);
      return BufferLive(queue, r->buffer, kRead, where) && ImageLive(queue, r->image, kWrite, where);
    }
    case CommandOp::CopyImageToBuffer:
    case CommandOp::CopyImageToBuffer2: {
      const auto* r = static_cast<const record::BufferImageCopy*>(record);
      return ImageLive(queue, r->image, kRead, where) && BufferLive(queue, r->buffer, kWrite, where);
    }
    case CommandOp::UpdateBuffer:
      return BufferLive(queue, static_cast<const record::UpdateBuffer*>(record)->dst, kWrite, where);
    case CommandOp::FillBuffer:
      return BufferLive(queue, static_cast<const record::FillBuffer*>(record)->dst, kWrite, where);
    case CommandOp::ClearColorImage:
      return ImageLive(queue, static_cast<const record::ClearColorImage*>(record)->image, kWrite, where);
    case CommandOp::ClearDepthStencilImage:
      return ImageLive(queue, static_cast<const record::ClearDepthStencilImage*>(record)->image, kWrite, where);
    // Indirect parameters are read from device memory when the command runs, as on a GPU.
    case CommandOp::DispatchIndirect:
      return BufferLive(queue, static_cast<const record::DispatchIndirect*>(record)->buffer, kRead, where);
    case CommandOp::DrawIndirect:
    case CommandOp::DrawIndexedIndirect:
      return BufferLive(queue, static_cast<const record::DrawIndirect*>(record)->buffer, kRead, where);
    case CommandOp::DrawIndirectCount:
    case CommandOp::DrawIndexedIndirectCount: {
      const auto* r = static_cast<const record::DrawIndirectCount*>(record);
      return BufferLive(queue, r->countBuffer, kRead, where) && BufferLive(queue, r->buffer, kRead, where);
    }
    // Breadcrumbs and query results are written to device memory as the command runs, as on a GPU.
    case CommandOp::WriteBufferMarkerAMD:
    case CommandOp::WriteBufferMarker2AMD:
      return BufferLive(queue, static_cast<const record::BufferMarker*>(record)->dst, kWrite, where);
    case CommandOp::CopyQueryPoolResults: {
      const auto* r = static_cast<const record::CopyQueryPoolResults*>(record);
      return QueryPoolLive(queue, r->pool, kRead, where) && BufferLive(queue, r->dst, kWrite, where);
    }
    case CommandOp::BeginQuery:
      return QueryPoolLive(queue, static_cast<const record::BeginQuery*>(record)->pool, kWrite, where);
    case CommandOp::EndQuery:
      return QueryPoolLive(queue, static_cast<const record::EndQuery*>(record)->pool, kWrite, where);
    case CommandOp::ResetQueryPool:
      return QueryPoolLive(queue, static_cast<const record::ResetQueryPool*>(record)->pool, kWrite, where);
    case CommandOp::WriteTimestamp:
    case CommandOp::WriteTimestamp2:
      return QueryPoolLive(queue, static_cast<const record::WriteTimestamp*>(record)->pool, kWrite, where);
    default:
      return true;
  }
}

}  // namespace crashtest
