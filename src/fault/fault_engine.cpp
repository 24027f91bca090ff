#include "fault/fault_engine.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "common/log.h"
#include "common/run_record.h"
#include "fault/dump/dump_file.h"
#include "fault/vendor_binary.h"
#include "profile/dump_options.h"

namespace crashtest {

namespace {

// An "afterMs" delay as a steady_clock duration. The plan reader bounds it (kMaxAfterMilliseconds); the clamp keeps
// a fault built another way from overflowing the nanosecond arithmetic.
std::chrono::milliseconds AfterMs(const FaultTrigger& when) {
  return std::chrono::milliseconds(static_cast<int64_t>(std::min(when.milliseconds, kMaxAfterMilliseconds)));
}

}  // namespace

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

FaultEngine::FaultEngine() : FaultEngine(Setup{}) {}

FaultEngine::FaultEngine(Setup setup)
    : features_(setup.features),
      identity_(std::move(setup.identity)),
      onLost_(std::move(setup.onLost)),
      describe_(std::move(setup.describe)),
      dumpDirectory_(std::move(setup.dumpDirectory)),
      dumpSizeLimit_(setup.dumpSizeLimit != 0 ? setup.dumpSizeLimit : kDefaultDumpSizeLimit),
      deviceIndex_(setup.deviceIndex),
      reports_(setup.capacity),
      created_(std::chrono::steady_clock::now()) {
  uint32_t attention = 0;
  for (PlannedFault& fault : setup.faults) {
    Armed armed;
    armed.rng = fault.when.seed;
    attention |= AttentionFor(fault.when);
    armed.fault = std::move(fault);
    armed_.push_back(std::move(armed));
  }
  attention_.store(attention, std::memory_order_relaxed);
}

FaultEngine::~FaultEngine() { Shutdown(); }

uint32_t FaultEngine::AttentionFor(const FaultTrigger& when) {
  switch (when.kind) {
    case FaultTriggerKind::Submit:
    case FaultTriggerKind::Random: return kSubmit;
    case FaultTriggerKind::Allocation:
    case FaultTriggerKind::AllocationSize: return kAllocate;
    // A label region opens on a queue (vkQueueBeginDebugUtilsLabelEXT) or inside a command buffer.
    case FaultTriggerKind::Label: return kLabel | kCommand;
    case FaultTriggerKind::Dispatch:
    case FaultTriggerKind::Draw:
      return kCommand | (!when.pipelineName.empty() || when.shaderHash ? kIdentity : 0);
    case FaultTriggerKind::Time: return 0;
    case FaultTriggerKind::Present:
    case FaultTriggerKind::Acquire: return kPresent;
  }
  return 0;
}

void FaultEngine::Arm(PlannedFault fault) {
  std::lock_guard lock(mutex_);
  const uint32_t attention = AttentionFor(fault.when);
  Armed armed;
  armed.rng = fault.when.seed;
  armed.fault = std::move(fault);
  armed_.push_back(std::move(armed));
  if (armed_.back().fault.when.kind == FaultTriggerKind::Time) {
    deadlines_.push_back({std::chrono::steady_clock::now() +
                              AfterMs(armed_.back().fault.when),
                          armed_.size() - 1, false});
    EnsureTimer();
    timerWake_.notify_all();
  }
  attention_.fetch_or(attention, std::memory_order_relaxed);
}

void FaultEngine::Start() {
  std::lock_guard lock(mutex_);
  if (started_) return;
  started_ = true;
  created_ = std::chrono::steady_clock::now();
  for (size_t i = 0; i < armed_.size(); ++i) {
    if (armed_[i].fault.when.kind != FaultTriggerKind::Time) continue;
    deadlines_.push_back({created_ + AfterMs(armed_[i].fault.when), i, false});
    EnsureTimer();
  }
  timerWake_.notify_all();
}

void FaultEngine::Shutdown() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  timerWake_.notify_all();
  if (timer_.joinable()) timer_.join();
}

void FaultEngine::EnsureTimer() {
  if (timer_.joinable() || stopping_) return;
  timer_ = std::thread([this] { TimerLoop(); });
}

void FaultEngine::TimerLoop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (stopping_) return;
    if (deadlines_.empty()) {
      timerWake_.wait(lock);
      continue;
    }
    auto next = std::min_element(deadlines_.begin(), deadlines_.end(),
                                 [](const Deadline& a, const Deadline& b) { return a.at < b.at; });
    if (std::chrono::steady_clock::now() < next->at) {
      timerWake_.wait_until(lock, next->at);
      continue;
    }
    Deadline due = *next;
    deadlines_.erase(next);
    Armed& armed = armed_[due.armedIndex];
    if (due.watchdog) {
      // The hung queue made no progress for watchdogMs: the driver's watchdog resets the "GPU" and the device is
      // lost with VK_DEVICE_FAULT_FLAG_WATCHDOG_TIMEOUT_BIT_KHR.
      if (lost()) continue;
      char context[96];
      std::snprintf(context, sizeof(context), "watchdog timeout after %u ms", armed.fault.watchdogMs);
      CT_WARN("fault '%s': %s: device lost", armed.fault.id.c_str(), context);
      RecordLoss(armed.fault, BuildReports(armed.fault, context, /*deviceLost=*/true, /*watchdog=*/true));
    } else {
      if (armed.done) continue;
      armed.done = true;
      char context[64];
      std::snprintf(context, sizeof(context), "%" PRIu64 " ms after device creation", armed.fault.when.milliseconds);
      bool lostNow = false;
      Apply(armed.fault, context, &lostNow);
    }
  }
}

bool FaultEngine::Matches(Armed& armed) {
  if (armed.done) return false;
  const FaultTrigger& when = armed.fault.when;
  if (when.kind == FaultTriggerKind::Random) {
    // 53 random bits → [0, 1): one draw per submit whether or not it fires, so the sequence depends only on the
    // seed and the number of submits.
    ++armed.matches;
    const double u = static_cast<double>(SplitMix64(armed.rng) >> 11) * 0x1.0p-53;
    if (u >= when.probability) return false;
  } else if (when.kind == FaultTriggerKind::Submit || when.kind == FaultTriggerKind::Allocation ||
             when.kind == FaultTriggerKind::Dispatch || when.kind == FaultTriggerKind::Draw) {
    ++armed.matches;
    if (armed.fault.repeat ? armed.matches % when.count != 0 : armed.matches != when.count) return false;
  }
  if (!armed.fault.repeat) armed.done = true;
  return true;
}

VkResult FaultEngine::OnSubmit(uint32_t family, uint32_t index, uint32_t* hangFault) {
  *hangFault = 0;
  if (lost()) return VK_ERROR_DEVICE_LOST;
  VkResult result = VK_SUCCESS;
  bool lostNow = false;
  {
    std::lock_guard lock(mutex_);
    if (loss_) return VK_ERROR_DEVICE_LOST;
    for (size_t i = 0; i < armed_.size() && result == VK_SUCCESS && !lostNow; ++i) {
      Armed& armed = armed_[i];
      const FaultTrigger& when = armed.fault.when;
      if (when.kind != FaultTriggerKind::Submit && when.kind != FaultTriggerKind::Random) continue;
      if (when.queue && (when.queue->family != family || when.queue->index != index)) continue;
      if (!Matches(armed)) continue;
      char context[96];
      std::snprintf(context, sizeof(context), "at %s %" PRIu64 " on queue %u of family %u",
                    when.kind == FaultTriggerKind::Random ? "random submit" : "submit", armed.matches, index,
                    family);
      if (armed.fault.effect == FaultEffect::Hang) {
        fired_.fetch_add(1, std::memory_order_relaxed);
        RecordRunEvent("fault-fired", armed.fault.id);
        CT_WARN("fault '%s' fired %s: the queue hangs; the watchdog loses the device after %u ms",
                armed.fault.id.c_str(), context, armed.fault.watchdogMs);
        if (*hangFault == 0) *hangFault = static_cast<uint32_t>(i + 1);
        continue;
      }
      result = Apply(armed.fault, context, &lostNow);
    }
  }
  return result;
}

VkResult FaultEngine::OnAllocate(VkDeviceSize size) {
  VkResult result = VK_SUCCESS;
  bool lostNow = false;
  {
    std::lock_guard lock(mutex_);
    for (Armed& armed : armed_) {
      if (result != VK_SUCCESS || lostNow || loss_) break;
      const FaultTrigger& when = armed.fault.when;
      if (when.kind == FaultTriggerKind::AllocationSize) {
        if (armed.done || size <= when.bytes) continue;
        if (!armed.fault.repeat) armed.done = true;
      } else if (when.kind != FaultTriggerKind::Allocation || !Matches(armed)) {
        continue;
      }
      char context[96];
      std::snprintf(context, sizeof(context), "at allocation %" PRIu64 " of %llu bytes", armed.matches,
                    static_cast<unsigned long long>(size));
      if (when.kind == FaultTriggerKind::AllocationSize)
        std::snprintf(context, sizeof(context), "at an allocation of %llu bytes (more than %llu)",
                      static_cast<unsigned long long>(size), static_cast<unsigned long long>(when.bytes));
      result = Apply(armed.fault, context, &lostNow);
    }
  }
  // vkAllocateMemory cannot return VK_ERROR_DEVICE_LOST: a loss fired here shows at the next call that can.
  return result == VK_ERROR_DEVICE_LOST ? VK_SUCCESS : result;
}

VkResult FaultEngine::OnSwapchain(FaultTriggerKind kind) {
  VkResult result = VK_SUCCESS;
  bool lostNow = false;
  {
    std::lock_guard lock(mutex_);
    for (Armed& armed : armed_) {
      if (result != VK_SUCCESS || lostNow || loss_) break;
      if (armed.fault.when.kind != kind || armed.done) continue;
      ++armed.matches;
      const uint64_t n = armed.fault.when.count;
      if (armed.fault.repeat ? armed.matches % n != 0 : armed.matches != n) continue;
      if (!armed.fault.repeat) armed.done = true;
      char context[64];
      std::snprintf(context, sizeof(context), "at %s %" PRIu64, FaultTriggerName(kind), armed.matches);
      result = Apply(armed.fault, context, &lostNow);
    }
  }
  return result;
}

void FaultEngine::OnLabel(const char* name) {
  if (name == nullptr) return;
  bool lostNow = false;
  {
    std::lock_guard lock(mutex_);
    for (Armed& armed : armed_) {
      if (lostNow || loss_) break;
      if (armed.fault.when.kind != FaultTriggerKind::Label || armed.done || armed.fault.when.name != name) continue;
      if (!armed.fault.repeat) armed.done = true;
      const std::string context = "entering the label region \"" + armed.fault.when.name + "\"";
      Apply(armed.fault, context, &lostNow);
    }
  }
}

void FaultEngine::OnCommand(const CommandEvent& event, std::vector<CommandMatch>* fired) {
  std::lock_guard lock(mutex_);
  if (loss_) return;  // the submission is abandoned anyway
  for (size_t i = 0; i < armed_.size(); ++i) {
    Armed& armed = armed_[i];
    const FaultTrigger& when = armed.fault.when;
    if (when.kind != event.kind || armed.done) continue;
    std::string description;
    if (when.kind == FaultTriggerKind::Label) {
      if (when.name != event.label) continue;
      ++armed.matches;
      if (!armed.fault.repeat) armed.done = true;
      description = "entering the label region \"" + when.name + "\" in a command buffer";
    } else {
      if (when.queue && (when.queue->family != event.family || when.queue->index != event.index)) continue;
      if (!when.pipelineName.empty() && when.pipelineName != event.pipelineName) continue;
      if (when.shaderHash && std::find(event.shaderHashes.begin(), event.shaderHashes.end(), *when.shaderHash) ==
                                 event.shaderHashes.end())
        continue;
      if (!Matches(armed)) continue;
      description = std::string(FaultTriggerName(when.kind)) + " " + std::to_string(armed.matches);
      if (!event.pipelineName.empty()) description += " of pipeline \"" + std::string(event.pipelineName) + "\"";
      if (when.shaderHash) {
        char hash[40];
        std::snprintf(hash, sizeof(hash), " (shader hash 0x%016" PRIx64 ")", *when.shaderHash);
        description += hash;
      }
    }
    fired->push_back({static_cast<uint32_t>(i + 1), std::move(description)});
  }
}

CommandFaultOutcome FaultEngine::FireAtCommand(uint32_t fault, const std::string& context) {
  bool lostNow = false;
  CommandFaultOutcome outcome = CommandFaultOutcome::Continue;
  {
    std::lock_guard lock(mutex_);
    if (fault == 0 || fault > armed_.size() || loss_) return CommandFaultOutcome::Stop;
    const PlannedFault& planned = armed_[fault - 1].fault;
    if (planned.effect == FaultEffect::Hang) {
      fired_.fetch_add(1, std::memory_order_relaxed);
      RecordRunEvent("fault-fired", planned.id);
      CT_WARN("fault '%s' fired %s: the queue hangs; the watchdog loses the device after %u ms", planned.id.c_str(),
              context.c_str(), planned.watchdogMs);
      if (!stopping_) {
        deadlines_.push_back({std::chrono::steady_clock::now() + std::chrono::milliseconds(planned.watchdogMs),
                              fault - 1, true});
        EnsureTimer();
        timerWake_.notify_all();
      }
      return CommandFaultOutcome::Hang;
    }
    Apply(planned, context, &lostNow);
    if (lostNow) outcome = CommandFaultOutcome::Stop;
  }
  return outcome;
}

void FaultEngine::BeginHang(uint32_t hangFault) {
  std::lock_guard lock(mutex_);
  if (hangFault == 0 || hangFault > armed_.size() || stopping_ || loss_) return;
  const size_t index = hangFault - 1;
  deadlines_.push_back(
      {std::chrono::steady_clock::now() + std::chrono::milliseconds(armed_[index].fault.watchdogMs), index, true});
  EnsureTimer();
  timerWake_.notify_all();
}

VkResult FaultEngine::Inject(const PlannedFault& fault, const char* context) {
  VkResult result;
  bool lostNow = false;
  {
    std::lock_guard lock(mutex_);
    if (loss_) return VK_ERROR_DEVICE_LOST;
    result = Apply(fault, context != nullptr ? context : "injected", &lostNow);
  }
  return result;
}

VkResult FaultEngine::Apply(const PlannedFault& fault, const std::string& context, bool* lostNow) {
  fired_.fetch_add(1, std::memory_order_relaxed);
  RecordRunEvent("fault-fired", fault.id);  // for `crashtest run`'s summary
  switch (fault.effect) {
    case FaultEffect::OutOfDeviceMemory:
      CT_WARN("fault '%s' fired %s: VK_ERROR_OUT_OF_DEVICE_MEMORY", fault.id.c_str(), context.c_str());
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    case FaultEffect::OutOfHostMemory:
      CT_WARN("fault '%s' fired %s: VK_ERROR_OUT_OF_HOST_MEMORY", fault.id.c_str(), context.c_str());
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    case FaultEffect::Masked:
      // "deviceFaultDeviceLostOnMasked ... masked faults ... result in VK_ERROR_DEVICE_LOST"; without
      // deviceFaultReportMasked they are not reported at all.
      if (features_.lostOnMasked) break;
      // Info, not warning: masked faults may fire at a high rate and the device lives.
      CT_INFO("fault '%s' fired %s: masked fault%s", fault.id.c_str(), context.c_str(),
              features_.reportMasked ? " reported" : " (not reported: deviceFaultReportMasked is not enabled)");
      if (features_.reportMasked) reports_.Push(BuildReports(fault, context, false, false));
      return VK_SUCCESS;
    case FaultEffect::SurfaceLost:
      CT_WARN("fault '%s' fired %s: VK_ERROR_SURFACE_LOST_KHR", fault.id.c_str(), context.c_str());
      return VK_ERROR_SURFACE_LOST_KHR;
    case FaultEffect::OutOfDate:
      CT_WARN("fault '%s' fired %s: VK_ERROR_OUT_OF_DATE_KHR", fault.id.c_str(), context.c_str());
      return VK_ERROR_OUT_OF_DATE_KHR;
    case FaultEffect::Hang:  // a hang from the runtime API or a timed trigger: the watchdog fires at once
    case FaultEffect::DeviceLost:
      break;
  }
  CT_WARN("fault '%s' fired %s: device lost", fault.id.c_str(), context.c_str());
  RecordLoss(fault, BuildReports(fault, context, /*deviceLost=*/true, fault.effect == FaultEffect::Hang));
  *lostNow = true;
  return VK_ERROR_DEVICE_LOST;
}

std::vector<FaultReport> FaultEngine::BuildReports(const PlannedFault& fault, const std::string& context,
                                                   bool deviceLost, bool watchdog) {
  const FaultReportContent& content = fault.report;
  const size_t count = std::max<size_t>(1, content.vendor.size());
  std::vector<FaultReport> reports(count);
  const uint64_t group = reports_.NextGroupId();
  std::string description = content.description;
  if (description.empty()) {
    description = "crashtest fault \"" + fault.id + "\" (" + FaultEffectName(fault.effect) + ") " + context;
  }
  for (size_t i = 0; i < count; ++i) {
    FaultReport& r = reports[i];
    r.groupId = group;  // "groupId ... the same for all fault reports of one error"
    r.SetDescription(description.c_str());
    if (watchdog) r.flags |= VK_DEVICE_FAULT_FLAG_WATCHDOG_TIMEOUT_BIT_KHR;
    if (i == 0 && content.address) {
      r.flags |= VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR;
      r.faultAddressInfo = {content.address->type, content.address->address, content.address->precision};
    }
    if (i == 0 && content.instruction) {
      r.flags |= VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR;
      r.instructionAddressInfo = {content.instruction->type, content.instruction->address,
                                  content.instruction->precision};
    }
    if (i < content.vendor.size()) {
      const FaultVendorEntry& v = content.vendor[i];
      r.flags |= VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR;
      std::snprintf(r.vendorInfo.description, sizeof(r.vendorInfo.description), "%s", v.description.c_str());
      r.vendorInfo.vendorFaultCode = v.code;
      r.vendorInfo.vendorFaultData = v.data;
    }
  }
  // "DEVICE_LOST ... no further fault reports will be generated": the last entry of the losing group.
  if (deviceLost) reports.back().flags |= VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR;
  return reports;
}

void FaultEngine::RecordLoss(const PlannedFault& fault, std::vector<FaultReport> reports) {
  if (loss_) return;
  auto snapshot = std::make_unique<LossSnapshot>();
  snapshot->faultIds.assign(reports.size(), fault.id);
  if (fault.report.binary) {
    // A dump that cannot be described or written never changes what the application sees: the binary keeps what
    // could be gathered, and the file is only logged.
    dump::Content content;
    try {
      if (describe_) describe_(reports, fault.id, content);
    } catch (const std::exception& e) {
      CT_ERROR("fault '%s': the crash dump lacks some sections: %s", fault.id.c_str(), e.what());
    }
    snapshot->vendorBinary = BuildVendorBinary(identity_, reports, snapshot->faultIds, content, dumpSizeLimit_);
    if (!dumpDirectory_.empty()) dump::WriteDumpFile(dumpDirectory_, deviceIndex_, snapshot->vendorBinary);
  }
  snapshot->reports = reports;
  loss_ = std::move(snapshot);
  // The loss becomes visible everywhere in one critical section of the device's execution lock (queues, waiters,
  // lost(), the reports), so a queue that checks under that lock that the device lives may still touch the
  // application's objects. kLost before the reports: whoever sees a DEVICE_LOST report sees the snapshot.
  auto publish = [&] {
    attention_.fetch_or(kLost, std::memory_order_acq_rel);
    reports_.Push(reports);
  };
  if (onLost_) {
    onLost_(publish);
  } else {
    publish();
  }
}

}  // namespace crashtest
