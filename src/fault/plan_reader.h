// Reads and validates the configuration's "faults" array into a FaultPlan. Every problem is reported with the
// JSON path (e.g. "faults[1].when.submit: expected an integer of at least 1, got 0"), not only the first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fault/fault_plan.h"
#include "profile/read_context.h"

namespace crashtest {

// The queues of one device: queueCounts[f] is queue family f's queueCount.
using DeviceQueueCounts = std::vector<uint32_t>;

// `faults` is the value of the top-level "faults" member; `deviceCount` bounds the "device" selectors. With
// `queues` (one entry per device), a "queue" selector must name a queue the device has: a fault counting a queue
// that does not exist would never fire. False when any error was reported (out then holds the faults that were
// valid).
bool ReadFaultPlan(const ReadContext& ctx, const Json& faults, std::size_t deviceCount, FaultPlan& out,
                   const std::vector<DeviceQueueCounts>* queues = nullptr);

// One fault of the runtime control API (crashtestInjectFault): the same form as a plan entry, except that "when"
// may be left out (*hasTrigger = false: fire now) and "device" is not allowed (the call names the device, whose
// queues `queues` lists when given).
bool ReadInjectedFault(const ReadContext& ctx, const Json& fault, PlannedFault& out, bool* hasTrigger,
                       const DeviceQueueCounts* queues = nullptr);

}  // namespace crashtest
