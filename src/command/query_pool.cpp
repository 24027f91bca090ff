#include "command/query_pool.h"

#include <bit>
#include <cstring>

#include "common/allocation.h"
#include "common/live_objects.h"
#include "common/log.h"
#include "common/result.h"
#include "device/device.h"
#include "queue/device_execution.h"

namespace crashtest {

QueryPool::QueryPool(DeviceExecution& execution, const VkQueryPoolCreateInfo& info)
    : Object(VK_OBJECT_TYPE_QUERY_POOL),
      execution_(execution),
      type_(info.queryType),
      queryCount_(info.queryCount),
      statistics_(info.queryType == VK_QUERY_TYPE_PIPELINE_STATISTICS ? info.pipelineStatistics : 0),
      valuesPerQuery_(info.queryType == VK_QUERY_TYPE_PIPELINE_STATISTICS
                          ? static_cast<uint32_t>(std::popcount(info.pipelineStatistics))
                          : 1),
      values_(static_cast<size_t>(queryCount_) * valuesPerQuery_, 0),
      available_(new std::atomic<uint8_t>[queryCount_]) {
  for (uint32_t i = 0; i < queryCount_; ++i) available_[i].store(0, std::memory_order_relaxed);
}

VkResult QueryPool::Create(Device& device, const VkQueryPoolCreateInfo& info, const VkAllocationCallbacks* allocator,
                           VkQueryPool* out) {
  switch (info.queryType) {
    case VK_QUERY_TYPE_OCCLUSION:
    case VK_QUERY_TYPE_PIPELINE_STATISTICS:
    case VK_QUERY_TYPE_TIMESTAMP:
      break;
    default:
      return ReportError(VK_ERROR_FEATURE_NOT_PRESENT,
                         "vkCreateQueryPool: query type %d is not supported (occlusion, pipeline statistics and "
                         "timestamp queries are)",
                         static_cast<int>(info.queryType));
  }
  auto* pool = NewObject<QueryPool>(ChooseAllocator(allocator, device.allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                    ExecutionOf(device), info);
  if (pool == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateQueryPool: allocation failed");
  live_objects::Add(pool, {VK_OBJECT_TYPE_QUERY_POOL, pool->header.id, 0});
  *out = ToHandle(pool);
  return VK_SUCCESS;
}

void QueryPool::Destroy(Device& device, QueryPool* pool, const VkAllocationCallbacks* allocator) {
  if (pool == nullptr) return;
  // "queryPool must be a valid VkQueryPool handle" (VUID-vkDestroyQueryPool-queryPool-parameter): a second
  // destruction would free the pool twice.
  if (!live_objects::Remove(pool, VK_OBJECT_TYPE_QUERY_POOL)) {
    CT_ERROR("vkDestroyQueryPool: %p is not a live query pool (destroyed already?) "
             "(VUID-vkDestroyQueryPool-queryPool-parameter); ignored", static_cast<void*>(ToHandle(pool)));
    return;
  }
  // Pending work may still name it (VUID-vkDestroyQueryPool-queryPool-00793): the queues see it destroyed and fault
  // (queue/resource_liveness.h); its storage stays until that work is done.
  device.deferredDestruction().DestroyWhenIdle(
      pool, [](void* object, const VkAllocationCallbacks* callbacks) {
        DeleteObject(callbacks, static_cast<QueryPool*>(object));
      },
      ChooseAllocator(allocator, device.allocator()));
}

void QueryPool::Reset(uint32_t first, uint32_t count) {
  execution_.Publish([&] {
    for (uint32_t i = first; i < first + count && i < queryCount_; ++i) {
      available_[i].store(0, std::memory_order_relaxed);
      std::memset(&values_[static_cast<size_t>(i) * valuesPerQuery_], 0, valuesPerQuery_ * sizeof(uint64_t));
    }
  });
}

void QueryPool::Write(uint32_t query, const uint64_t* values) {
  if (query >= queryCount_) return;
  execution_.Publish([&] {
    std::memcpy(&values_[static_cast<size_t>(query) * valuesPerQuery_], values, valuesPerQuery_ * sizeof(uint64_t));
    available_[query].store(1, std::memory_order_release);
  });
}

VkResult QueryPool::Results(uint32_t first, uint32_t count, std::byte* data, VkDeviceSize stride,
                            VkQueryResultFlags flags) {
  const bool wide = (flags & VK_QUERY_RESULT_64_BIT) != 0;
  const bool wait = (flags & VK_QUERY_RESULT_WAIT_BIT) != 0;
  const bool withAvailability = (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) != 0;
  const bool partial = (flags & VK_QUERY_RESULT_PARTIAL_BIT) != 0;
  auto put = [&](std::byte* at, uint32_t index, uint64_t value) {
    if (wide) {
      std::memcpy(at + index * sizeof(uint64_t), &value, sizeof(value));
    } else {
      // "If VK_QUERY_RESULT_64_BIT is not set ... the results are written as an array of 32-bit unsigned integer
      // values"; values that do not fit wrap (an implementation may wrap or saturate).
      auto narrow = static_cast<uint32_t>(value);
      std::memcpy(at + index * sizeof(uint32_t), &narrow, sizeof(narrow));
    }
  };
  // vkGetQueryPoolResults may return VK_ERROR_DEVICE_LOST, and with WAIT "must return in finite time even in the
  // case of a lost device": nothing is written once the device is lost.
  if (execution_.lost()) return VK_ERROR_DEVICE_LOST;
  VkResult result = VK_SUCCESS;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t query = first + i;
    if (query >= queryCount_) break;
    std::byte* at = data + stride * i;
    if (wait && !available(query)) {
      // "VK_QUERY_RESULT_WAIT_BIT specifies that Vulkan will wait for each query's status to become available
      // before retrieving its results." A device being destroyed releases the wait.
      execution_.Wait(UINT64_MAX, [&] { return available(query); });
      if (execution_.lost()) return VK_ERROR_DEVICE_LOST;
    }
    bool isAvailable = available(query);
    // "If VK_QUERY_RESULT_WAIT_BIT and VK_QUERY_RESULT_PARTIAL_BIT are both not set then no result values are
    // written to pData for queries that are in the unavailable state at the time of the call, and
    // vkGetQueryPoolResults returns VK_NOT_READY."
    if (!isAvailable) result = VK_NOT_READY;
    if (isAvailable || partial) {
      // Partial results: "an intermediate result value between zero and the final result value"; nothing has
      // been counted for an unavailable query, so zero.
      const uint64_t* values = &values_[static_cast<size_t>(query) * valuesPerQuery_];
      for (uint32_t v = 0; v < valuesPerQuery_; ++v) put(at, v, isAvailable ? values[v] : 0);
    }
    if (withAvailability) put(at, valuesPerQuery_, isAvailable ? 1 : 0);
  }
  return result;
}

}  // namespace crashtest
