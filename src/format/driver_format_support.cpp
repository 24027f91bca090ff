#include "driver_format_support.h"

#include "format/compressed/block_decoder.h"
#include "format/format_info.h"

namespace crashtest {

namespace {

// An allow-list rather than a deny-list, so feature bits of future headers stay off until someone decides.
//
// Kept: crashtest stores every image and buffer linearly in host memory and does the work on the CPU, so a
// format the table describes can be sampled (with the sampler's filter, min/max reduction and depth compare
// done by the interpreter), stored to (with or without a format in the shader), copied, cleared, used as a
// texel buffer or vertex attribute, and bound as an attachment (attachments are plain memory written through
// the texel codec by clears, resolves and the rasteriser's per-fragment operations).
constexpr VkFormatFeatureFlags2 kImageFeatures =
    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_MINMAX_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT |
    VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_2_STORAGE_IMAGE_ATOMIC_BIT |
    VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT | VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT |
    VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT |
    VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_BLIT_SRC_BIT |
    VK_FORMAT_FEATURE_2_BLIT_DST_BIT | VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;

constexpr VkFormatFeatureFlags2 kBufferFeatures =
    VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT | VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT |
    VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_ATOMIC_BIT | VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT |
    VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT | VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;

// Dropped by not being listed above, and why:
// - VIDEO_DECODE_*/VIDEO_ENCODE_*: no video queues.
// - ACCELERATION_STRUCTURE_VERTEX_BUFFER: no ray tracing.
// - FRAGMENT_SHADING_RATE_ATTACHMENT, FRAGMENT_DENSITY_MAP: no rasteriser to consume them.
// - DISJOINT: the planes of a multi-planar image live in one allocation (VK_IMAGE_CREATE_DISJOINT_BIT is
//   therefore never supported).
// - MIDPOINT/COSITED_CHROMA_SAMPLES, SAMPLED_IMAGE_YCBCR_CONVERSION_*: no sampler Y'CbCr conversion.
// - SAMPLED_IMAGE_FILTER_CUBIC: VK_EXT_filter_cubic is not implemented.
// - vendor bits (LINEAR_COLOR_ATTACHMENT_NV, WEIGHT_IMAGE/BLOCK_MATCHING_QCOM, OPTICAL_FLOW_*_NV): not implemented.
//
// Per-format narrowing: a blit converts texels through a decode/encode of each component, which the transfer
// code does for uncompressed single-plane formats; Y'CbCr formats keep copies (a plain byte move of whole
// blocks) but lose BLIT_SRC/BLIT_DST. A blit writes single texels, which a block-compressed destination cannot
// take without a block encoder.
constexpr VkFormatFeatureFlags2 kBlitFeatures = VK_FORMAT_FEATURE_2_BLIT_SRC_BIT | VK_FORMAT_FEATURE_2_BLIT_DST_BIT;

// Block-compressed formats with a decoder (BC1-BC7, ETC2, EAC, ASTC LDR: src/format/compressed): sampled (nearest,
// linear, min/max) and fetched by shaders, copied, and blitted from. What the spec's "Required Format Support" tables
// ask of them when textureCompressionBC, _ETC2 or _ASTC_LDR is supported: SAMPLED_IMAGE, BLIT_SRC,
// SAMPLED_IMAGE_FILTER_LINEAR (and TRANSFER_SRC/DST).
// Never storage images or attachments: texels cannot be written one at a time.
constexpr VkFormatFeatureFlags2 kDecodedCompressedFeatures =
    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_MINMAX_BIT | VK_FORMAT_FEATURE_2_BLIT_SRC_BIT |
    VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
// Other compressed formats (ASTC HDR's SFLOAT formats, PVRTC) have no decoder yet: shaders cannot read them (a
// dispatch that would is skipped), so only copies remain.
constexpr VkFormatFeatureFlags2 kUndecodedCompressedFeatures =
    VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;

}  // namespace

FormatSupport DriverFormatSupport(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  if (info == nullptr) return {};
  VkFormatFeatureFlags2 image = kImageFeatures;
  if (info->compression != CompressionScheme::kNone)
    image = format::BlockDecoderFor(format).decode != nullptr ? kDecodedCompressedFeatures
                                                               : kUndecodedCompressedFeatures;
  else if (info->chroma != ChromaSubsampling::kNone)
    image &= ~kBlitFeatures;
  FormatSupport support;
  support.linearTilingFeatures = image;
  support.optimalTilingFeatures = image;
  // VkFormatProperties: "If format is block-compressed, requires sampler Y'CbCr conversion, or is a depth/stencil
  // format then bufferFeatures must not support any features for the format."
  bool noBuffers = info->compression != CompressionScheme::kNone || info->chroma != ChromaSubsampling::kNone ||
                   IsDepthOrStencil(format);
  support.bufferFeatures = noBuffers ? 0 : kBufferFeatures;
  return support;
}

}  // namespace crashtest
