// VkQueryPool: per query its result values and availability. Queues write results as they execute (the
// executor); the host reads them with vkGetQueryPoolResults and queues copy them with vkCmdCopyQueryPoolResults.
// Availability is published under the device's DeviceExecution lock so VK_QUERY_RESULT_WAIT_BIT blocks without
// polling.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Device;
class DeviceExecution;
CT_DEFINE_HANDLE(QueryPool, VkQueryPool, VK_OBJECT_TYPE_QUERY_POOL);

class QueryPool : public Object {
 public:
  static VkResult Create(Device& device, const VkQueryPoolCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkQueryPool* out);
  static void Destroy(Device& device, QueryPool* pool, const VkAllocationCallbacks* allocator);

  QueryPool(DeviceExecution& execution, const VkQueryPoolCreateInfo& info);

  VkQueryType type() const { return type_; }
  uint32_t queryCount() const { return queryCount_; }
  VkQueryPipelineStatisticFlags statistics() const { return statistics_; }
  // Result values per query: one, or one per statistic requested.
  uint32_t valuesPerQuery() const { return valuesPerQuery_; }

  // vkResetQueryPool / vkCmdResetQueryPool: the queries become unavailable.
  void Reset(uint32_t first, uint32_t count);
  // The final values of one query (valuesPerQuery() of them); the query becomes available.
  void Write(uint32_t query, const uint64_t* values);
  bool available(uint32_t query) const { return available_[query].load(std::memory_order_acquire) != 0; }

  // vkGetQueryPoolResults and vkCmdCopyQueryPoolResults: writes queries [first, first + count) at `stride` into
  // `data` following the flags; VK_NOT_READY when a query was unavailable (and WAIT not given).
  VkResult Results(uint32_t first, uint32_t count, std::byte* data, VkDeviceSize stride, VkQueryResultFlags flags);

 private:
  DeviceExecution& execution_;
  VkQueryType type_;
  uint32_t queryCount_;
  VkQueryPipelineStatisticFlags statistics_;
  uint32_t valuesPerQuery_;
  std::vector<uint64_t> values_;
  std::unique_ptr<std::atomic<uint8_t>[]> available_;
};

}  // namespace crashtest
