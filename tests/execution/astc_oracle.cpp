#include "astc_oracle.h"

// Debian ships astcenc as a shared library with C linkage, which its header declares only with this defined.
#define ASTCENC_DYNAMIC_LIBRARY 1
#include <astcenc.h>

#include <memory>

namespace crashtest::test {
namespace {

struct ContextDeleter {
  void operator()(astcenc_context* context) const { astcenc_context_free(context); }
};
using Context = std::unique_ptr<astcenc_context, ContextDeleter>;

Context MakeContext(uint32_t blockWidth, uint32_t blockHeight, bool srgb, bool decodeOnly, std::string* error) {
  astcenc_config config{};
  astcenc_error status = astcenc_config_init(srgb ? ASTCENC_PRF_LDR_SRGB : ASTCENC_PRF_LDR, blockWidth, blockHeight,
                                             1, ASTCENC_PRE_FAST, decodeOnly ? ASTCENC_FLG_DECOMPRESS_ONLY : 0,
                                             &config);
  astcenc_context* context = nullptr;
  if (status == ASTCENC_SUCCESS) status = astcenc_context_alloc(&config, 1, &context);
  if (status != ASTCENC_SUCCESS) *error = std::string("astcenc: ") + astcenc_get_error_string(status);
  return Context(context);
}

constexpr astcenc_swizzle kIdentity{ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};

}  // namespace

std::vector<uint8_t> AstcEncode(uint32_t blockWidth, uint32_t blockHeight, bool srgb, uint32_t width,
                                uint32_t height, const std::vector<uint8_t>& rgba8, std::string* error) {
  Context context = MakeContext(blockWidth, blockHeight, srgb, false, error);
  if (context == nullptr) return {};
  void* slices[1] = {const_cast<uint8_t*>(rgba8.data())};
  astcenc_image image{width, height, 1, ASTCENC_TYPE_U8, slices};
  std::vector<uint8_t> blocks(size_t{(width + blockWidth - 1) / blockWidth} *
                              ((height + blockHeight - 1) / blockHeight) * 16);
  const astcenc_error status = astcenc_compress_image(context.get(), &image, &kIdentity, blocks.data(),
                                                      blocks.size(), 0);
  if (status != ASTCENC_SUCCESS) {
    *error = std::string("astcenc_compress_image: ") + astcenc_get_error_string(status);
    return {};
  }
  return blocks;
}

std::vector<float> AstcDecode(uint32_t blockWidth, uint32_t blockHeight, bool srgb, uint32_t width, uint32_t height,
                              const uint8_t* blocks, size_t bytes, std::string* error) {
  Context context = MakeContext(blockWidth, blockHeight, srgb, true, error);
  if (context == nullptr) return {};
  std::vector<float> texels(size_t{width} * height * 4);
  std::vector<uint8_t> unorm(srgb ? texels.size() : 0);
  void* slices[1] = {srgb ? static_cast<void*>(unorm.data()) : static_cast<void*>(texels.data())};
  astcenc_image image{width, height, 1, srgb ? ASTCENC_TYPE_U8 : ASTCENC_TYPE_F32, slices};
  const astcenc_error status = astcenc_decompress_image(context.get(), blocks, bytes, &image, &kIdentity, 0);
  if (status != ASTCENC_SUCCESS) {
    *error = std::string("astcenc_decompress_image: ") + astcenc_get_error_string(status);
    return {};
  }
  if (srgb)
    for (size_t i = 0; i < unorm.size(); ++i) texels[i] = static_cast<float>(unorm[i]) / 255.0f;
  return texels;
}

}  // namespace crashtest::test
