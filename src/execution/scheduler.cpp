#include "execution/scheduler.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "execution/interpreter.h"

namespace crashtest::execution {
namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// One participant's memory for one workgroup at a time: every subgroup's registers (constants written once),
// private memory, masks, and the workgroup's memory.
class WorkgroupRunner {
 public:
  explicit WorkgroupRunner(const DispatchContext& context) : c_(context), x_(*context.exe) {
    const uint32_t w = c_.width;
    invocations_ = x_.localSize[0] * x_.localSize[1] * x_.localSize[2];
    const uint32_t count = (invocations_ + w - 1) / w;
    const size_t regWords = static_cast<size_t>(x_.slotCount) * w;
    regs_.resize(regWords * count);
    priv_.resize(static_cast<size_t>(x_.privateWords) * w * count);
    shared_.resize(x_.sharedWords + 2);  // +2: a 64-bit atomic at the last word stays inside
    masks_.resize(static_cast<size_t>(w) * count);
    blockMasks_.resize(x_.blocks.size() * count);
    subgroups_.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
      SubgroupState& s = subgroups_[i];
      s.exe = &x_;
      s.dispatch = &c_;
      s.width = w;
      s.regs = regs_.data() + regWords * i;
      s.priv = priv_.data() + static_cast<size_t>(x_.privateWords) * w * i;
      s.shared = shared_.data();
      s.laneMask = masks_.data() + static_cast<size_t>(w) * i;
      s.blockMask = blockMasks_.data() + x_.blocks.size() * i;
      s.subgroupId = i;
      s.firstLocalIndex = i * w;
      for (size_t slot = 0; slot < x_.constantWords.size(); ++slot)
        std::fill_n(s.regs + slot * w, w, x_.constantWords[slot]);
    }
  }

  // Runs workgroup `index` (linear, x fastest). Returns the first fault of its subgroups (kind None if none).
  ShaderFault Run(uint64_t index, bool* stopped) {
    const uint32_t w = c_.width;
    uint32_t id[3];
    id[0] = c_.base[0] + static_cast<uint32_t>(index % c_.groups[0]);
    id[1] = c_.base[1] + static_cast<uint32_t>((index / c_.groups[0]) % c_.groups[1]);
    id[2] = c_.base[2] + static_cast<uint32_t>(index / (uint64_t{c_.groups[0]} * c_.groups[1]));
    if (x_.sharedWords != 0) std::memset(shared_.data(), 0, shared_.size() * sizeof(uint32_t));
    if (!priv_.empty()) std::memset(priv_.data(), 0, priv_.size() * sizeof(uint32_t));
    for (SubgroupState& s : subgroups_) {
      const uint32_t lanes = std::min(w, invocations_ - s.firstLocalIndex);
      StartSubgroup(s, lanes == 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1);
      std::copy(id, id + 3, s.workgroup);
      WriteBuiltins(s, id);
    }
    *stopped = false;
    ShaderFault first;
    bool pending = true;
    while (pending) {
      pending = false;
      for (SubgroupState& s : subgroups_) {
        if (s.finished) continue;
        const RunResult r = RunSubgroup(s);
        if (s.fault.kind != ShaderFaultKind::None && first.kind == ShaderFaultKind::None) first = s.fault;
        if (r == RunResult::Stopped) {
          *stopped = true;
          return first;
        }
        if (r == RunResult::Yielded) pending = true;
      }
    }
    return first;
  }

 private:
  void WriteBuiltins(SubgroupState& s, const uint32_t id[3]) {
    const uint32_t w = c_.width;
    const uint32_t* size = x_.localSize;
    for (const BuiltinInput& in : x_.builtins) {
      uint32_t* words = s.priv + static_cast<size_t>(in.word) * w;
      for (uint32_t l = 0; l < w; ++l) {
        const uint32_t local = s.firstLocalIndex + l;
        const uint32_t lid[3] = {local % size[0], (local / size[0]) % size[1], local / (size[0] * size[1])};
        uint32_t v[4] = {0, 0, 0, 0};
        switch (in.builtIn) {
          case spv::BuiltInNumWorkgroups: std::copy(c_.groups, c_.groups + 3, v); break;
          case spv::BuiltInWorkgroupSize: std::copy(size, size + 3, v); break;
          case spv::BuiltInWorkgroupId: std::copy(id, id + 3, v); break;
          case spv::BuiltInLocalInvocationId: std::copy(lid, lid + 3, v); break;
          case spv::BuiltInGlobalInvocationId:
            for (int k = 0; k < 3; ++k) v[k] = id[k] * size[k] + lid[k];
            break;
          case spv::BuiltInLocalInvocationIndex: v[0] = local; break;
          case spv::BuiltInSubgroupSize: v[0] = w; break;
          case spv::BuiltInSubgroupLocalInvocationId: v[0] = l; break;
          case spv::BuiltInNumSubgroups: v[0] = static_cast<uint32_t>(subgroups_.size()); break;
          case spv::BuiltInSubgroupId: v[0] = s.subgroupId; break;
          case spv::BuiltInSubgroupEqMask: case spv::BuiltInSubgroupGeMask: case spv::BuiltInSubgroupGtMask:
          case spv::BuiltInSubgroupLeMask: case spv::BuiltInSubgroupLtMask: {
            const uint64_t bit = uint64_t{1} << l;
            const uint64_t all = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
            uint64_t m = 0;
            switch (in.builtIn) {
              case spv::BuiltInSubgroupEqMask: m = bit; break;
              case spv::BuiltInSubgroupGeMask: m = ~(bit - 1) & all; break;
              case spv::BuiltInSubgroupGtMask: m = ~((bit << 1) - 1) & all; break;
              case spv::BuiltInSubgroupLeMask: m = (bit << 1) - 1; break;
              default: m = bit - 1; break;
            }
            v[0] = static_cast<uint32_t>(m);
            v[1] = static_cast<uint32_t>(m >> 32);
            break;
          }
          default: break;  // DeviceIndex and the like: 0
        }
        for (uint32_t k = 0; k < in.words && k < 4; ++k) words[static_cast<size_t>(k) * w + l] = v[k];
      }
    }
  }

  const DispatchContext& c_;
  const Executable& x_;
  uint32_t invocations_ = 0;
  std::vector<uint32_t> regs_, priv_, shared_, masks_;
  std::vector<uint64_t> blockMasks_;
  std::vector<SubgroupState> subgroups_;
};

}  // namespace

DispatchOutcome RunDispatch(const DispatchContext& input, WorkerPool& pool, const std::atomic<bool>* external) {
  DispatchOutcome outcome;
  const uint64_t total = uint64_t{input.groups[0]} * input.groups[1] * input.groups[2];
  if (total == 0) return outcome;
  std::atomic<bool> cancel{false};
  DispatchContext context = input;
  context.cancel = &cancel;
  context.external = external;

  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> done{0};
  // The lowest workgroup index that stopped on a fault: workgroups after it are skipped, those before it still
  // run, so the reported fault is the one a one-thread run would report.
  std::atomic<uint64_t> faultGroup{UINT64_MAX};
  std::mutex faultMutex;
  ShaderFault fault;
  uint64_t faultIndex = UINT64_MAX;
  const bool masked = context.outOfRange != OutOfRangeMode::Fault;

  auto job = [&](uint32_t) {
    std::unique_ptr<WorkgroupRunner> runner;
    for (;;) {
      const uint64_t index = next.fetch_add(1, std::memory_order_relaxed);
      if (index >= total || index > faultGroup.load(std::memory_order_relaxed)) return;
      if (cancel.load(std::memory_order_relaxed)) return;
      if (external != nullptr && external->load(std::memory_order_relaxed)) {
        cancel.store(true, std::memory_order_relaxed);
        return;
      }
      if (context.deadlineNs != 0 && NowNs() > context.deadlineNs) {
        std::lock_guard lock(faultMutex);
        if (index < faultIndex) {
          fault = ShaderFault{};
          fault.kind = ShaderFaultKind::Timeout;
          faultIndex = index;
        }
        cancel.store(true, std::memory_order_relaxed);
        return;
      }
      if (!runner) runner = std::make_unique<WorkgroupRunner>(context);
      bool stopped = false;
      ShaderFault f = runner->Run(index, &stopped);
      done.fetch_add(1, std::memory_order_relaxed);
      if (f.kind != ShaderFaultKind::None) {
        std::lock_guard lock(faultMutex);
        if (index < faultIndex) {
          fault = f;
          faultIndex = index;
        }
        if (f.kind == ShaderFaultKind::Timeout) cancel.store(true, std::memory_order_relaxed);
        if (!masked || f.kind == ShaderFaultKind::Timeout) {
          uint64_t seen = faultGroup.load(std::memory_order_relaxed);
          while (index < seen && !faultGroup.compare_exchange_weak(seen, index)) {
          }
        }
      } else if (stopped) {
        return;  // cancelled
      }
    }
  };
  const uint32_t participants = static_cast<uint32_t>(std::min<uint64_t>(pool.threads(), total));
  pool.Run(participants, job);
  outcome.fault = fault;
  outcome.workgroups = done.load();
  outcome.cancelled = fault.kind == ShaderFaultKind::None && cancel.load();
  return outcome;
}

}  // namespace crashtest::execution
