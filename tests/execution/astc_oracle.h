// The ASTC reference: Arm's astcenc library (Debian's libastcenc), the format's reference codec, for the
// differential tests of ASTC (Mesa 22.3's lavapipe and OpenGL driver have no ASTC). It encodes test images into
// valid blocks of every kind its encoder chooses, and decodes blocks as the LDR profile defines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace crashtest::test {

// The blocks of a width x height RGBA8 image in blockWidth x blockHeight blocks; empty on failure (*error).
std::vector<uint8_t> AstcEncode(uint32_t blockWidth, uint32_t blockHeight, bool srgb, uint32_t width,
                                uint32_t height, const std::vector<uint8_t>& rgba8, std::string* error);

// The RGBA texels, row by row, the blocks decode to: float results of the LDR profile (UNORM), or the sRGB-encoded
// 8-bit results over 255 (sRGB); empty on failure (*error).
std::vector<float> AstcDecode(uint32_t blockWidth, uint32_t blockHeight, bool srgb, uint32_t width, uint32_t height,
                              const uint8_t* blocks, size_t bytes, std::string* error);

}  // namespace crashtest::test
