// The interpreter's loop. Blocks are visited front to back (structured order, executable.h); each block runs its
// operations for the lanes waiting at it (one indirect call per operation, amortised over the lanes), then its
// terminator splits those lanes over the successors, copying phi values on each edge for the lanes that take it.
// Lanes reconverge at merge blocks because a merge block comes after everything inside its construct. A loop's
// back edge is the only edge that points backwards: when lanes take it, the walk returns to the header and runs the
// loop again for them, while lanes that left the loop wait at its merge block.
#include "execution/interpreter.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "execution/dispatch_context.h"

namespace crashtest::execution {
namespace {

void CopyEdge(SubgroupState& s, const Executable& x, const Edge& edge, uint64_t lanes) {
  const uint32_t w = s.width;
  const EdgeCopy* copies = x.copies.data() + edge.firstCopy;
  const bool all = lanes == s.live && s.full;
  auto copy = [&](uint32_t dst, uint32_t src, uint32_t count) {
    uint32_t* d = s.Slot(dst);
    const uint32_t* a = s.Slot(src);
    if (all) {
      // Usually one or two slots (128-512 bytes): an inline loop the compiler vectorises beats a memmove call.
      const size_t words = static_cast<size_t>(count) * w;
      for (size_t i = 0; i < words; ++i) d[i] = a[i];
      return;
    }
    for (uint32_t k = 0; k < count; ++k)
      ForEachLane(lanes, [&](uint32_t l) { d[static_cast<size_t>(k) * w + l] = a[static_cast<size_t>(k) * w + l]; });
  };
  if (!edge.parallel) {
    for (uint32_t i = 0; i < edge.copyCount; ++i) copy(copies[i].dst, copies[i].src, copies[i].count);
    return;
  }
  // Phis that read each other (a swap on a back edge): read every source before writing any destination.
  uint32_t temp = x.tempSlot;
  for (uint32_t i = 0; i < edge.copyCount; ++i) {
    copy(temp, copies[i].src, copies[i].count);
    temp += copies[i].count;
  }
  temp = x.tempSlot;
  for (uint32_t i = 0; i < edge.copyCount; ++i) {
    copy(copies[i].dst, temp, copies[i].count);
    temp += copies[i].count;
  }
}

// Bit l set when lane l's condition word is non-zero: four lanes per SSE2 compare and movemask on x86-64 (the
// scalar shift-and-or loop costs about a cycle per lane on every conditional branch).
uint64_t TrueLanes(const uint32_t* cond, uint32_t w) {
  uint64_t bits = 0;
#if defined(__SSE2__)
  if (w >= 4) {
    const __m128i zero = _mm_setzero_si128();
    for (uint32_t l = 0; l < w; l += 4) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(cond + l));
      const int isZero = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, zero)));
      bits |= static_cast<uint64_t>(~isZero & 0xf) << l;
    }
    return bits;
  }
#endif
  for (uint32_t l = 0; l < w; ++l) bits |= uint64_t{cond[l] != 0} << l;
  return bits;
}

// Sends `lanes` along edge `e`; returns the target position.
uint32_t Take(SubgroupState& s, const Executable& x, uint32_t e, uint64_t lanes) {
  const Edge& edge = x.edges[e];
  if (edge.copyCount != 0) CopyEdge(s, x, edge, lanes);
  s.blockMask[edge.target] |= lanes;
  return edge.target;
}

bool OverBudget(SubgroupState& s, uint32_t op) {
  const DispatchContext& d = *s.dispatch;
  bool over = d.instructionBudget != 0 && s.instructions > d.instructionBudget;
  if (!over && (++s.backEdges & 1023) == 0) {
    if ((d.cancel != nullptr && d.cancel->load(std::memory_order_relaxed)) ||
        (d.external != nullptr && d.external->load(std::memory_order_relaxed))) {
      s.stop = true;  // another workgroup faulted, or the device is going away: no fault of our own
      return true;
    }
    over = d.deadlineNs != 0 && std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now().time_since_epoch()).count() > d.deadlineNs;
  }
  if (!over) return false;
  s.fault.kind = ShaderFaultKind::Timeout;
  s.fault.op = op;
  for (int i = 0; i < 3; ++i) s.fault.workgroup[i] = s.workgroup[i];
  s.fault.localIndex = s.firstLocalIndex + static_cast<uint32_t>(std::countr_zero(s.active | 1));
  s.stop = true;
  return true;
}

}  // namespace

void FillFixedSlots(SubgroupState& s) {
  const Executable& x = *s.exe;
  const uint32_t w = s.width;
  for (size_t slot = 0; slot < x.constantWords.size(); ++slot) std::fill_n(s.regs + slot * w, w, x.constantWords[slot]);
  for (uint32_t p = 0; p < s.dispatch->patchCount; ++p) {
    const SlotPatch& patch = s.dispatch->patches[p];
    std::fill_n(s.regs + static_cast<size_t>(patch.slot) * w, w, static_cast<uint32_t>(patch.value));
    std::fill_n(s.regs + static_cast<size_t>(patch.slot + 1) * w, w, static_cast<uint32_t>(patch.value >> 32));
  }
}

void StartSubgroup(SubgroupState& s, uint64_t live) {
  const uint32_t blocks = static_cast<uint32_t>(s.exe->blocks.size());
  std::memset(s.blockMask, 0, blocks * sizeof(uint64_t));
  s.blockMask[0] = live;
  s.live = live;
  s.pos = 0;
  s.ip = 0;
  s.resuming = false;
  s.finished = false;
  s.yielded = false;
  s.stop = false;
  s.instructions = 0;
  s.backEdges = 0;
  s.killed = 0;
  s.fault = ShaderFault{};
  s.cachedRange = AddressRange{};
}

RunResult RunSubgroup(SubgroupState& s) {
  const Executable& x = *s.exe;
  const uint32_t blockCount = static_cast<uint32_t>(x.blocks.size());
  const Op* ops = x.ops.data();
  uint32_t pos = s.pos;
  while (pos < blockCount) {
    const BlockCode& block = x.blocks[pos];
    uint32_t ip = 0;
    if (s.resuming) {
      ip = s.ip;
      s.resuming = false;
    } else {
      const uint64_t mask = s.blockMask[pos];
      if (mask == 0) {
        ++pos;
        continue;
      }
      s.blockMask[pos] = 0;
      if (mask != s.active) s.SetActive(mask);  // loops keep their lanes: no need to rebuild the lane masks
    }
    const Op* op = ops + block.firstOp;
    for (; ip < block.opCount; ++ip) {
      op[ip].fn(op[ip], s);
      if (s.yielded | s.stop) [[unlikely]] {
        if (s.stop) return RunResult::Stopped;
        s.yielded = false;
        s.pos = pos;
        s.ip = ip + 1;
        s.resuming = true;
        return RunResult::Yielded;
      }
    }
    s.instructions += block.opCount + 1;

    const uint64_t active = s.active;
    uint32_t back = UINT32_MAX;
    auto send = [&](uint32_t e, uint64_t lanes) {
      if (lanes == 0) return;
      const uint32_t target = Take(s, x, e, lanes);
      if (target <= pos) back = target;
    };
    switch (block.terminator) {
      case Terminator::Branch:
        send(block.firstEdge, active);
        break;
      case Terminator::CondBranch: {
        const uint64_t taken = TrueLanes(s.Slot(block.condition), s.width) & active;
        send(block.firstEdge, taken);
        send(block.firstEdge + 1, active & ~taken);
        break;
      }
      case Terminator::Switch: {
        const uint32_t* sel = s.Slot(block.condition);
        const uint64_t* cases = x.caseValues.data() + block.firstCase;
        const uint32_t caseCount = block.edgeCount - 1;
        uint64_t remaining = active;
        for (uint32_t c = 0; c < caseCount && remaining != 0; ++c) {
          uint64_t lanes = 0;
          ForEachLane(remaining, [&](uint32_t l) {
            uint64_t v = block.selectorSlots == 2 ? Join(sel[l], sel[s.width + l]) : sel[l];
            if (v == cases[c]) lanes |= uint64_t{1} << l;
          });
          remaining &= ~lanes;
          send(block.firstEdge + 1 + c, lanes);
        }
        send(block.firstEdge, remaining);
        break;
      }
      case Terminator::Kill:
        s.killed |= active;
        break;
      case Terminator::Return:
      case Terminator::Unreachable:
        break;
    }
    if (back != UINT32_MAX) {
      // A loop goes around again: the place to notice a shader that never ends.
      if (OverBudget(s, block.firstOp + block.opCount)) return RunResult::Stopped;
      pos = back;
    } else {
      ++pos;
    }
  }
  s.finished = true;
  return RunResult::Finished;
}

}  // namespace crashtest::execution
