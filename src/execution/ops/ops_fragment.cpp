// Fragment-shader operations over 2x2 quads. The rasteriser fills a subgroup with whole quads (lanes 4q..4q+3 are
// pixels (x, y), (x+1, y), (x, y+1), (x+1, y+1)), helper lanes included, so a derivative is a difference between
// lanes of the same quad: "the derivative is computed by differencing ... adjacent fragments" (Vulkan 1.3, 16.11,
// "Derivative Operations"). Every form is computed fine (the lane's own row for x, its own column for y): a coarse
// derivative "may" be computed per quad, fine precision is allowed for it, and lavapipe does the same, so images
// compare exactly.
#include <spirv/unified1/spirv.hpp>

#include <cmath>
#include <cstring>

#include "execution/ops/ops.h"

namespace crashtest::execution::ops {
namespace {

float F(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

}  // namespace

void Derivative(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const spv::Op kind = static_cast<spv::Op>(op.aux);
  const bool wantX = kind == spv::OpDPdx || kind == spv::OpDPdxFine || kind == spv::OpDPdxCoarse;
  const bool wantY = kind == spv::OpDPdy || kind == spv::OpDPdyFine || kind == spv::OpDPdyCoarse;
  for (uint32_t c = 0; c < op.n; ++c) {
    const uint32_t* a = s.Slot(op.a) + static_cast<size_t>(c) * w;
    uint32_t* d = s.Slot(op.dst) + static_cast<size_t>(c) * w;
    uint32_t out[kMaxSubgroupWidth];
    for (uint32_t l = 0; l < w; ++l) {
      const uint32_t q = l & ~3u;
      const uint32_t row = l & 2u, column = l & 1u;
      const float dx = F(a[q + row + 1]) - F(a[q + row]);
      const float dy = F(a[q + column + 2]) - F(a[q + column]);
      out[l] = Bits(wantX ? dx : wantY ? dy : std::fabs(dx) + std::fabs(dy));
    }
    for (uint32_t l = 0; l < w; ++l) d[l] = Blend(s.laneMask[l], out[l], d[l]);
  }
}

void Demote(const Op&, SubgroupState& s) {
  // "the invocation ... becomes a helper invocation": it keeps running (for its quad's derivatives), its outputs
  // and side effects are discarded.
  s.helpers |= s.active;
  s.killed |= s.active;
}

void IsHelperInvocation(const Op& op, SubgroupState& s) {
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t l = 0; l < s.width; ++l) d[l] = Blend(s.laneMask[l], (s.helpers >> l) & 1, d[l]);
}

void InterpolateAt(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const Executable& x = *s.exe;
  auto row = [&](uint32_t word) { return s.priv + static_cast<size_t>(word) * w; };
  const uint32_t* pointer = s.Slot(op.a);
  const uint32_t common = x.interpolationWord + 4 * x.interpolatedWords;
  const uint32_t *invW = row(common), *invWdx = row(common + 1), *invWdy = row(common + 2);
  for (uint32_t l = 0; l < w; ++l) {
    if (s.laneMask[l] == 0) continue;
    float ox = 0, oy = 0;
    if (op.aux == 76) {  // InterpolateAtCentroid
      ox = F(row(common + 3)[l]), oy = F(row(common + 4)[l]);
    } else if (op.aux == 77) {  // InterpolateAtSample: "If sample ... does not exist, the value is undefined."
      const uint32_t sample = s.Slot(op.b)[l];
      if (sample < s.sampleCount) ox = s.samplePositions[2 * sample], oy = s.samplePositions[2 * sample + 1];
    } else {  // InterpolateAtOffset: "offset ... in pixels from the pixel center"
      ox = F(s.Slot(op.b)[l]), oy = F(s.Slot(op.b + 1)[l]);
    }
    // The same arithmetic as the rasteriser's inputs: the numerator times the reciprocal of 1/w.
    const float r = 1.0f / (F(invW[l]) + F(invWdx[l]) * ox + F(invWdy[l]) * oy);
    for (uint32_t c = 0; c < op.n; ++c) {
      const uint32_t word = pointer[l] + c;
      float value = 0;
      if (word < x.interpolatedWords) {
        const uint32_t at = x.interpolationWord + 4 * word;
        value = F(row(at)[l]) + F(row(at + 1)[l]) * ox + F(row(at + 2)[l]) * oy;
        if (F(row(at + 3)[l]) != 0.0f) value *= r;
      }
      s.Slot(op.dst + c)[l] = Bits(value);
    }
  }
}

}  // namespace crashtest::execution::ops
