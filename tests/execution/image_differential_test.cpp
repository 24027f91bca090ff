// Differential tests for images, samplers and texel buffers: the same compute work on crashtest and on Mesa's
// lavapipe (the oracle), with deterministic pseudo-random texels and sample points, compared afterwards — every
// result buffer and every image. Integer results must agree exactly; filtered results within a small absolute
// tolerance (lavapipe filters 8-bit formats with 8-bit weights and rounds the result to 8 bits; Vulkan requires
// only subTexelPrecisionBits).
// Sample points and LODs keep away from the exact texel and level boundaries where two correct implementations
// may round differently.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "vk_compute.h"

namespace crashtest::test {
namespace {

uint32_t F(float f) { return std::bit_cast<uint32_t>(f); }

class Random {
 public:
  explicit Random(uint64_t seed) : state_(0x9e3779b97f4a7c15ull * (seed + 1)) {}
  uint32_t Next() {
    state_ ^= state_ << 13, state_ ^= state_ >> 7, state_ ^= state_ << 17;
    return static_cast<uint32_t>(state_ >> 11);
  }
  float Uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(Next() % 1000000) / 1000000.0f; }

 private:
  uint64_t state_;
};

// Texels of `words` random words (any bit pattern: 8-bit formats get every byte value).
std::vector<uint32_t> RandomWords(size_t words, uint64_t seed) {
  Random random(seed);
  std::vector<uint32_t> out(words);
  for (uint32_t& w : out) w = random.Next();
  return out;
}
std::vector<uint32_t> RandomFloats(size_t words, float lo, float hi, uint64_t seed) {
  Random random(seed);
  std::vector<uint32_t> out(words);
  for (uint32_t& w : out) w = F(random.Uniform(lo, hi));
  return out;
}
// binary16 pairs in [lo, hi).
std::vector<uint32_t> RandomHalves(size_t words, float lo, float hi, uint64_t seed) {
  Random random(seed);
  auto half = [&] {
    const uint32_t bits = F(random.Uniform(lo, hi));
    const uint32_t sign = (bits >> 16) & 0x8000u;
    const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
    return exponent <= 0 ? sign : sign | (static_cast<uint32_t>(exponent) << 10) | ((bits >> 13) & 0x3ff);
  };
  std::vector<uint32_t> out(words);
  for (uint32_t& w : out) w = half() | (half() << 16);
  return out;
}

// Sample points: xy in [lo, hi), z and w from the given LOD list (values away from the .5 boundaries of nearest
// mipmap selection), or random in [0, 1) when the list is empty.
std::vector<uint32_t> Points(uint32_t count, float lo, float hi, std::vector<float> lods, uint64_t seed) {
  Random random(seed);
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < count; ++i) {
    out.push_back(F(random.Uniform(lo, hi)));
    out.push_back(F(random.Uniform(lo, hi)));
    out.push_back(F(lods.empty() ? random.Uniform(0, 1) : lods[random.Next() % lods.size()]));
    out.push_back(F(lods.empty() ? random.Uniform(0, 1) : lods[random.Next() % lods.size()]));
  }
  return out;
}

// Cube directions near the faces' edges (two in three) and corners: the major axis at +-1, one (or, at corners,
// both) of the others within a texel or two of +-1 on an 8-texel face, the last one anywhere; w from `lods`.
std::vector<uint32_t> CubeEdgePoints(uint32_t count, const std::vector<float>& lods, uint64_t seed) {
  Random random(seed);
  std::vector<uint32_t> out;
  auto sign = [&] { return random.Next() % 2 == 0 ? 1.0f : -1.0f; };
  for (uint32_t i = 0; i < count; ++i) {
    float d[3];
    const uint32_t major = random.Next() % 3, near = (major + 1 + random.Next() % 2) % 3, other = 3 - major - near;
    d[major] = sign();
    d[near] = sign() * random.Uniform(0.75f, 0.999f);
    d[other] = random.Next() % 3 == 0 ? sign() * random.Uniform(0.75f, 0.999f) : random.Uniform(-0.9f, 0.9f);
    for (float v : d) out.push_back(F(v));
    out.push_back(F(lods[random.Next() % lods.size()]));
  }
  return out;
}

VkSamplerCreateInfo Sampler(VkFilter filter, VkSamplerAddressMode address, VkSamplerMipmapMode mipmap,
                            float maxLod = 0.0f) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = info.minFilter = filter;
  info.mipmapMode = mipmap;
  info.addressModeU = info.addressModeV = info.addressModeW = address;
  info.maxLod = maxLod;
  info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  return info;
}

ImageSpec Texture(uint32_t binding, VkFormat format, VkExtent3D extent, uint32_t levels, VkSamplerCreateInfo sampler,
                  uint64_t seed, VkImageViewType viewType = VK_IMAGE_VIEW_TYPE_2D, uint32_t layers = 1) {
  ImageSpec spec;
  spec.binding = binding;
  spec.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  spec.format = format;
  spec.viewType = viewType;
  spec.extent = extent;
  spec.levels = levels;
  spec.layers = layers;
  spec.sampler = sampler;
  const size_t words = ImageWords(spec);
  spec.contents = format == VK_FORMAT_R32G32B32A32_SFLOAT || format == VK_FORMAT_D32_SFLOAT
                      ? RandomFloats(words, 0.0f, 1.0f, seed)
                      : RandomWords(words, seed);
  return spec;
}

BufferSpec Buffer(uint32_t binding, std::vector<uint32_t> contents) {
  BufferSpec spec;
  spec.binding = binding;
  spec.contents.push_back(std::move(contents));
  return spec;
}

struct ImageCase {
  std::string name;
  std::string shader;  // a file in the execution tests' shader directory, or "corpus/NAME" for the shader corpus
  std::function<ComputeJob()> make;
  float tolerance = 0.0f;            // absolute, for float words of buffers and float images
  std::vector<size_t> skipImages;    // images not compared (their contents depend on atomics order)
  std::vector<size_t> skipBuffers;   // buffers not compared (results of races between workgroups)
  std::function<void(const ComputeResult&, const ComputeResult&)> ownCheck;  // known values for what lavapipe gets wrong
};

void PrintTo(const ImageCase& c, std::ostream* os) { *os << c.name; }

std::vector<uint32_t> Spirv(const std::string& shader) {
  if (shader.rfind("corpus/", 0) == 0)
    return ReadSpirv(std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/" + shader.substr(7) + ".spv");
  return ReadSpirv(std::string(CRASHTEST_EXECUTION_SHADER_DIR) + "/" + shader + ".spv");
}

// One sampler configuration through image_sample_points.comp: a 16x16 (or 32x32 mipmapped) texture, 256 points.
ImageCase SamplerCase(const std::string& name, VkFormat format, VkSamplerCreateInfo sampler, float lo, float hi,
                      std::vector<float> lods, uint32_t levels = 1, float tolerance = 4e-3f,
                      VkComponentMapping swizzle = {}) {
  ImageCase c;
  c.name = name;
  c.shader = "image_sample_points.comp";
  c.tolerance = tolerance;
  c.make = [=] {
    ComputeJob job;
    const uint32_t size = levels > 1 ? 32 : 16;
    ImageSpec texture = Texture(0, format, {size, size, 1}, levels, sampler, 11);
    texture.components = swizzle;
    job.images.push_back(texture);
    job.buffers.push_back(Buffer(1, Points(256, lo, hi, lods, 12)));
    job.buffers.push_back(Buffer(2, std::vector<uint32_t>(256 * 4, 0)));
    job.pushConstants = {256};
    job.groups[0] = 4;
    return job;
  };
  return c;
}

std::vector<ImageCase> Cases() {
  const std::vector<float> lod0 = {0.0f};
  const std::vector<float> lods = {0.1f, 0.3f, 0.7f, 0.9f, 1.2f, 1.4f, 1.8f, 2.1f, 2.3f, 2.7f, 3.2f, 3.9f, 4.6f, 6.2f};
  std::vector<ImageCase> cases = {
      SamplerCase("nearest_repeat", VK_FORMAT_R8G8B8A8_UNORM,
                  Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_NEAREST), -1.5f,
                  2.5f, lod0, 1, 1e-6f),
      SamplerCase("linear_clamp_to_edge", VK_FORMAT_R8G8B8A8_UNORM,
                  Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_NEAREST),
                  -0.5f, 1.5f, lod0),
      SamplerCase("linear_mirrored_repeat", VK_FORMAT_R8G8B8A8_UNORM,
                  Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, VK_SAMPLER_MIPMAP_MODE_NEAREST),
                  -2.5f, 2.5f, lod0),
      SamplerCase("linear_mirror_clamp_to_edge", VK_FORMAT_R8G8B8A8_UNORM,
                  Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE,
                          VK_SAMPLER_MIPMAP_MODE_NEAREST),
                  -2.5f, 2.5f, lod0),
      SamplerCase("linear_rgba32f_repeat", VK_FORMAT_R32G32B32A32_SFLOAT,
                  Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_NEAREST), -1.5f,
                  2.5f, lod0, 1, 1e-4f),
      SamplerCase("linear_srgb", VK_FORMAT_R8G8B8A8_SRGB,
                  Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_NEAREST), 0.0f,
                  1.0f, lod0),
      SamplerCase("nearest_swizzle", VK_FORMAT_R8G8B8A8_UNORM,
                  Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_NEAREST), 0.0f,
                  1.0f, lod0, 1, 1e-6f,
                  {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R,
                   VK_COMPONENT_SWIZZLE_ZERO}),
      SamplerCase("trilinear_mipmaps", VK_FORMAT_R32G32B32A32_SFLOAT,
                  Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR, 1000.0f),
                  -1.0f, 2.0f, lods, 6, 2e-3f),
      SamplerCase("nearest_mipmaps", VK_FORMAT_R8G8B8A8_UNORM,
                  Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                          1000.0f),
                  0.0f, 1.0f, lods, 6, 1e-6f),
  };
  {
    // Border colours with clamp-to-border, and a sampler bias with LOD clamps.
    VkSamplerCreateInfo white =
        Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_MIPMAP_MODE_NEAREST);
    white.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
    cases.push_back(SamplerCase("linear_border_opaque_white", VK_FORMAT_R8G8B8A8_UNORM, white, -0.5f, 1.5f, lod0));
    VkSamplerCreateInfo black =
        Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_MIPMAP_MODE_NEAREST);
    black.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
    cases.push_back(SamplerCase("nearest_border_opaque_black", VK_FORMAT_R32G32B32A32_SFLOAT, black, -0.5f, 1.5f,
                                lod0, 1, 1e-6f));
    VkSamplerCreateInfo transparent =
        Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_MIPMAP_MODE_NEAREST);
    transparent.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
    cases.push_back(SamplerCase("linear_border_transparent_black", VK_FORMAT_R8G8B8A8_UNORM, transparent, -0.5f,
                                1.5f, lod0));
    // Integer textures: nearest filtering, the integer border colours.
    for (VkBorderColor border : {VK_BORDER_COLOR_INT_OPAQUE_WHITE, VK_BORDER_COLOR_INT_OPAQUE_BLACK,
                                 VK_BORDER_COLOR_INT_TRANSPARENT_BLACK}) {
      ImageCase c = SamplerCase("", VK_FORMAT_R8G8B8A8_UINT, {}, -0.5f, 1.5f, lod0, 1, 0.0f);
      c.name = border == VK_BORDER_COLOR_INT_OPAQUE_WHITE   ? "uint_border_opaque_white"
               : border == VK_BORDER_COLOR_INT_OPAQUE_BLACK ? "uint_border_opaque_black"
                                                            : "uint_border_transparent_black";
      c.shader = "image_sample_uint.comp";
      VkSamplerCreateInfo sampler =
          Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_MIPMAP_MODE_NEAREST);
      sampler.borderColor = border;
      c.make = [sampler] {
        ComputeJob job;
        job.images.push_back(Texture(0, VK_FORMAT_R8G8B8A8_UINT, {16, 16, 1}, 1, sampler, 13));
        job.buffers.push_back(Buffer(1, Points(256, -0.5f, 1.5f, {}, 14)));
        job.buffers.push_back(Buffer(2, std::vector<uint32_t>(256 * 4, 0)));
        job.pushConstants = {256};
        job.groups[0] = 4;
        return job;
      };
      cases.push_back(c);
    }
    // VK_EXT_custom_border_color: a border colour of the application's choosing.
    static const VkSamplerCustomBorderColorCreateInfoEXT kCustomBorder{
        VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT, nullptr,
        VkClearColorValue{{0.25f, 0.5f, 0.75f, 0.125f}}, VK_FORMAT_R8G8B8A8_UNORM};
    VkSamplerCreateInfo custom =
        Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_MIPMAP_MODE_NEAREST);
    custom.pNext = &kCustomBorder;
    custom.borderColor = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
    cases.push_back(SamplerCase("linear_border_custom", VK_FORMAT_R8G8B8A8_UNORM, custom, -0.5f, 1.5f, lod0));
    VkSamplerCreateInfo biased =
        Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_NEAREST, 3.2f);
    biased.mipLodBias = 1.25f;
    biased.minLod = 0.5f;
    cases.push_back(SamplerCase("lod_bias_and_clamps", VK_FORMAT_R32G32B32A32_SFLOAT, biased, -1.0f, 2.0f,
                                {0.0f, 0.1f, 0.35f, 1.1f, 1.35f, 2.6f, 5.0f}, 6, 2e-3f));
    VkSamplerCreateInfo texels =
        Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_NEAREST);
    texels.unnormalizedCoordinates = VK_TRUE;
    cases.push_back(SamplerCase("unnormalized_coordinates", VK_FORMAT_R8G8B8A8_UNORM, texels, -2.0f, 18.0f, lod0));
  }
  {
    ImageCase c;
    c.name = "depth_compare_and_gather";
    c.shader = "image_sample_shadow.comp";
    c.tolerance = 1e-2f;
    c.make = [] {
      ComputeJob job;
      VkSamplerCreateInfo compare =
          Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_NEAREST);
      compare.compareEnable = VK_TRUE;
      compare.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
      job.images.push_back(Texture(0, VK_FORMAT_D32_SFLOAT, {16, 16, 1}, 1, compare, 21));
      job.buffers.push_back(Buffer(1, Points(256, 0.0f, 1.0f, {}, 22)));
      job.buffers.push_back(Buffer(2, std::vector<uint32_t>(256 * 4, 0)));
      job.pushConstants = {256};
      job.groups[0] = 4;
      return job;
    };
    cases.push_back(c);
  }
  {
    ImageCase c;
    c.name = "gathers_offsets_separate_sampler";
    c.shader = "image_gather_offsets.comp";
    c.tolerance = 6e-3f;  // trilinear filtering of an 8-bit format: lavapipe rounds the result to 8 bits
    c.make = [] {
      ComputeJob job;
      ImageSpec texture = Texture(0, VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1}, 3, {}, 31);
      texture.type = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
      job.images.push_back(texture);
      ImageSpec sampler;
      sampler.binding = 1;
      sampler.type = VK_DESCRIPTOR_TYPE_SAMPLER;
      sampler.sampler = Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                VK_SAMPLER_MIPMAP_MODE_LINEAR, 1000.0f);
      job.images.push_back(sampler);
      job.buffers.push_back(Buffer(2, Points(256, -0.2f, 1.2f, {0.2f, 0.7f, 1.3f, 1.8f}, 32)));
      job.buffers.push_back(Buffer(3, std::vector<uint32_t>(256 * 24, 0)));
      job.pushConstants = {256};
      job.groups[0] = 4;
      return job;
    };
    cases.push_back(c);
  }
  {
    ImageCase c;
    c.name = "every_dimensionality";
    c.shader = "image_dims.comp";
    c.tolerance = 2e-3f;
    c.make = [] {
      ComputeJob job;
      const VkSamplerCreateInfo linear =
          Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_LINEAR, 1000.0f);
      // Cube maps sample with nearest filtering: near face edges, linear filtering reaches into neighbouring faces.
      const VkSamplerCreateInfo nearest =
          Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_NEAREST);
      const VkFormat f = VK_FORMAT_R32G32B32A32_SFLOAT;
      job.images.push_back(Texture(0, f, {32, 1, 1}, 3, linear, 41, VK_IMAGE_VIEW_TYPE_1D));
      job.images.push_back(Texture(1, f, {16, 16, 1}, 1, linear, 42, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 4));
      job.images.push_back(Texture(2, f, {8, 8, 1}, 1, nearest, 43, VK_IMAGE_VIEW_TYPE_CUBE, 6));
      job.images.push_back(Texture(3, f, {8, 8, 8}, 1, linear, 44, VK_IMAGE_VIEW_TYPE_3D));
      job.images.push_back(Texture(4, f, {8, 8, 1}, 1, nearest, 45, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, 12));
      // z: array layer 0-3 for the 2D array (kept away from .5), w: LOD and cube-array layer.
      std::vector<uint32_t> points = Points(256, 0.02f, 0.98f, {0.2f, 1.3f, 0.7f, 1.1f}, 46);
      Random random(47);
      for (size_t i = 0; i < points.size(); i += 4) {
        const float layer = static_cast<float>(random.Next() % 4) + 0.2f;
        points[i + 2] = F(random.Uniform(0.02f, 0.98f) < 0.5f ? layer : layer + 0.1f);
      }
      job.buffers.push_back(Buffer(5, points));
      job.buffers.push_back(Buffer(6, std::vector<uint32_t>(256 * 20, 0)));
      job.pushConstants = {256};
      job.groups[0] = 4;
      return job;
    };
    cases.push_back(c);
  }
  // Cube map edge handling: linear samples and gathers near the edges and corners of an 8x8 cube (trilinear down
  // to 1x1 faces in the second case), where the footprint reaches into the neighbouring faces; with a non-seamless
  // sampler it stays on the selected face. (Only with CLAMP_TO_EDGE: lavapipe 22.3 clamps non-seamless cubes to the
  // face whatever the address mode, where the spec applies the mode; tests/unit/sampling checks the others.)
  for (const char* name : {"cube_edges_and_corners", "cube_edges_trilinear", "cube_non_seamless_clamp"}) {
    const std::string n = name;
    const bool mipmapped = n == "cube_edges_trilinear";
    VkSamplerCreateInfo sampler =
        Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                mipmapped ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST, mipmapped ? 1000.0f : 0.0f);
    if (n.rfind("cube_non_seamless", 0) == 0) sampler.flags = VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT;
    ImageCase c;
    c.name = n;
    c.shader = "image_sample_cube.comp";
    c.tolerance = 2e-3f;
    c.make = [sampler, mipmapped] {
      ComputeJob job;
      job.images.push_back(Texture(0, VK_FORMAT_R32G32B32A32_SFLOAT, {8, 8, 1}, mipmapped ? 4 : 1, sampler, 111,
                                   VK_IMAGE_VIEW_TYPE_CUBE, 6));
      job.buffers.push_back(Buffer(1, CubeEdgePoints(256, mipmapped ? std::vector<float>{0.2f, 0.7f, 1.3f, 2.4f, 3.0f}
                                                                   : std::vector<float>{0.0f},
                                                     112)));
      job.buffers.push_back(Buffer(2, std::vector<uint32_t>(256 * 8, 0)));
      job.pushConstants = {256};
      job.groups[0] = 4;
      return job;
    };
    cases.push_back(c);
  }
  {
    // VK_EXT_image_2d_view_of_3d: sampled 2D and 2D array views of depth slices, and a storage 2D view of one.
    ImageCase c;
    c.name = "views_2d_of_3d";
    c.shader = "image_2d_view_of_3d.comp";
    c.tolerance = 2e-3f;
    c.make = [] {
      ComputeJob job;
      const VkSamplerCreateInfo linear =
          Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_NEAREST);
      ImageSpec one = Texture(0, VK_FORMAT_R32G32B32A32_SFLOAT, {8, 8, 8}, 1, linear, 121);
      one.sliceBase = 3, one.sliceCount = 1;
      // The same slice through a 2D array view (every layer coordinate clamps to it): the same samples.
      ImageSpec four = Texture(1, VK_FORMAT_R32G32B32A32_SFLOAT, {8, 8, 8}, 1, linear, 121,
                               VK_IMAGE_VIEW_TYPE_2D_ARRAY);
      four.sliceBase = 3, four.sliceCount = 1;
      ImageSpec target;
      target.binding = 2, target.extent = {8, 8, 4};
      target.sliceBase = 1, target.sliceCount = 1;
      job.images = {one, four, target};
      std::vector<uint32_t> points = Points(64, -0.1f, 1.1f, {0.2f, 1.3f, 2.1f, 3.2f}, 123);
      job.buffers.push_back(Buffer(3, points));
      job.buffers.push_back(Buffer(4, std::vector<uint32_t>(64 * 8, 0)));
      return job;
    };
    // Mesa 22.3's lavapipe gets 2D array views and storage views of 3D slices wrong (its results do not change
    // with the view's first slice), so only the 2D view's samples are compared with it; the array view must
    // give the same samples, and slice 1 of the storage image each invocation's two samples summed.
    c.skipImages = {2};
    c.skipBuffers = {1};
    c.ownCheck = [](const ComputeResult& ours, const ComputeResult& theirs) {
      ASSERT_EQ(ours.images.size(), 3u);
      bool sampled = false;
      for (size_t t = 0; t < 64; ++t)
        for (size_t k = 0; k < 4; ++k) {
          const uint32_t a = ours.buffers[1][0][8 * t + k], b = ours.buffers[1][0][8 * t + 4 + k];
          EXPECT_NEAR(std::bit_cast<float>(a), std::bit_cast<float>(theirs.buffers[1][0][8 * t + k]), 2e-3f);
          EXPECT_EQ(a, b) << "texel " << t;
          sampled = sampled || a != 0;
        }
      EXPECT_TRUE(sampled) << "nothing sampled";
      const std::vector<uint32_t>& target = ours.images[2];
      const std::vector<uint32_t>& results = ours.buffers[1][0];
      ASSERT_EQ(target.size(), 4u * 64 * 4);
      for (size_t w = 0; w < target.size(); ++w) {
        const size_t slice = w / 256, texel = (w % 256) / 4, component = w % 4;
        const float expected = slice != 1 ? 0.0f
                                          : std::bit_cast<float>(results[8 * texel + component]) +
                                                std::bit_cast<float>(results[8 * texel + 4 + component]);
        EXPECT_EQ(std::bit_cast<float>(target[w]), expected) << "word " << w;
      }
    };
    cases.push_back(c);
  }
  {
    ImageCase c;
    c.name = "storage_image_formats";
    c.shader = "image_storage_formats.comp";
    c.tolerance = 1e-3f;
    c.make = [] {
      ComputeJob job;
      auto storage = [](uint32_t binding, VkFormat format, std::vector<uint32_t> contents, uint32_t layers = 1) {
        ImageSpec spec;
        spec.binding = binding;
        spec.type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        spec.format = format;
        spec.extent = {16, 16, 1};
        spec.layers = layers;
        spec.viewType = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
        spec.contents = std::move(contents);
        return spec;
      };
      job.images.push_back(storage(0, VK_FORMAT_R8G8B8A8_UNORM, RandomWords(256, 51)));
      job.images.push_back(storage(1, VK_FORMAT_R32_SFLOAT, RandomFloats(256, -4, 4, 52)));
      job.images.push_back(storage(2, VK_FORMAT_R16G16B16A16_SFLOAT, RandomHalves(512, -2, 2, 53)));
      job.images.push_back(storage(3, VK_FORMAT_R32_UINT, RandomWords(256, 54)));
      job.images.push_back(storage(4, VK_FORMAT_R32G32B32A32_SINT, RandomWords(2048, 55), 2));
      job.buffers.push_back(Buffer(5, RandomFloats(1024, -1.5f, 1.5f, 56)));
      job.buffers.push_back(Buffer(6, std::vector<uint32_t>(1024, 0xdeadbeef)));
      job.groups[0] = 2, job.groups[1] = 2;
      return job;
    };
    cases.push_back(c);
  }
  {
    ImageCase c;
    c.name = "fetches_queries_texel_buffers";
    c.shader = "image_fetch_query.comp";
    c.tolerance = 1e-6f;
    c.make = [] {
      ComputeJob job;
      const VkSamplerCreateInfo nearest =
          Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_NEAREST);
      job.images.push_back(Texture(0, VK_FORMAT_R32G32B32A32_SFLOAT, {16, 16, 1}, 4, nearest, 61));
      auto texels = [](uint32_t binding, VkDescriptorType type, VkFormat format, uint32_t count,
                       std::vector<uint32_t> contents) {
        ImageSpec spec;
        spec.binding = binding;
        spec.type = type;
        spec.format = format;
        spec.extent = {count, 1, 1};
        spec.contents = std::move(contents);
        return spec;
      };
      job.images.push_back(texels(1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_FORMAT_R32G32B32A32_SFLOAT, 256,
                                  RandomFloats(1024, -8, 8, 62)));
      job.images.push_back(texels(2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_FORMAT_R8G8B8A8_UINT, 512,
                                  RandomWords(512, 63)));
      job.images.push_back(texels(3, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, VK_FORMAT_R8G8B8A8_UNORM, 256,
                                  RandomWords(256, 64)));
      job.buffers.push_back(Buffer(4, std::vector<uint32_t>(256 * 16, 0)));
      job.groups[0] = 4;
      return job;
    };
    cases.push_back(c);
  }
  // The shader corpus's image shaders.
  {
    ImageCase c;
    c.name = "corpus_image_blur";
    c.shader = "corpus/image_blur.comp";
    c.tolerance = 2e-3f;
    c.make = [] {
      ComputeJob job;
      ImageSpec src;
      src.binding = 0, src.format = VK_FORMAT_R8G8B8A8_UNORM, src.extent = {64, 48, 1};
      src.contents = RandomWords(64 * 48, 71);
      ImageSpec dst = src;
      dst.binding = 1, dst.format = VK_FORMAT_R16G16B16A16_SFLOAT, dst.contents.clear();
      job.images = {src, dst};
      job.groups[0] = 4, job.groups[1] = 3;
      return job;
    };
    cases.push_back(c);
  }
  {
    ImageCase c;
    c.name = "corpus_image_blur_sampled";
    c.shader = "corpus/image_blur_sampled.comp";
    c.tolerance = 4e-3f;
    c.make = [] {
      ComputeJob job;
      job.images.push_back(Texture(0, VK_FORMAT_R8G8B8A8_UNORM, {40, 24, 1}, 1,
                                   Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                           VK_SAMPLER_MIPMAP_MODE_NEAREST),
                                   72));
      ImageSpec dst;
      dst.binding = 1, dst.format = VK_FORMAT_R32G32B32A32_SFLOAT, dst.extent = {40, 24, 1};
      job.images.push_back(dst);
      job.groups[0] = 5, job.groups[1] = 3;
      return job;
    };
    cases.push_back(c);
  }
  {
    ImageCase c;
    c.name = "corpus_image_atomics";
    c.shader = "corpus/image_atomics.comp";
    c.skipImages = {2};  // first_writer: which invocation wins a compare-exchange depends on execution order
    c.make = [] {
      ComputeJob job;
      job.buffers.push_back(Buffer(0, RandomFloats(4096, 0.0f, 1.0f, 81)));
      auto image = [](uint32_t binding, VkFormat format) {
        ImageSpec spec;
        spec.binding = binding, spec.format = format, spec.extent = {32, 32, 1};
        return spec;
      };
      job.images = {image(1, VK_FORMAT_R32_UINT), image(2, VK_FORMAT_R32_SINT), image(3, VK_FORMAT_R32_UINT)};
      job.groups[0] = 16;
      return job;
    };
    cases.push_back(c);
  }
  {
    ImageCase c;
    c.name = "corpus_texel_buffers";
    c.shader = "corpus/texel_buffers.comp";
    c.tolerance = 1e-5f;
    c.make = [] {
      ComputeJob job;
      ImageSpec lut;
      lut.binding = 0, lut.type = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, lut.format = VK_FORMAT_R32G32B32A32_SFLOAT;
      lut.extent = {64, 1, 1};
      lut.contents = RandomFloats(256, -4, 4, 91);
      ImageSpec values = lut;
      values.binding = 1, values.type = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, values.extent = {1000, 1, 1};
      values.contents = RandomFloats(4000, -0.2f, 1.2f, 92);
      job.images = {lut, values};
      job.groups[0] = 16;
      return job;
    };
    cases.push_back(c);
  }
  {
    ImageCase c;
    c.name = "corpus_mandelbrot";
    c.shader = "corpus/mandelbrot.comp";
    c.tolerance = 1e-6f;
    c.make = [] {
      ComputeJob job;
      job.buffers.push_back(Buffer(0, std::vector<uint32_t>(64 * 48, 0)));
      ImageSpec colour;
      colour.binding = 1, colour.format = VK_FORMAT_R8G8B8A8_UNORM, colour.extent = {64, 48, 1};
      job.images.push_back(colour);
      // A view of the set's outside, where the iteration stays far from the escape radius's rounding cliffs.
      job.pushConstants = {F(-0.6f), F(0.0f), F(3.0f / 64.0f), 48, 64, 48};
      job.groups[0] = 8, job.groups[1] = 6;
      return job;
    };
    cases.push_back(c);
  }
  {
    ImageCase c;
    c.name = "corpus_memory_barriers";
    c.shader = "corpus/memory_barriers.comp";
    // One workgroup, so the flag's final value is known; seen[] still reads the flag while invocation 0 may not
    // have stored it yet (a race the shader has by design), so it is not compared.
    c.skipBuffers = {1};
    c.make = [] {
      ComputeJob job;
      job.buffers.push_back(Buffer(0, std::vector<uint32_t>(1 + 64, 0)));
      job.buffers.push_back(Buffer(2, std::vector<uint32_t>(64, 0)));
      ImageSpec scratch;
      scratch.binding = 1, scratch.format = VK_FORMAT_R32_SFLOAT, scratch.extent = {64, 1, 1};
      job.images.push_back(scratch);
      job.groups[0] = 1;
      return job;
    };
    cases.push_back(c);
  }
  {
    ImageCase c;
    c.name = "float_atomics";
    c.shader = "atomic_float.comp";
    c.make = [] {
      ComputeJob job;
      const uint32_t big = F(1e30f), minusBig = F(-1e30f);
      std::vector<uint32_t> totals = {0, big, minusBig, 0};
      totals.resize(4 + 2 * 16, 0);
      job.buffers.push_back(Buffer(0, totals));
      // Multiples of 1/16 between -32 and 32: every partial sum is exact.
      std::vector<uint32_t> values = RandomWords(1024, 101);
      for (uint32_t& v : values) v = F(static_cast<float>(static_cast<int>(v % 1024) - 512) / 16.0f);
      job.buffers.push_back(Buffer(1, values));
      ImageSpec grid;
      grid.binding = 2, grid.format = VK_FORMAT_R32_SFLOAT, grid.extent = {8, 2, 1};
      grid.contents = std::vector<uint32_t>(8, 0);
      grid.contents.resize(16, minusBig);
      job.images.push_back(grid);
      job.groups[0] = 16;
      return job;
    };
    cases.push_back(c);
  }
  return cases;
}

// Float words within an absolute tolerance (NaNs equal), else bit-exact.
bool Close(uint32_t a, uint32_t b, float tolerance) {
  if (a == b) return true;
  if (tolerance == 0) return false;
  const float x = std::bit_cast<float>(a), y = std::bit_cast<float>(b);
  if (std::isnan(x) && std::isnan(y)) return true;
  return std::isfinite(x) && std::isfinite(y) && std::fabs(x - y) <= tolerance * std::max(1.0f, std::fabs(y));
}

// Image words compared per format: 8-bit components within one step, halves within the tolerance, 32-bit float
// components as floats, integers exactly.
size_t CompareImage(const ImageSpec& spec, const std::vector<uint32_t>& mine, const std::vector<uint32_t>& ref,
                    float tolerance, std::string* first) {
  size_t mismatches = 0;
  for (size_t i = 0; i < mine.size() && i < ref.size(); ++i) {
    bool same = mine[i] == ref[i];
    if (!same) {
      switch (spec.format) {
        case VK_FORMAT_R8G8B8A8_UNORM: case VK_FORMAT_R8G8B8A8_SRGB:
          same = true;
          for (int shift = 0; shift < 32; shift += 8)
            same &= std::abs(static_cast<int>((mine[i] >> shift) & 0xff) - static_cast<int>((ref[i] >> shift) & 0xff)) <= 1;
          break;
        case VK_FORMAT_R16G16B16A16_SFLOAT:
          same = true;
          for (int shift = 0; shift < 32; shift += 16)
            same &= std::abs(static_cast<int>((mine[i] >> shift) & 0xffff) - static_cast<int>((ref[i] >> shift) & 0xffff)) <= 2;
          break;
        case VK_FORMAT_R32G32B32A32_SFLOAT: case VK_FORMAT_R32_SFLOAT: case VK_FORMAT_D32_SFLOAT:
          same = Close(mine[i], ref[i], tolerance);
          break;
        default:
          break;
      }
    }
    if (same) continue;
    if (mismatches++ == 0)
      *first = "word " + std::to_string(i) + ": crashtest " + std::to_string(mine[i]) + ", lavapipe " +
               std::to_string(ref[i]);
  }
  return mismatches;
}

class ImageDifferential : public ::testing::TestWithParam<ImageCase> {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    instance_ = CreateTestInstance(&error);
    ASSERT_NE(instance_, VK_NULL_HANDLE) << error;
    crashtest_ = ComputeDevice::Open(instance_, "crashtest", &error, false, 1).release();
    ASSERT_NE(crashtest_, nullptr) << error;
    lavapipe_ = ComputeDevice::Open(instance_, "llvmpipe", &error, false, 0).release();
    ASSERT_NE(lavapipe_, nullptr) << error;
  }
  static void TearDownTestSuite() {
    delete crashtest_;
    delete lavapipe_;
    crashtest_ = lavapipe_ = nullptr;
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
  static VkInstance instance_;
  static ComputeDevice* crashtest_;
  static ComputeDevice* lavapipe_;
};
VkInstance ImageDifferential::instance_ = VK_NULL_HANDLE;
ComputeDevice* ImageDifferential::crashtest_ = nullptr;
ComputeDevice* ImageDifferential::lavapipe_ = nullptr;

TEST_P(ImageDifferential, SameResultsAsLavapipe) {
  const ImageCase& c = GetParam();
  ASSERT_NE(crashtest_, nullptr);
  ASSERT_NE(lavapipe_, nullptr);
  ComputeJob job = c.make();
  job.spirv = Spirv(c.shader);
  ASSERT_FALSE(job.spirv.empty()) << c.shader;
  const ComputeResult ours = crashtest_->Run(job);
  const ComputeResult theirs = lavapipe_->Run(job);
  ASSERT_EQ(theirs.result, VK_SUCCESS) << "lavapipe: " << theirs.error;
  ASSERT_EQ(ours.result, VK_SUCCESS) << "crashtest: " << ours.error;
  bool changed = false;
  if (c.ownCheck) {
    c.ownCheck(ours, theirs);  // it checks that the shader wrote its results
    changed = true;
  }
  for (size_t b = 0; b < job.buffers.size(); ++b) {
    if (std::find(c.skipBuffers.begin(), c.skipBuffers.end(), b) != c.skipBuffers.end()) continue;
    const std::vector<uint32_t>& mine = ours.buffers[b][0];
    const std::vector<uint32_t>& ref = theirs.buffers[b][0];
    ASSERT_EQ(mine.size(), ref.size());
    size_t mismatches = 0;
    for (size_t i = 0; i < mine.size(); ++i) {
      if (mine[i] != job.buffers[b].contents[0][i]) changed = true;
      if (Close(mine[i], ref[i], c.tolerance)) continue;
      if (++mismatches <= 5)
        ADD_FAILURE() << c.name << ": buffer (binding " << job.buffers[b].binding << ") word " << i
                      << ": crashtest " << std::bit_cast<float>(mine[i]) << " (0x" << std::hex << mine[i]
                      << "), lavapipe " << std::dec << std::bit_cast<float>(ref[i]) << " (0x" << std::hex << ref[i]
                      << ")" << std::dec;
    }
    EXPECT_EQ(mismatches, 0u) << c.name << ": buffer binding " << job.buffers[b].binding;
  }
  ASSERT_EQ(ours.images.size(), job.images.size());
  for (size_t i = 0; i < job.images.size(); ++i) {
    if (std::find(c.skipImages.begin(), c.skipImages.end(), i) != c.skipImages.end()) continue;
    const std::vector<uint32_t>& mine = ours.images[i];
    ASSERT_EQ(mine.size(), theirs.images[i].size());
    for (size_t w = 0; w < mine.size(); ++w)
      if (mine[w] != (w < job.images[i].contents.size() ? job.images[i].contents[w] : 0u)) changed = true;
    std::string first;
    const size_t mismatches = CompareImage(job.images[i], mine, theirs.images[i], c.tolerance, &first);
    EXPECT_EQ(mismatches, 0u) << c.name << ": image binding " << job.images[i].binding << ", first at " << first;
  }
  // The shader must have written something: a skipped dispatch cannot pass.
  EXPECT_TRUE(changed) << c.name << ": nothing changed";
}

std::string CaseName(const ::testing::TestParamInfo<ImageCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Images, ImageDifferential, ::testing::ValuesIn(Cases()), CaseName);

}  // namespace
}  // namespace crashtest::test
