// A second, independent texture decoder for the differential tests of compressed formats lavapipe lacks (Mesa 22.3's
// lavapipe has no ETC2 or EAC): Mesa's OpenGL driver (llvmpipe through a surfaceless EGL display), which decodes
// ETC2 and EAC itself when a texture is uploaded. glGetTexImage reads the decoded texels back as floats: sRGB
// formats stay sRGB-encoded, R11/RG11 come back through Mesa's 16-bit fallback formats.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace crashtest::test {

class GlTextureOracle {
 public:
  // Null (with the reason in *error) when no OpenGL 4.3 context can be made.
  static std::unique_ptr<GlTextureOracle> Create(std::string* error);
  ~GlTextureOracle();
  GlTextureOracle(const GlTextureOracle&) = delete;
  GlTextureOracle& operator=(const GlTextureOracle&) = delete;

  // The RGBA float texels, row by row, of one level of a 2D texture of `glInternalFormat` (a GL_COMPRESSED_* enum)
  // given as its tightly packed blocks; empty on a GL error (with the reason in *error).
  std::vector<float> Decode(uint32_t glInternalFormat, uint32_t width, uint32_t height, const void* blocks,
                            uint32_t bytes, std::string* error);

 private:
  GlTextureOracle() = default;
  void* display_ = nullptr;
  void* context_ = nullptr;
};

}  // namespace crashtest::test
