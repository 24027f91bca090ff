// Integer-coordinate texel access for image reads, writes, fetches and atomics: address validation ("Integer
// Texel Coordinate Validation", Vulkan 1.3, 16.5), decoding into the shader's RGBA representation ("Conversion to
// RGBA", "Component Swizzle") and encoding for stores ("Texel Output Format Conversion").
#pragma once

#include <cstddef>
#include <cstdint>

#include "sampling/image_descriptor.h"

namespace crashtest::sampling {

// A texel as the shader sees it: four 32-bit words, float bits for float formats (and depth), else uint32 or
// int32 values.
struct Texel {
  uint32_t v[4] = {0, 0, 0, 0};
};

// The bytes of sample `sample` of texel (x, y, z) of `layer` at `level` of the view, or nullptr when any coordinate
// fails validation (outside the level's extent, the view's layers or the image's samples) or nothing is bound, and
// for block-compressed images (read them with LoadTexel).
// For texel buffers only x counts.
std::byte* TexelAddress(const ImageDescriptor& image, uint32_t level, int32_t x, int32_t y, int32_t z, int32_t layer,
                        uint32_t sample);

// Texel (x, y, z) of `layer` at `level`, sample `sample`, converted to RGBA before the view's swizzle: false (and
// *out untouched) when a coordinate fails validation or nothing is bound. Handles block-compressed images, whose
// texels have no address of their own.
bool LoadTexel(const ImageDescriptor& image, uint32_t level, int32_t x, int32_t y, int32_t z, int32_t layer,
               uint32_t sample, Texel* out);

// The texel at `texel` converted to RGBA ("missing components read as 0, 0, 0, 1"), before the view's swizzle.
Texel ReadTexel(const ImageDescriptor& image, const std::byte* texel);

// Applies the view's component mapping (identity for storage images, where the spec requires it).
Texel Swizzled(const ImageDescriptor& image, const Texel& texel);

// Encodes `value` (in the format's value kind) into the texel at `texel`. Only colour formats are written.
void WriteTexel(const ImageDescriptor& image, const Texel& value, std::byte* texel);

// A texel as a shader with a 64-bit integer Sampled Type sees it (SPIR-V Int64ImageEXT; R64_UINT and R64_SINT
// images and texel buffers): four 64-bit words.
struct WideTexel {
  uint64_t v[4] = {0, 0, 0, 0};
};

// As LoadTexel, for a 64-bit texel (ColorCodec::Decode64). Colour aspects of uncompressed formats only.
bool LoadWideTexel(const ImageDescriptor& image, uint32_t level, int32_t x, int32_t y, int32_t z, int32_t layer,
                   uint32_t sample, WideTexel* out);
// A texel outside a bound image: zero bytes converted, (0, 0, 0, 1) for R64 ("robustImageAccess2"); zero when
// nothing is bound.
WideTexel OutOfBoundsWideTexel(const ImageDescriptor& image);
// As WriteTexel, for a 64-bit texel (ColorCodec::Encode64).
void WriteWideTexel(const ImageDescriptor& image, const WideTexel& value, std::byte* texel);

// The value an invalid texel reads as: zero in every component (for an unbound descriptor).
inline Texel ZeroTexel() { return Texel{}; }
// The value a texel outside a bound image reads as: a texel of zero bytes converted to RGBA, so components the format
// lacks read as (0, 0, 0, 1) — the format-dependent value robustImageAccess2 requires, and one of the two values
// robustImageAccess allows.
Texel OutOfBoundsTexel(const ImageDescriptor& image);

}  // namespace crashtest::sampling
