// Per-fragment operations after the fragment shader, in the order the spec gives ("Fragment Operations", Vulkan
// 1.3, 28-29): depth bounds test, stencil test, depth test, stencil and depth writes, then blending
// ("Blending", 29.1) with the attachment's write mask, each colour written through the texel codec.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "common/compare_op.h"
#include "raster/draw_state.h"

namespace crashtest::raster {

// A fragment's colour outputs: `values[t]` for colour attachment t when bit t of `written` is set; `source1` is
// the output at Location 0, Index 1 (dual-source blending's second source, read by the SRC1 factors).
struct FragmentColors {
  static constexpr uint32_t kMaxTargets = 8;
  VkClearColorValue values[kMaxTargets] = {};
  VkClearColorValue source1 = {};
  uint32_t written = 0;
};

class OutputMerger {
 public:
  explicit OutputMerger(const DrawState& state);

  // Runs the tests and writes for sample `sample` of pixel (x, y) with depth z; false when a test discarded it.
  bool Merge(int32_t x, int32_t y, float z, bool front, const FragmentColors& colors, uint32_t sample = 0);
  // Only the depth and stencil tests and writes (no fragment shader, or colours handled by the caller).
  bool DepthStencil(int32_t x, int32_t y, float z, bool front, uint32_t sample = 0);
  // Only the colour blending and writes (the tests passed earlier: early fragment tests).
  void WriteColors(int32_t x, int32_t y, const FragmentColors& colors, uint32_t sample = 0);

 private:
  void Blend(const ColorTarget& target, const VkClearColorValue& source, const VkClearColorValue& source1,
             std::byte* texel) const;
  // "Logical Operations" (29.2): `op` applied bit by bit to the source converted to the texel's format and the
  // stored texel; false when the format takes no logic op (floating-point and sRGB formats are blended instead).
  bool LogicOp(const ColorTarget& target, const VkClearColorValue& source, std::byte* texel) const;

  const DrawState& state_;
  bool clampZeroOne_ = false;  // a fixed-point depth attachment: depth is clamped to [0, 1]
};

}  // namespace crashtest::raster
