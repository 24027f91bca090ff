#include "fault/plan_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <initializer_list>
#include <set>
#include <string_view>

#include "profile/closest_name.h"

namespace crashtest {
namespace {

std::string Quoted(std::string_view s) { return '"' + std::string(s) + '"'; }

std::string Choices(std::initializer_list<std::string_view> names) {
  std::string s;
  for (std::string_view n : names) s += (s.empty() ? "" : ", ") + Quoted(n);
  return s;
}

// "unknown member" with the closest known name, like the profile reader's messages.
void UnknownMember(const ReadContext& ctx, const std::string& path, std::string_view key,
                   std::initializer_list<std::string_view> known) {
  std::string_view closest = ClosestName(key, [&](const auto& visit) {
    for (std::string_view n : known) visit(n);
  });
  std::string text = "unknown member (expected " + Choices(known) + ")";
  if (!closest.empty() && EditDistance(key, closest) <= 3) text += " (did you mean " + Quoted(closest) + "?)";
  ctx.Error(JoinPath(path, key), text);
}

class FaultReader {
 public:
  FaultReader(const ReadContext& ctx, std::size_t deviceCount, const std::vector<DeviceQueueCounts>* queues)
      : ctx_(ctx), deviceCount_(deviceCount), queues_(queues) {}

  bool Read(const Json& faults, FaultPlan& out) {
    if (!faults.is_array()) {
      ctx_.Error("faults", "expected an array of faults, got " + DescribeJson(faults));
      return false;
    }
    bool ok = true;
    std::set<std::string> ids;
    for (std::size_t i = 0; i < faults.size(); ++i) {
      PlannedFault fault;
      const std::string path = IndexPath("faults", i);
      ok_ = true;
      ReadFault(path, faults[i], fault);
      if (ok_ && !ids.insert(fault.id).second) {
        Error(JoinPath(path, "id"), "duplicate fault id " + Quoted(fault.id) + " (ids name faults in reports)");
      }
      if (ok_) out.faults.push_back(std::move(fault));
      ok &= ok_;
    }
    return ok;
  }

 private:
  void Error(const std::string& path, std::string text) {
    ctx_.Error(path, std::move(text));
    ok_ = false;
  }

  // An integer in [minimum, maximum]; `note` says what bounds it. Every number of the plan goes through here or
  // Address, so nothing out of range reaches the engine (a count truncated to 32 bits, a deadline that overflows).
  bool Unsigned(const std::string& path, const Json& value, uint64_t minimum, uint64_t& out,
                uint64_t maximum = UINT64_MAX, const char* note = nullptr) {
    if (value.is_number_unsigned() || (value.is_number_integer() && value.get<int64_t>() >= 0)) {
      out = value.get<uint64_t>();
      if (out >= minimum && out <= maximum) return true;
    }
    if (maximum == UINT64_MAX)
      Error(path, "expected an integer of at least " + std::to_string(minimum) + ", got " + DescribeJson(value));
    else
      Error(path, "expected an integer from " + std::to_string(minimum) + " to " + std::to_string(maximum) +
                      (note != nullptr ? std::string(" (") + note + ")" : std::string()) + ", got " +
                      DescribeJson(value));
    return false;
  }

  bool String(const std::string& path, const Json& value, std::string& out, bool nonEmpty = false) {
    if (value.is_string() && (!nonEmpty || !value.get<std::string>().empty())) {
      out = value.get<std::string>();
      return true;
    }
    Error(path, std::string(nonEmpty ? "expected a non-empty string" : "expected a string") + ", got " +
                    DescribeJson(value));
    return false;
  }

  bool Bool(const std::string& path, const Json& value, bool& out) {
    if (value.is_boolean()) {
      out = value.get<bool>();
      return true;
    }
    Error(path, "expected true or false, got " + DescribeJson(value));
    return false;
  }

  // A description must fit VkDeviceFaultInfoKHR::description / VkDeviceFaultVendorInfoKHR::description (char[256]
  // with the NUL): a silently truncated message would differ from what the plan says.
  bool Description(const std::string& path, const Json& value, std::string& out) {
    if (!String(path, value, out)) return false;
    if (out.size() >= VK_MAX_DESCRIPTION_SIZE) {
      Error(path, "expected at most " + std::to_string(VK_MAX_DESCRIPTION_SIZE - 1) + " bytes (VK_MAX_DESCRIPTION_SIZE "
                  "with the terminating NUL), got " + std::to_string(out.size()));
      return false;
    }
    return true;
  }

  // A 64-bit value as an integer or a string "0x7f00" / "1234" (JSON numbers lose precision above 2^53 in many
  // tools, and addresses read better in hex).
  bool Address(const std::string& path, const Json& value, uint64_t& out) {
    if (value.is_number_unsigned() || (value.is_number_integer() && value.get<int64_t>() >= 0)) {
      out = value.get<uint64_t>();
      return true;
    }
    if (value.is_string()) {
      const std::string text = value.get<std::string>();
      const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
      const std::string digits = hex ? text.substr(2) : text;
      const char* allowed = hex ? "0123456789abcdefABCDEF" : "0123456789";
      if (!digits.empty() && digits.size() <= (hex ? 16u : 20u) &&
          digits.find_first_not_of(allowed) == std::string::npos) {
        errno = 0;
        out = std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10);
        if (errno == 0) return true;
      }
    }
    Error(path, "expected a 64-bit address as an integer or a string such as \"0x7f00\", got " + DescribeJson(value));
    return false;
  }

  void ReadFault(const std::string& path, const Json& entry, PlannedFault& fault) {
    if (!entry.is_object()) {
      Error(path, "expected a fault object {\"id\": ..., \"when\": {...}, \"effect\": ..., \"report\": {...}}, got " +
                      DescribeJson(entry));
      return;
    }
    bool sawId = false, sawWhen = false, sawEffect = false;
    const Json* watchdog = nullptr;
    for (auto it = entry.begin(); it != entry.end(); ++it) {
      const std::string member = JoinPath(path, it.key());
      if (it.key() == "id") {
        sawId = true;
        String(member, *it, fault.id, /*nonEmpty=*/true);
      } else if (it.key() == "device") {
        // With no devices loaded (their own errors are reported) any index is left unchecked.
        if (it->is_number_integer() && it->get<int64_t>() >= 0 && it->get<uint64_t>() <= UINT32_MAX &&
            (deviceCount_ == 0 || static_cast<uint64_t>(it->get<int64_t>()) < deviceCount_)) {
          fault.device = static_cast<uint32_t>(it->get<uint64_t>());
        } else {
          Error(member, "expected the index of a configured device (0 to " + std::to_string(deviceCount_ - 1) +
                            "), got " + DescribeJson(*it));
        }
      } else if (it.key() == "when") {
        sawWhen = true;
        ReadTrigger(member, *it, fault.when);
      } else if (it.key() == "effect") {
        sawEffect = true;
        ReadEffect(member, *it, fault.effect);
      } else if (it.key() == "repeat") {
        Bool(member, *it, fault.repeat);
      } else if (it.key() == "watchdogMs") {
        watchdog = &*it;
        uint64_t ms = 0;
        if (Unsigned(member, *it, 1, ms)) {
          if (ms > 3600000) Error(member, "expected at most 3600000 (one hour), got " + DescribeJson(*it));
          fault.watchdogMs = static_cast<uint32_t>(std::min<uint64_t>(ms, 3600000));
        }
      } else if (it.key() == "report") {
        ReadReport(member, *it, fault.report);
      } else {
        UnknownMember(ctx_, path, it.key(), {"id", "device", "when", "effect", "repeat", "watchdogMs", "report"});
        ok_ = false;
      }
    }
    if (!sawId) Error(path, "missing \"id\" (a name for the fault, used in reports and logs)");
    if (!sawWhen) Error(path, "missing \"when\" (the trigger, e.g. {\"submit\": 3})");
    if (!sawEffect) Error(path, "missing \"effect\" (" + EffectChoices() + ")");
    if (!ok_) return;
    CheckCombination(path, fault, watchdog != nullptr);
    CheckQueue(JoinPath(JoinPath(path, "when"), "queue"), fault);
  }

  // A selector of a queue the device lacks would count nothing, and the fault would silently never fire. A fault
  // for every device (no "device") needs the queue on one of them at least.
  void CheckQueue(const std::string& path, const PlannedFault& fault) {
    if (!fault.when.queue || queues_ == nullptr || queues_->empty()) return;
    const FaultQueueSelector& q = *fault.when.queue;
    const auto has = [&](const DeviceQueueCounts& families) {
      return q.family < families.size() && q.index < families[q.family];
    };
    if (!fault.device) {
      if (std::any_of(queues_->begin(), queues_->end(), has)) return;
      Error(path, std::string(queues_->size() == 1 ? "the device has no" : "no configured device has") + " queue " +
                      std::to_string(q.index) + " in queue family " + std::to_string(q.family) +
                      ": the fault would never fire");
      return;
    }
    if (*fault.device >= queues_->size()) return;
    const DeviceQueueCounts& families = (*queues_)[*fault.device];
    const std::string device = "device " + std::to_string(*fault.device);
    if (q.family >= families.size()) {
      Error(JoinPath(path, "family"), device + " has " + std::to_string(families.size()) + " queue famil" +
                                          (families.size() == 1 ? "y" : "ies") + ", so there is no family " +
                                          std::to_string(q.family) + ": the fault would never fire");
    } else if (!has(families)) {
      Error(JoinPath(path, "index"), "queue family " + std::to_string(q.family) + " of " + device + " has " +
                                         std::to_string(families[q.family]) + " queue" +
                                         (families[q.family] == 1 ? "" : "s") + ", so there is no queue " +
                                         std::to_string(q.index) + ": the fault would never fire");
    }
  }

  static std::string EffectChoices() {
    return Choices({"device-lost", "masked", "out-of-device-memory", "out-of-host-memory", "hang", "surface-lost",
                    "out-of-date"});
  }

  void ReadEffect(const std::string& path, const Json& value, FaultEffect& out) {
    static constexpr std::pair<std::string_view, FaultEffect> kEffects[] = {
        {"device-lost", FaultEffect::DeviceLost},
        {"masked", FaultEffect::Masked},
        {"out-of-device-memory", FaultEffect::OutOfDeviceMemory},
        {"out-of-host-memory", FaultEffect::OutOfHostMemory},
        {"hang", FaultEffect::Hang},
        {"surface-lost", FaultEffect::SurfaceLost},
        {"out-of-date", FaultEffect::OutOfDate},
    };
    if (value.is_string()) {
      const std::string name = value.get<std::string>();
      for (const auto& [n, e] : kEffects)
        if (name == n) {
          out = e;
          return;
        }
      std::string_view closest = ClosestName(name, [&](const auto& visit) {
        for (const auto& [n, e] : kEffects) visit(n);
      });
      Error(path, "unknown effect " + Quoted(name) + " (expected one of " + EffectChoices() + "; did you mean " +
                      Quoted(closest) + "?)");
      return;
    }
    Error(path, "expected one of " + EffectChoices() + ", got " + DescribeJson(value));
  }

  void ReadTrigger(const std::string& path, const Json& when, FaultTrigger& out) {
    const std::initializer_list<std::string_view> kKinds = {"submit", "dispatch", "draw", "label", "allocation",
                                                             "allocationAbove", "afterMs", "random", "present",
                                                             "acquire"};
    if (!when.is_object()) {
      Error(path, "expected a trigger object with one of " + Choices(kKinds) + ", got " + DescribeJson(when));
      return;
    }
    int kinds = 0;
    const Json* queue = nullptr;
    const Json* seed = nullptr;
    const Json* pipeline = nullptr;
    const Json* shaderHash = nullptr;
    for (auto it = when.begin(); it != when.end(); ++it) {
      const std::string member = JoinPath(path, it.key());
      const std::string& key = it.key();
      if (key == "submit") {
        ++kinds;
        out.kind = FaultTriggerKind::Submit;
        Unsigned(member, *it, 1, out.count);
      } else if (key == "label") {
        ++kinds;
        out.kind = FaultTriggerKind::Label;
        String(member, *it, out.name, /*nonEmpty=*/true);
      } else if (key == "allocation") {
        ++kinds;
        out.kind = FaultTriggerKind::Allocation;
        Unsigned(member, *it, 1, out.count);
      } else if (key == "present" || key == "acquire") {
        ++kinds;
        out.kind = key == "present" ? FaultTriggerKind::Present : FaultTriggerKind::Acquire;
        Unsigned(member, *it, 1, out.count);
      } else if (key == "allocationAbove") {
        ++kinds;
        out.kind = FaultTriggerKind::AllocationSize;
        Unsigned(member, *it, 0, out.bytes);
      } else if (key == "afterMs") {
        ++kinds;
        out.kind = FaultTriggerKind::Time;
        Unsigned(member, *it, 0, out.milliseconds, kMaxAfterMilliseconds, "milliseconds: at most 365 days");
      } else if (key == "random") {
        ++kinds;
        out.kind = FaultTriggerKind::Random;
        if (it->is_number() && it->get<double>() > 0.0 && it->get<double>() <= 1.0) {
          out.probability = it->get<double>();
        } else {
          Error(member, "expected a probability per submit greater than 0 and at most 1, got " + DescribeJson(*it));
        }
      } else if (key == "queue") {
        queue = &*it;
        ReadQueue(member, *it, out);
      } else if (key == "seed") {
        seed = &*it;
        Unsigned(member, *it, 0, out.seed);
      } else if (key == "dispatch" || key == "draw") {
        ++kinds;
        out.kind = key == "dispatch" ? FaultTriggerKind::Dispatch : FaultTriggerKind::Draw;
        Unsigned(member, *it, 1, out.count);
      } else if (key == "pipeline") {
        pipeline = &*it;
        String(member, *it, out.pipelineName, /*nonEmpty=*/true);
      } else if (key == "shaderHash") {
        shaderHash = &*it;
        uint64_t hash = 0;
        if (Address(member, *it, hash)) out.shaderHash = hash;
      } else {
        UnknownMember(ctx_, path, key, {"submit", "dispatch", "draw", "queue", "pipeline", "shaderHash", "label",
                                        "allocation", "allocationAbove", "afterMs", "random", "seed", "present",
                                        "acquire"});
        ok_ = false;
      }
    }
    if (kinds == 0) {
      Error(path, "expected exactly one trigger: " + Choices(kKinds));
      return;
    }
    if (kinds > 1) {
      Error(path, "expected exactly one trigger, got " + std::to_string(kinds) + " (a fault has one trigger; write "
                  "several faults for several triggers)");
      return;
    }
    const bool work = out.kind == FaultTriggerKind::Dispatch || out.kind == FaultTriggerKind::Draw;
    if (queue != nullptr && out.kind != FaultTriggerKind::Submit && !work)
      Error(JoinPath(path, "queue"), "\"queue\" applies to the \"submit\", \"dispatch\" and \"draw\" triggers only");
    if (pipeline != nullptr && !work)
      Error(JoinPath(path, "pipeline"), "\"pipeline\" applies to the \"dispatch\" and \"draw\" triggers only");
    if (shaderHash != nullptr && !work)
      Error(JoinPath(path, "shaderHash"), "\"shaderHash\" applies to the \"dispatch\" and \"draw\" triggers only");
    if (seed != nullptr && out.kind != FaultTriggerKind::Random)
      Error(JoinPath(path, "seed"), "\"seed\" applies to the \"random\" trigger only");
  }

  void ReadQueue(const std::string& path, const Json& value, FaultTrigger& out) {
    if (!value.is_object()) {
      Error(path, "expected {\"family\": F, \"index\": I}, got " + DescribeJson(value));
      return;
    }
    FaultQueueSelector selector;
    for (auto it = value.begin(); it != value.end(); ++it) {
      uint64_t n = 0;
      // Queue family and queue indices are 32-bit in Vulkan: a larger value would wrap to another queue.
      if (it.key() == "family") {
        if (Unsigned(JoinPath(path, it.key()), *it, 0, n, UINT32_MAX)) selector.family = static_cast<uint32_t>(n);
      } else if (it.key() == "index") {
        if (Unsigned(JoinPath(path, it.key()), *it, 0, n, UINT32_MAX)) selector.index = static_cast<uint32_t>(n);
      } else {
        UnknownMember(ctx_, path, it.key(), {"family", "index"});
        ok_ = false;
      }
    }
    out.queue = selector;
  }

  void ReadAddress(const std::string& path, const Json& value, FaultAddress& out) {
    static constexpr VkDeviceFaultAddressTypeKHR kTypes[] = {
        VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR,
        VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_KHR,
        VK_DEVICE_FAULT_ADDRESS_TYPE_EXECUTE_INVALID_KHR,
        VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_UNKNOWN_KHR,
        VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_INVALID_KHR,
        VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_KHR,
    };
    if (!value.is_object()) {
      Error(path, "expected {\"type\": ..., \"address\": ..., \"precision\": ...}, got " + DescribeJson(value));
      return;
    }
    bool sawType = false;
    for (auto it = value.begin(); it != value.end(); ++it) {
      const std::string member = JoinPath(path, it.key());
      if (it.key() == "type") {
        sawType = true;
        std::string name;
        if (!String(member, *it, name)) continue;
        bool found = false;
        for (VkDeviceFaultAddressTypeKHR t : kTypes)
          if (name == FaultAddressTypeName(t)) {
            out.type = t;
            found = true;
          }
        if (!found) {
          std::string names;
          for (VkDeviceFaultAddressTypeKHR t : kTypes) names += (names.empty() ? "" : ", ") + Quoted(FaultAddressTypeName(t));
          Error(member, "unknown address type " + Quoted(name) + " (expected one of " + names + ")");
        }
      } else if (it.key() == "address") {
        Address(member, *it, out.address);
      } else if (it.key() == "precision") {
        uint64_t precision = 0;
        // "addressPrecision ... must be a power of two": the range is [address & ~(p-1), address | (p-1)].
        if (Unsigned(member, *it, 1, precision)) {
          if ((precision & (precision - 1)) != 0)
            Error(member, "expected a power of two (the reported range is [address & ~(precision-1), address | "
                          "(precision-1)]), got " + DescribeJson(*it));
          out.precision = precision;
        }
      } else {
        UnknownMember(ctx_, path, it.key(), {"type", "address", "precision"});
        ok_ = false;
      }
    }
    if (!sawType) Error(path, "missing \"type\" (e.g. \"read-invalid\")");
  }

  void ReadVendor(const std::string& path, const Json& value, std::vector<FaultVendorEntry>& out) {
    if (!value.is_array()) {
      Error(path, "expected an array of {\"description\": ..., \"code\": ..., \"data\": ...}, got " +
                      DescribeJson(value));
      return;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string entryPath = IndexPath(path, i);
      const Json& entry = value[i];
      if (!entry.is_object()) {
        Error(entryPath, "expected {\"description\": ..., \"code\": ..., \"data\": ...}, got " + DescribeJson(entry));
        continue;
      }
      FaultVendorEntry vendor;
      for (auto it = entry.begin(); it != entry.end(); ++it) {
        const std::string member = JoinPath(entryPath, it.key());
        if (it.key() == "description") {
          Description(member, *it, vendor.description);
        } else if (it.key() == "code") {
          Address(member, *it, vendor.code);
        } else if (it.key() == "data") {
          Address(member, *it, vendor.data);
        } else {
          UnknownMember(ctx_, entryPath, it.key(), {"description", "code", "data"});
          ok_ = false;
        }
      }
      out.push_back(std::move(vendor));
    }
  }

  void ReadReport(const std::string& path, const Json& value, FaultReportContent& out) {
    if (!value.is_object()) {
      Error(path, "expected a report object {\"description\": ..., \"address\": {...}, \"vendor\": [...]}, got " +
                      DescribeJson(value));
      return;
    }
    for (auto it = value.begin(); it != value.end(); ++it) {
      const std::string member = JoinPath(path, it.key());
      if (it.key() == "description") {
        Description(member, *it, out.description);
      } else if (it.key() == "address") {
        ReadAddress(member, *it, out.address.emplace());
      } else if (it.key() == "instruction") {
        ReadAddress(member, *it, out.instruction.emplace());
      } else if (it.key() == "vendor") {
        ReadVendor(member, *it, out.vendor);
      } else if (it.key() == "binary") {
        Bool(member, *it, out.binary);
      } else {
        UnknownMember(ctx_, path, it.key(), {"description", "address", "instruction", "vendor", "binary"});
        ok_ = false;
      }
    }
  }

  // Triggers and effects that cannot go together: an out-of-memory result needs a call that can return it, a
  // hang needs a queue.
  void CheckCombination(const std::string& path, const PlannedFault& fault, bool sawWatchdog) {
    const FaultTriggerKind kind = fault.when.kind;
    const bool submitLike = kind == FaultTriggerKind::Submit || kind == FaultTriggerKind::Random;
    const bool allocationLike = kind == FaultTriggerKind::Allocation || kind == FaultTriggerKind::AllocationSize;
    const bool work = kind == FaultTriggerKind::Dispatch || kind == FaultTriggerKind::Draw;
    const bool presentLike = kind == FaultTriggerKind::Present || kind == FaultTriggerKind::Acquire;
    const std::string effectPath = JoinPath(path, "effect");
    switch (fault.effect) {
      case FaultEffect::OutOfDeviceMemory:
      case FaultEffect::OutOfHostMemory:
        if (!submitLike && !allocationLike && !presentLike)
          Error(effectPath, Quoted(FaultEffectName(fault.effect)) + " is returned by the triggering call, so it needs "
                            "a \"submit\", \"random\", \"allocation\" or \"allocationAbove\" trigger, not " +
                            Quoted(FaultTriggerName(kind)) +
                            (work ? " (work on the queue fails by losing the device, not with an error code)" : ""));
        break;
      case FaultEffect::Hang:
        if (!submitLike && !work)
          Error(effectPath, "\"hang\" stops a queue, so it needs a \"submit\", \"random\", \"dispatch\" or "
                            "\"draw\" trigger, not " + Quoted(FaultTriggerName(kind)));
        break;
      case FaultEffect::SurfaceLost:
      case FaultEffect::OutOfDate:
        if (!presentLike)
          Error(effectPath, Quoted(FaultEffectName(fault.effect)) + " is a swapchain's result, so it needs a "
                            "\"present\" or \"acquire\" trigger, not " + Quoted(FaultTriggerName(kind)));
        break;
      case FaultEffect::DeviceLost:
      case FaultEffect::Masked:
        break;
    }
    if (sawWatchdog && fault.effect != FaultEffect::Hang)
      Error(JoinPath(path, "watchdogMs"), "\"watchdogMs\" applies to the \"hang\" effect only");
    if (fault.repeat && kind == FaultTriggerKind::Time)
      Error(JoinPath(path, "repeat"), "an \"afterMs\" trigger fires once; \"repeat\" does not apply");
  }

  const ReadContext& ctx_;
  std::size_t deviceCount_;
  const std::vector<DeviceQueueCounts>* queues_;
  bool ok_ = true;
};

}  // namespace

bool ReadFaultPlan(const ReadContext& ctx, const Json& faults, std::size_t deviceCount, FaultPlan& out,
                   const std::vector<DeviceQueueCounts>* queues) {
  return FaultReader(ctx, deviceCount, queues).Read(faults, out);
}

bool ReadInjectedFault(const ReadContext& ctx, const Json& fault, PlannedFault& out, bool* hasTrigger,
                       const DeviceQueueCounts* queues) {
  *hasTrigger = !fault.is_object() || fault.contains("when");
  Json entry = fault;
  if (entry.is_object()) {
    if (entry.contains("device")) {
      ctx.Error("fault.device", "not allowed here: the fault applies to the device the call names");
      return false;
    }
    // Without a trigger the fault fires at once; read it as if its trigger were the next submit, so the same
    // effect/trigger rules apply.
    if (!*hasTrigger) entry["when"] = Json{{"submit", 1}};
  }
  FaultPlan plan;
  Diagnostics local;
  ReadContext inner{ctx.file, ctx.strict, &local};
  std::vector<DeviceQueueCounts> device;
  if (queues != nullptr) device.push_back(*queues);
  const bool ok = FaultReader(inner, 1, queues != nullptr ? &device : nullptr).Read(Json::array({entry}), plan);
  // Messages name "fault.…" rather than "faults[0].…": there is one fault and no array.
  for (Diagnostic d : local.Items()) {
    if (d.path.rfind("faults[0]", 0) == 0) d.path = "fault" + d.path.substr(9);
    ctx.diagnostics->Add(std::move(d));
  }
  if (!ok || plan.faults.empty()) return false;
  out = std::move(plan.faults.front());
  return true;
}

}  // namespace crashtest
