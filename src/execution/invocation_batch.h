// One subgroup of graphics-stage invocations (a batch of vertices, or of fragment quads) run on the interpreter:
// the rasteriser writes each lane's inputs (built-ins and locations) into private memory, runs the batch, and reads
// the outputs back from the same memory. No workgroups, no barriers, no shared memory; the context's bindings,
// budget and cancel flags work as for a dispatch.
#pragma once

#include <cstdint>
#include <vector>

#include "execution/dispatch_context.h"
#include "execution/lanes.h"

namespace crashtest::execution {

class InvocationBatch {
 public:
  // `context.width` lanes (a multiple of 4 for fragment quads), constants and slot patches written once.
  explicit InvocationBatch(const DispatchContext& context);
  InvocationBatch(const InvocationBatch&) = delete;
  InvocationBatch& operator=(const InvocationBatch&) = delete;

  uint32_t width() const { return state_.width; }
  // The lanes of private word `word`: inputs are written here before Run, outputs read here after it.
  uint32_t* Row(uint32_t word) { return priv_.data() + static_cast<size_t>(word) * state_.width; }
  // Zeroes private memory (outputs a shader never writes read as zero) and writes the subgroup built-ins.
  void Clear();
  // Runs lanes `live`, of which `helpers` are helper invocations (fragment quads' uncovered pixels). The first
  // fault of the batch (kind None if none); *stopped when the batch ended early (a fault, or cancelled).
  ShaderFault Run(uint64_t live, uint64_t helpers, bool* stopped);
  // Fragment shaders: where each lane's pixel is (`width()` entries each, kept by the caller) and the layer being
  // rendered, for subpass inputs.
  void SetPixels(const int32_t* x, const int32_t* y, uint32_t layer) {
    state_.pixelX = x, state_.pixelY = y, state_.pixelLayer = layer;
  }
  // The sample locations (x, y pairs, offsets from the pixel centre) of the draw's rasterisation samples.
  void SetSamplePositions(const float* offsets, uint32_t count) {
    state_.samplePositions = offsets, state_.sampleCount = count;
  }
  // Lanes that were killed (OpKill, OpTerminateInvocation) or demoted during the last Run.
  uint64_t killed() const { return state_.killed; }

 private:
  const DispatchContext& context_;
  SubgroupState state_;
  std::vector<uint32_t> regs_, priv_, masks_;
  std::vector<uint64_t> blockMasks_;
  uint32_t shared_[2] = {0, 0};
};

}  // namespace crashtest::execution
