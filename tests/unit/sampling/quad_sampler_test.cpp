// The quad sampler must give Sample's bits (quad_sampler.h): the same texture sampled both ways, over random
// coordinates, levels of detail, filters, mipmap modes, address modes and formats, must agree exactly — the quad
// path's four-wide kernels, its per-quad level choice and its decoders are only a faster route to the same values.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <vector>

#include "sampling/quad_sampler.h"
#include "sampling/quad_trilinear_unorm8.h"
#include "sampling/sampler.h"

namespace crashtest::sampling {
namespace {

struct Texture {
  std::vector<std::byte> bytes;
  ImageDescriptor image;
};

// A mipmapped 2D texture of `format` (texelBytes per texel) with random contents, `width` x `height` at level 0.
Texture MakeTexture(VkFormat format, uint32_t texelBytes, uint32_t width, uint32_t height, uint32_t levels,
                    std::mt19937& random) {
  Texture t;
  uint64_t total = 0;
  for (uint32_t l = 0, w = width, h = height; l < levels; ++l, w = std::max(w / 2, 1u), h = std::max(h / 2, 1u))
    total += uint64_t{w} * h * texelBytes;
  t.bytes.resize(total);
  for (std::byte& b : t.bytes) b = static_cast<std::byte>(random() & 0xff);
  if (format == VK_FORMAT_R32G32B32A32_SFLOAT) {
    // Finite floats in [-2, 2], so NaN payloads do not enter the comparison.
    std::uniform_real_distribution<float> value(-2.0f, 2.0f);
    for (size_t i = 0; i + 4 <= t.bytes.size(); i += 4) {
      const float f = value(random);
      std::memcpy(&t.bytes[i], &f, 4);
    }
  }
  ImageDescriptor& image = t.image;
  image.bound = true;
  image.format = format;
  image.codec = format::ColorCodec(format);
  image.kind = format::ValueKind::kFloat;
  image.texelBytes = texelBytes;
  image.levels = levels;
  image.layers = 1;
  uint64_t offset = 0;
  for (uint32_t l = 0, w = width, h = height; l < levels; ++l, w = std::max(w / 2, 1u), h = std::max(h / 2, 1u)) {
    LevelView& v = image.level[l];
    v.base = t.bytes.data() + offset;
    v.width = w, v.height = h, v.depth = 1;
    v.rowPitch = uint64_t{w} * texelBytes;
    v.depthPitch = v.layerPitch = v.rowPitch * h;
    offset += v.layerPitch;
  }
  return t;
}

// Once with the eight-wide RGBA8 kernel (quad_trilinear_unorm8.h; taken where the CPU has AVX2) and once with the
// portable four-wide path it replaces.
class QuadSampler : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override { EnableQuadKernelForTesting(GetParam()); }
  void TearDown() override { EnableQuadKernelForTesting(true); }
};

TEST_P(QuadSampler, GivesSampleBitsForEveryLane) {
  std::mt19937 random(42);
  const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB,
                              VK_FORMAT_R8G8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT};
  const uint32_t texelBytes[] = {4, 4, 4, 2, 16};
  const VkSamplerAddressMode modes[] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
                                        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                        VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE};
  std::uniform_real_distribution<float> coordinate(-3.0f, 3.0f), lod(-2.0f, 7.0f), jitter(-0.01f, 0.01f);
  uint32_t compared = 0;
  for (size_t f = 0; f < std::size(formats); ++f) {
    for (const uint32_t width : {64u, 48u}) {  // a power of two and not (the masked and the divided wrap)
      Texture texture = MakeTexture(formats[f], texelBytes[f], width, 32, 6, random);
      for (int round = 0; round < 400; ++round) {
        SamplerDescriptor sampler;
        sampler.bound = true;
        sampler.magFilter = random() & 1 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
        sampler.minFilter = random() & 1 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
        sampler.mipmapMode = random() & 1 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
        sampler.address[0] = modes[random() % 4];
        sampler.address[1] = modes[random() % 4];
        sampler.maxLod = 1000.0f;
        sampler.maxLodBias = 16.0f;
        sampler.mipLodBias = round % 3 == 0 ? 0.75f : 0.0f;
        ASSERT_TRUE(QuadSamplable(texture.image, sampler));
        // Every seventh round a view swizzle (BGR and a constant one), which the kernel's caller applies.
        const uint8_t identity[4] = {0, 1, 2, 3}, swizzled[4] = {2, 1, 0, kSwizzleOne};
        std::memcpy(texture.image.swizzle, round % 7 == 3 ? swizzled : identity, 4);
        const float lambda = lod(random);
        float s[4], t[4];
        const float s0 = coordinate(random), t0 = coordinate(random);
        for (int i = 0; i < 4; ++i) s[i] = s0 + jitter(random), t[i] = t0 + jitter(random);
        const uint32_t lanes = round % 5 == 0 ? static_cast<uint32_t>(random() & 0xf) : 0xfu;
        float quad[4][4] = {};
        SampleQuad(texture.image, sampler, lambda, 0, lanes, s, t, quad);
        for (uint32_t i = 0; i < 4; ++i) {
          if ((lanes >> i & 1) == 0) continue;
          SampleRequest request;
          request.coord[0] = s[i], request.coord[1] = t[i];
          request.lod = lambda;
          const Texel texel = Sample(texture.image, sampler, request);
          for (int c = 0; c < 4; ++c)
            ASSERT_EQ(std::bit_cast<uint32_t>(quad[c][i]), texel.v[c])
                << "format " << formats[f] << " width " << width << " round " << round << " lane " << i
                << " component " << c << ": " << quad[c][i] << " vs " << std::bit_cast<float>(texel.v[c]);
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 3000u);
}

// A subgroup's quads in one batch (SampleFullQuads, strided rows) must give SampleQuad's bits quad for quad,
// also for quads the kernel does not take (NEAREST at their λ, levels a REPEAT mask cannot wrap).
TEST_P(QuadSampler, BatchGivesSampleQuadBits) {
  std::mt19937 random(5);
  const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM};
  std::uniform_real_distribution<float> coordinate(-3.0f, 3.0f), lod(-2.0f, 7.0f), jitter(-0.02f, 0.02f);
  uint32_t batches = 0;
  for (const VkFormat format : formats) {
    for (const uint32_t width : {64u, 48u}) {
      Texture texture = MakeTexture(format, 4, width, 32, 6, random);
      for (int round = 0; round < 100; ++round) {
        SamplerDescriptor sampler;
        sampler.bound = true;
        sampler.magFilter = VK_FILTER_LINEAR;
        sampler.minFilter = round % 4 == 0 ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
        sampler.mipmapMode = round % 3 == 0 ? VK_SAMPLER_MIPMAP_MODE_NEAREST : VK_SAMPLER_MIPMAP_MODE_LINEAR;
        sampler.address[0] = round % 2 == 0 ? VK_SAMPLER_ADDRESS_MODE_REPEAT : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        sampler.address[1] = VK_SAMPLER_ADDRESS_MODE_REPEAT;
        sampler.maxLod = 1000.0f;
        sampler.maxLodBias = 16.0f;
        constexpr uint32_t kQuads = 4, kStride = 4 * kQuads;
        float s[kStride], t[kStride], lambda[kQuads];
        for (uint32_t q = 0; q < kQuads; ++q) {
          lambda[q] = lod(random);
          const float s0 = coordinate(random), t0 = coordinate(random);
          for (uint32_t i = 0; i < 4; ++i) s[4 * q + i] = s0 + jitter(random), t[4 * q + i] = t0 + jitter(random);
        }
        QuadKernelImage kernel;
        PrepareQuadKernel(texture.image, sampler, 0, &kernel);
        float batch[4 * kStride] = {};
        if (!SampleFullQuads(texture.image, sampler, kernel, lambda, kQuads, s, t, batch, kStride)) {
          EXPECT_FALSE(GetParam() && kernel.available) << "the batch refused a case it takes";
          continue;
        }
        ++batches;
        for (uint32_t q = 0; q < kQuads; ++q) {
          float quad[4][4];
          SampleQuad(texture.image, sampler, lambda[q], 0, 0xf, s + 4 * q, t + 4 * q, quad);
          for (uint32_t c = 0; c < 4; ++c)
            for (uint32_t i = 0; i < 4; ++i)
              ASSERT_EQ(std::bit_cast<uint32_t>(batch[c * kStride + 4 * q + i]), std::bit_cast<uint32_t>(quad[c][i]))
                  << "format " << format << " width " << width << " round " << round << " quad " << q;
        }
      }
    }
  }
  if (GetParam()) {
    QuadKernelImage probe;
    PrepareQuadKernel(MakeTexture(VK_FORMAT_R8G8B8A8_UNORM, 4, 8, 8, 1, random).image, SamplerDescriptor{}, 0, &probe);
    EXPECT_EQ(batches > 0, probe.available);  // on a CPU without AVX2 the batch never runs
  }
}

INSTANTIATE_TEST_SUITE_P(Kernel, QuadSampler, testing::Values(true, false),
                         [](const testing::TestParamInfo<bool>& info) { return info.param ? "Fast" : "Portable"; });

}  // namespace
}  // namespace crashtest::sampling
