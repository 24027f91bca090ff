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
    // Each participant reads its own copy of the context and of a small buffer table: the shared ones sit next to
    // memory other threads write (the dispatch's counters on the submitting thread's stack, other heap blocks),
    // and every buffer access reads them.
    if (c_.bufferCount <= kPrivateBufferTable) {
      buffers_.assign(c_.buffers, c_.buffers + c_.bufferCount);
      c_.buffers = buffers_.data();
    }
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
      FillFixedSlots(s);
    }
    // Local ids per lane, and the built-ins that are the same for every workgroup, written once.
    // [subgroup][x, y, z][lane]: rows, so the per-workgroup GlobalInvocationId is one vectorised add per row.
    localIds_.resize(static_cast<size_t>(count) * w * 3);
    for (uint32_t i = 0; i < count; ++i)
      for (uint32_t l = 0; l < w; ++l) {
        const uint32_t local = i * w + l;
        uint32_t* rows = &localIds_[static_cast<size_t>(i) * w * 3];
        rows[l] = local % x_.localSize[0];
        rows[w + l] = (local / x_.localSize[0]) % x_.localSize[1];
        rows[2 * w + l] = local / (x_.localSize[0] * x_.localSize[1]);
      }
    std::vector<std::pair<uint32_t, uint32_t>> builtinWords;
    for (const BuiltinInput& in : x_.builtins) {
      builtinWords.push_back({in.word, in.word + in.words});
      if (in.builtIn != spv::BuiltInWorkgroupId && in.builtIn != spv::BuiltInGlobalInvocationId)
        for (SubgroupState& s : subgroups_) WriteBuiltin(s, in, nullptr);
    }
    // Private memory is zeroed per workgroup except the built-ins' words.
    std::sort(builtinWords.begin(), builtinWords.end());
    uint32_t at = 0;
    for (auto [begin, end] : builtinWords) {
      if (begin > at) zeroRanges_.push_back({at, begin});
      at = std::max(at, end);
    }
    if (at < x_.privateWords) zeroRanges_.push_back({at, x_.privateWords});
  }

  // Runs workgroup `index` (linear, x fastest). Returns the first fault of its subgroups (kind None if none).
  ShaderFault Run(uint64_t index, bool* stopped) {
    const uint32_t w = c_.width;
    uint32_t id[3];
    if (index <= UINT32_MAX) {  // 32-bit divisions: the common case, and much cheaper than 64-bit ones
      const uint32_t i = static_cast<uint32_t>(index);
      id[0] = c_.base[0] + i % c_.groups[0];
      id[1] = c_.base[1] + (i / c_.groups[0]) % c_.groups[1];
      id[2] = c_.base[2] + static_cast<uint32_t>(uint64_t{i} / (uint64_t{c_.groups[0]} * c_.groups[1]));
    } else {
      id[0] = c_.base[0] + static_cast<uint32_t>(index % c_.groups[0]);
      id[1] = c_.base[1] + static_cast<uint32_t>((index / c_.groups[0]) % c_.groups[1]);
      id[2] = c_.base[2] + static_cast<uint32_t>(index / (uint64_t{c_.groups[0]} * c_.groups[1]));
    }
    if (x_.sharedWords != 0) std::memset(shared_.data(), 0, shared_.size() * sizeof(uint32_t));
    for (SubgroupState& s : subgroups_) {
      const uint32_t lanes = std::min(w, invocations_ - s.firstLocalIndex);
      StartSubgroup(s, lanes == 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1);
      std::copy(id, id + 3, s.workgroup);
      for (auto [begin, end] : zeroRanges_)
        std::memset(s.priv + static_cast<size_t>(begin) * w, 0, static_cast<size_t>(end - begin) * w * sizeof(uint32_t));
      for (const BuiltinInput& in : x_.builtins)
        if (in.builtIn == spv::BuiltInWorkgroupId || in.builtIn == spv::BuiltInGlobalInvocationId)
          WriteBuiltin(s, in, id);
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
  // Writes one built-in input into a subgroup's private memory; `id` is the workgroup id (nullptr for the
  // built-ins that do not depend on it).
  void WriteBuiltin(SubgroupState& s, const BuiltinInput& in, const uint32_t id[3]) {
    const uint32_t w = c_.width;
    const uint32_t* size = x_.localSize;
    uint32_t* words = s.priv + static_cast<size_t>(in.word) * w;
    const uint32_t* lids = &localIds_[static_cast<size_t>(s.subgroupId) * w * 3];  // rows x, y, z
    auto row = [&](uint32_t k) { return words + static_cast<size_t>(k) * w; };
    switch (in.builtIn) {
      case spv::BuiltInGlobalInvocationId:
        for (uint32_t k = 0; k < 3 && k < in.words; ++k) {
          uint32_t* r = row(k);
          const uint32_t first = id[k] * size[k];
          const uint32_t* local = lids + static_cast<size_t>(k) * w;
          for (uint32_t l = 0; l < w; ++l) r[l] = first + local[l];
        }
        return;
      case spv::BuiltInWorkgroupId:
        for (uint32_t k = 0; k < 3 && k < in.words; ++k) std::fill_n(row(k), w, id[k]);
        return;
      default:
        break;
    }
    for (uint32_t l = 0; l < w; ++l) {
      const uint32_t local = s.firstLocalIndex + l;
      uint32_t v[4] = {0, 0, 0, 0};
      switch (in.builtIn) {
        case spv::BuiltInNumWorkgroups: std::copy(c_.groups, c_.groups + 3, v); break;
        case spv::BuiltInWorkgroupSize: std::copy(size, size + 3, v); break;
        case spv::BuiltInLocalInvocationId: v[0] = lids[l], v[1] = lids[w + l], v[2] = lids[2 * w + l]; break;
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
      for (uint32_t k = 0; k < in.words && k < 4; ++k) row(k)[l] = v[k];
    }
  }

  static constexpr uint32_t kPrivateBufferTable = 256;
  DispatchContext c_;
  std::vector<BufferRange> buffers_;
  const Executable& x_;
  uint32_t invocations_ = 0;
  std::vector<uint32_t> regs_, priv_, shared_, masks_;
  std::vector<uint64_t> blockMasks_;
  std::vector<SubgroupState> subgroups_;
  std::vector<uint32_t> localIds_;                          // [subgroup][x, y, z][lane]
  std::vector<std::pair<uint32_t, uint32_t>> zeroRanges_;   // private words zeroed per workgroup: [begin, end)
};

}  // namespace

DispatchOutcome RunDispatch(const DispatchContext& input, WorkerPool& pool, const std::atomic<bool>* external) {
  DispatchOutcome outcome;
  const uint64_t total = uint64_t{input.groups[0]} * input.groups[1] * input.groups[2];
  if (total == 0) return outcome;
  std::atomic<bool> cancel{false};
  DispatchContext context = input;
  if (context.bufferCount == 0) context.bufferCount = input.exe->bufferSlots;
  if (context.imageCount == 0) context.imageCount = input.exe->imageSlots;
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

  const uint32_t participants = static_cast<uint32_t>(std::min<uint64_t>(pool.threads(), total));
  // Workgroups are claimed in runs of consecutive indices, so the shared counter, the deadline's clock and the
  // cancellation flags are touched once per run instead of once per workgroup: with a quarter of a million
  // one-subgroup workgroups (saxpy over 16 Mi floats) the contended counter alone cost 6 % of the dispatch. Runs
  // stay short enough (at most 64, and 32 per participant at least) that the threads finish together.
  const uint64_t run = std::clamp<uint64_t>(total / (uint64_t{participants} * 32), 1, 64);

  auto job = [&](uint32_t) {
    std::unique_ptr<WorkgroupRunner> runner;
    uint64_t completed = 0;
    struct CountOnExit {
      std::atomic<uint64_t>& done;
      const uint64_t& completed;
      ~CountOnExit() { done.fetch_add(completed, std::memory_order_relaxed); }
    } countOnExit{done, completed};
    for (;;) {
      const uint64_t first = next.fetch_add(run, std::memory_order_relaxed);
      if (first >= total || first > faultGroup.load(std::memory_order_relaxed)) return;
      if (cancel.load(std::memory_order_relaxed)) return;
      if (external != nullptr && external->load(std::memory_order_relaxed)) {
        cancel.store(true, std::memory_order_relaxed);
        return;
      }
      if (context.deadlineNs != 0 && NowNs() > context.deadlineNs) {
        std::lock_guard lock(faultMutex);
        if (first < faultIndex) {
          fault = ShaderFault{};
          fault.kind = ShaderFaultKind::Timeout;
          faultIndex = first;
        }
        cancel.store(true, std::memory_order_relaxed);
        return;
      }
      if (!runner) runner = std::make_unique<WorkgroupRunner>(context);
      const uint64_t last = std::min(total, first + run);
      for (uint64_t index = first; index < last; ++index) {
        // A fault in an earlier workgroup, or a cancellation, stops the run where it is.
        if (index > faultGroup.load(std::memory_order_relaxed) || cancel.load(std::memory_order_relaxed)) return;
        bool stopped = false;
        ShaderFault f = runner->Run(index, &stopped);
        ++completed;
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
    }
  };
  pool.Run(participants, job);
  outcome.fault = fault;
  outcome.workgroups = done.load();
  outcome.cancelled = fault.kind == ShaderFaultKind::None && cancel.load();
  return outcome;
}

}  // namespace crashtest::execution
