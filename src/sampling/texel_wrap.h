// Texel coordinate arithmetic shared by the samplers (sampler.cpp, quad_sampler.cpp): wrapping of integer texel
// coordinates by address mode ("Wrapping Operation", Vulkan 1.3, 16.7.2) and the float-to-integer steps of
// filtering, kept in one place so both sampling paths give the same texels.
#pragma once

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace crashtest::sampling {

// "mirror(n) = n when n >= 0, else -(1 + n)" (16.7.2).
inline int32_t Mirror(int32_t n) { return n >= 0 ? n : -(1 + n); }

// Wrapping of one integer texel coordinate (Table "Texel coordinate wrapping"); *border is set when the texel lies
// outside with CLAMP_TO_BORDER.
[[gnu::always_inline]] inline int32_t Wrap(int32_t i, int32_t size, VkSamplerAddressMode mode, bool* border) {
  switch (mode) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT: {
      // Power-of-two sizes (most textures) wrap with a mask: two's complement makes it right for negative i too.
      if ((size & (size - 1)) == 0) return i & (size - 1);
      const int32_t m = i % size;
      return m < 0 ? m + size : m;
    }
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: {
      int32_t t = i % (2 * size);
      if (t < 0) t += 2 * size;
      return (size - 1) - Mirror(t - size);
    }
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER:
      if (i < 0 || i >= size) *border = true;
      return i;
    case VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE:
      return std::clamp(Mirror(i), 0, size - 1);
    default:  // CLAMP_TO_EDGE
      return std::clamp(i, 0, size - 1);
  }
}

// Texels i and i + 1 wrapped (no border modes here): the second follows from the first without a second division
// for REPEAT and CLAMP_TO_EDGE, the common modes.
[[gnu::always_inline]] inline void WrapPair(int32_t i, int32_t size, VkSamplerAddressMode mode, int32_t out[2]) {
  bool border = false;
  out[0] = Wrap(i, size, mode, &border);
  if (mode == VK_SAMPLER_ADDRESS_MODE_REPEAT)
    out[1] = out[0] + 1 == size ? 0 : out[0] + 1;
  else if (mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)
    out[1] = std::clamp(i + 1, 0, size - 1);
  else
    out[1] = Wrap(i + 1, size, mode, &border);
}

// Coordinates far outside any image wrap or clamp to the same texels; keeps the conversion defined.
inline int32_t ClampToTexel(float value) { return static_cast<int32_t>(std::clamp(value, -16777216.0f, 16777216.0f)); }

// floor() as a texel index; NaN gives 0.
inline int32_t FloorToTexel(float value) { return std::isnan(value) ? 0 : ClampToTexel(std::floor(value)); }

// floor() for the finite values of a bilinear tap without a library call (the build targets baseline x86-64, whose
// floor is a call): exact for |x| < 2^31, and larger values clamp to the same texels anyway.
inline float FastFloor(float x) {
  if (!(std::fabs(x) < 2147483648.0f)) return std::floor(x);
  const float t = static_cast<float>(static_cast<int32_t>(x));
  return t > x ? t - 1.0f : t;
}

}  // namespace crashtest::sampling
