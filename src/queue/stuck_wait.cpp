#include "queue/stuck_wait.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "common/log.h"
#include "device/device.h"
#include "device/instance.h"
#include "device/physical_device.h"
#include "fault/fault_engine.h"
#include "queue/device_execution.h"
#include "queue/queue.h"
#include "queue/semaphore.h"

namespace crashtest {

bool WaitOnQueueReportingStuck(Queue& queue, Semaphore& semaphore, uint64_t value, uint64_t serial) {
  const ExecutionOptions& options = queue.device().physicalDevice().instance().executionOptions();
  if (options.stuckWaitMs == 0) return semaphore.WaitOnQueue(value);
  const auto limit = std::chrono::milliseconds(options.stuckWaitMs);
  const auto start = std::chrono::steady_clock::now();
  if (semaphore.WaitOnQueue(value, static_cast<uint64_t>(std::chrono::nanoseconds(limit).count()))) return true;
  DeviceExecution& execution = queue.execution();
  // Released early: the device is lost or being destroyed (neither is a stuck wait).
  if (execution.lost() || std::chrono::steady_clock::now() - start < limit) return false;

  const uint64_t handle = reinterpret_cast<uint64_t>(ToHandle(&semaphore));
  const std::string name = execution.names().Get(handle);
  char what[160];
  if (semaphore.timeline())
    std::snprintf(what, sizeof what, "timeline semaphore %" PRIu64 "%s%s%s to reach %" PRIu64 " (it is at %" PRIu64 ")",
                  semaphore.header.id, name.empty() ? "" : " \"", name.c_str(), name.empty() ? "" : "\"", value,
                  semaphore.value());
  else
    std::snprintf(what, sizeof what, "binary semaphore %" PRIu64 "%s%s%s to be signalled", semaphore.header.id,
                  name.empty() ? "" : " \"", name.c_str(), name.empty() ? "" : "\"");
  char text[512];
  std::snprintf(text, sizeof text,
                "stuck wait: submission %" PRIu64 " on queue %u of family %u has waited %u ms for %s; nothing has "
                "signalled it",
                serial, queue.index(), queue.familyIndex(), options.stuckWaitMs, what);
  if (options.stuckWaits == StuckWaitMode::Log) {
    CT_ERROR("%s (options.stuckWaitMs; \"stuckWaits\": \"lose\" ends it as a GPU hang)", text);
    return semaphore.WaitOnQueue(value);
  }
  CT_ERROR("%s: the device is lost as by a GPU hang (options.stuckWaits)", text);
  PlannedFault planned;
  planned.id = "stuck-wait";
  planned.effect = FaultEffect::Hang;  // from Inject: the watchdog fires at once (WATCHDOG_TIMEOUT)
  planned.report.description = text;
  queue.device().faults().Inject(planned, ("at the semaphore waits of submission " + std::to_string(serial)).c_str());
  return false;
}

}  // namespace crashtest
