// The per-device fault engine: counts the plan's triggers at the points the driver reports to it (submits,
// allocations, debug-utils labels, time), applies the effects at the triggering call, and owns the device's
// fault reports (FaultReportQueue) and, once the device is lost, the loss snapshot behind
// vkGetDeviceFaultInfoEXT / vkGetDeviceFaultDebugInfoKHR.
//
// Determinism: triggers are counted per device in call order and the random trigger draws from its own PRNG
// seeded by the plan, so the same plan, seed and call sequence give the same run.
//
// Cost on the hot paths: a device whose plan has no submit trigger and which is not lost pays one relaxed atomic
// load and one predictable branch per vkQueueSubmit (WatchesSubmits()); likewise for allocations and labels.
#pragma once

#include <crashtest/vulkan_compat.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "device/device_description.h"
#include "fault/dump/dump_content.h"
#include "fault/fault_plan.h"
#include "fault/report_queue.h"

namespace crashtest {

// VkPhysicalDeviceFaultFeaturesKHR as the application enabled it (VK_KHR_device_fault), or
// VkPhysicalDeviceFaultFeaturesEXT's deviceFaultVendorBinary.
struct FaultFeatures {
  bool reportMasked = false;  // deviceFaultReportMasked: masked faults are reported
  bool lostOnMasked = false;  // deviceFaultDeviceLostOnMasked: masked faults lose the device
  bool vendorBinary = false;  // deviceFaultVendorBinary: the loss has a vendor binary
};

// What the vendor binary header and names say about the device and the application.
struct FaultIdentity {
  uint32_t vendorID = 0;
  uint32_t deviceID = 0;
  uint32_t driverVersion = 0;
  std::array<uint8_t, VK_UUID_SIZE> pipelineCacheUUID{};
  std::string applicationName;
  std::string engineName;
  uint32_t applicationVersion = 0;
  uint32_t engineVersion = 0;
  uint32_t apiVersion = 0;
};

// Everything about the device loss, fixed when it happens: "later calls must return identical data".
struct LossSnapshot {
  std::vector<FaultReport> reports;      // the reports of the losing fault (the last one carries DEVICE_LOST)
  std::vector<std::string> faultIds;     // parallel to reports: the plan id of each report's fault
  std::vector<std::byte> vendorBinary;   // empty when the fault asked for none
};

// A dispatch, draw or command-buffer label region found in a submitted command buffer (queue/command_fault_scan).
struct CommandEvent {
  FaultTriggerKind kind = FaultTriggerKind::Dispatch;  // Dispatch, Draw or Label
  uint32_t family = 0;                                 // the queue
  uint32_t index = 0;
  std::string_view label;  // Label: the region's name
  // Dispatch, Draw: the bound pipeline's debug-utils name ("" if none) and its executables' "Shader hash"
  // statistics; looked up only when WantsPipelineIdentity().
  std::string_view pipelineName;
  std::span<const uint64_t> shaderHashes;
};

// What the queue does when it reaches a command whose trigger fired.
enum class CommandFaultOutcome {
  Continue,  // masked (or nothing left to do): run the command and the rest
  Stop,      // the device is lost: the rest of the submission is abandoned
  Hang,      // the queue stops here; the watchdog loses the device later
};


class FaultEngine {
 public:
  struct Setup {
    std::vector<PlannedFault> faults;  // the plan's faults for this device
    uint32_t capacity = kDefaultMaxDeviceFaultCount;
    FaultFeatures features;
    FaultIdentity identity;
    // Called once when the device is lost, with the engine's lock held: marks the device's queues and waiters
    // lost and, in the same critical section, calls `publish` (which makes the reports and lost() visible).
    std::function<void(const std::function<void()>& publish)> onLost;
    // Fills the vendor binary's sections beyond the reports (the device, the submission the losing thread was
    // executing, pipelines, resources, names, breadcrumbs); called with the engine's lock held, on the thread that
    // loses the device, and on a queue's thread when a command hangs (what it was executing, for the watchdog's
    // dump). `faultId` is the losing fault's plan id.
    std::function<void(std::span<const FaultReport> reports, const std::string& faultId, dump::Content& content)>
        describe;
    // Where each loss's vendor binary is also written ("": nowhere; CRASHTEST_DUMP_DIR / options.dumpDirectory),
    // the binary's size cap, and the device's index in the file name.
    std::string dumpDirectory;
    uint64_t dumpSizeLimit = 0;  // 0: the default
    uint32_t deviceIndex = 0;
  };

  explicit FaultEngine(Setup setup);
  FaultEngine();  // an empty plan
  ~FaultEngine();
  FaultEngine(const FaultEngine&) = delete;
  FaultEngine& operator=(const FaultEngine&) = delete;

  // Starts the clock of "afterMs" triggers (call once the device is complete).
  void Start();
  // Stops the timer thread; later hooks still count but no timed fault fires. Called before the device's
  // queues are destroyed.
  void Shutdown();

  bool lost() const { return (attention_.load(std::memory_order_acquire) & kLost) != 0; }
  bool WatchesSubmits() const { return (attention_.load(std::memory_order_relaxed) & (kLost | kSubmit)) != 0; }
  bool WatchesAllocations() const { return (attention_.load(std::memory_order_relaxed) & kAllocate) != 0; }
  bool WatchesSwapchains() const { return (attention_.load(std::memory_order_relaxed) & kPresent) != 0; }
  bool WatchesLabels() const { return (attention_.load(std::memory_order_relaxed) & kLabel) != 0; }
  // Some trigger fires at a command a queue executes (dispatch, draw, command-buffer label): submissions are
  // scanned for them.
  bool WatchesCommands() const { return (attention_.load(std::memory_order_relaxed) & kCommand) != 0; }
  // Some dispatch/draw trigger selects by pipeline name or shader hash.
  bool WantsPipelineIdentity() const { return (attention_.load(std::memory_order_relaxed) & kIdentity) != 0; }

  // vkQueueSubmit/2 on queue (family, index), called only when WatchesSubmits(). VK_SUCCESS: submit as usual;
  // *hangFault is then 0 or 1 + the index of a "hang" fault the submission must stop at. Otherwise the result
  // the triggering call returns (VK_ERROR_DEVICE_LOST, VK_ERROR_OUT_OF_*_MEMORY); nothing is submitted.
  VkResult OnSubmit(uint32_t family, uint32_t index, uint32_t* hangFault);
  // vkAllocateMemory of `size` bytes, called only when WatchesAllocations(): VK_SUCCESS or the error to return.
  VkResult OnAllocate(VkDeviceSize size);
  // An image presented (kind Present) or a vkAcquireNextImage*KHR (Acquire), called only when WatchesSwapchains():
  // VK_SUCCESS or the result the call returns (device lost, surface lost, out of date, out of memory).
  VkResult OnSwapchain(FaultTriggerKind kind);
  // vkQueueBeginDebugUtilsLabelEXT, called only when WatchesLabels().
  void OnLabel(const char* name);
  // One dispatch, draw or command-buffer label of a submitted command buffer, counted at vkQueueSubmit in
  // submission order (so runs are deterministic whatever the queues' timing), called only when WatchesCommands().
  // Appends 1 + the index of every fault whose trigger fires at this command to *fired (what the queue then
  // passes to FireAtCommand) with which match it was ("dispatch 3 of pipeline \"Blur\"").
  struct CommandMatch {
    uint32_t fault;
    std::string match;
  };
  void OnCommand(const CommandEvent& event, std::vector<CommandMatch>* fired);
  // A queue reached the command at which fault `fault` (as OnCommand gave it) fires; `context` says where.
  CommandFaultOutcome FireAtCommand(uint32_t fault, const std::string& context);
  // A queue's worker reached the submission of hang fault `hangFault` (as OnSubmit gave it): the queue stops
  // there and the watchdog starts; it loses the device after the fault's watchdogMs.
  void BeginHang(uint32_t hangFault);

  // Fires `fault` now, as if its trigger had matched (the runtime control API). Returns what the triggering
  // call would return.
  VkResult Inject(const PlannedFault& fault, const char* context);

  // Adds a fault to the plan at run time (the runtime control API): its trigger counts from now ("the nth submit
  // from now", "afterMs from now").
  void Arm(PlannedFault fault);

  // How many faults fired so far (every effect counts).
  uint64_t firedCount() const { return fired_.load(std::memory_order_relaxed); }

  FaultReportQueue& reports() { return reports_; }
  const FaultFeatures& features() const { return features_; }
  // The loss snapshot; nullptr while the device is not lost.
  const LossSnapshot* loss() const { return lost() ? loss_.get() : nullptr; }

 private:
  static constexpr uint32_t kLost = 1, kSubmit = 2, kAllocate = 4, kLabel = 8, kCommand = 16, kIdentity = 32, kPresent = 64;
  static uint32_t AttentionFor(const FaultTrigger& when);

  struct Armed {
    PlannedFault fault;
    uint64_t matches = 0;  // trigger matches so far
    bool done = false;     // fired and not repeating
    uint64_t rng = 0;      // splitmix64 state (random trigger)
  };

  // True when this match fires the fault.
  bool Matches(Armed& armed);
  // Applies the effect of a fired fault (lock held). Returns the triggering call's result; *loseAfter is set
  // when the device must be lost once the lock is released.
  VkResult Apply(const PlannedFault& fault, const std::string& context, bool* lostNow);
  std::vector<FaultReport> BuildReports(const PlannedFault& fault, const std::string& context, bool deviceLost,
                                        bool watchdog);
  // Records the loss and makes it visible (lock held).
  void RecordLoss(const PlannedFault& fault, std::vector<FaultReport> reports);
  void TimerLoop();
  void EnsureTimer();  // lock held

  std::atomic<uint32_t> attention_{0};
  std::atomic<uint64_t> fired_{0};
  FaultFeatures features_;
  FaultIdentity identity_;
  std::function<void(const std::function<void()>&)> onLost_;
  std::function<void(std::span<const FaultReport>, const std::string&, dump::Content&)> describe_;
  std::string dumpDirectory_;
  uint64_t dumpSizeLimit_;
  uint32_t deviceIndex_;
  FaultReportQueue reports_;

  std::mutex mutex_;
  std::vector<Armed> armed_;
  std::unique_ptr<LossSnapshot> loss_;  // set once, before kLost is published

  // Timed faults and hang watchdogs.
  struct Deadline {
    std::chrono::steady_clock::time_point at;
    size_t armedIndex;
    bool watchdog;
  };
  std::condition_variable timerWake_;
  std::vector<Deadline> deadlines_;
  std::thread timer_;
  bool stopping_ = false;
  bool started_ = false;
  std::chrono::steady_clock::time_point created_;
};

// splitmix64: the random trigger's generator (fixed, so a seed means the same run everywhere).
uint64_t SplitMix64(uint64_t& state);

}  // namespace crashtest
