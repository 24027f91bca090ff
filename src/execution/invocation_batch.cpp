#include "execution/invocation_batch.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstring>

#include "execution/interpreter.h"

namespace crashtest::execution {

InvocationBatch::InvocationBatch(const DispatchContext& context) : context_(context) {
  const Executable& x = *context.exe;
  const uint32_t w = context.width;
  regs_.resize(static_cast<size_t>(x.slotCount) * w);
  priv_.resize(static_cast<size_t>(std::max(1u, x.privateWords)) * w);
  masks_.resize(w);
  blockMasks_.resize(x.blocks.size());
  state_.exe = &x;
  state_.dispatch = &context_;
  state_.width = w;
  state_.regs = regs_.data();
  state_.priv = priv_.data();
  state_.shared = shared_;
  state_.laneMask = masks_.data();
  state_.blockMask = blockMasks_.data();
  FillFixedSlots(state_);
}

void InvocationBatch::Clear() {
  std::memset(priv_.data(), 0, priv_.size() * sizeof(uint32_t));
  const uint32_t w = state_.width;
  for (const BuiltinInput& in : state_.exe->builtins) {
    uint32_t* row = Row(in.word);
    switch (in.builtIn) {
      case spv::BuiltInSubgroupSize: std::fill_n(row, w, w); break;
      case spv::BuiltInSubgroupLocalInvocationId:
        for (uint32_t l = 0; l < w; ++l) row[l] = l;
        break;
      default: break;  // the rasteriser writes the stage's own built-ins
    }
  }
}

ShaderFault InvocationBatch::Run(uint64_t live, uint64_t helpers, bool* stopped) {
  StartSubgroup(state_, live);
  state_.helpers = helpers;
  *stopped = false;
  for (;;) {
    const RunResult r = RunSubgroup(state_);
    if (r == RunResult::Stopped) {
      *stopped = true;
      break;
    }
    if (r == RunResult::Finished) break;
  }
  return state_.fault;
}

}  // namespace crashtest::execution
