// Compressed formats lavapipe lacks (Mesa 22.3's lavapipe has neither ETC2/EAC nor ASTC), checked on crashtest
// against an independent decoder and against lavapipe sampling what that decoder gives:
// - fetch: every texel of every level (levels whose extent is not a multiple of the block's included) fetched on
//   crashtest through image_fetch_sample.comp, against the same blocks decoded by the reference: Mesa's OpenGL
//   driver for ETC2 and EAC (gl_texture_oracle.h), Arm's astcenc for ASTC (astc_oracle.h);
// - linear: points sampled with a linear filter between texels and levels on crashtest, against lavapipe sampling
//   an R32G32B32A32_SFLOAT image that holds the reference's decoded texels.
// ETC2/EAC blocks are pseudo-random bytes with their mode fields set so that every mode appears: individual,
// differential, T, H and planar modes, opaque and punch-through, EAC multipliers of zero and signed bases of -128.
// ASTC blocks are astcenc's encoding of a varied image (partitions, dual planes, every endpoint mode its encoder
// picks), with every eighth block replaced by random bytes (mostly error blocks) and every eighth by a
// constant-colour (void-extent) block.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "astc_oracle.h"
#include "gl_texture_oracle.h"
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

constexpr VkExtent3D kExtent{36, 20, 1};  // levels 36x20, 18x10 and 9x5: the last two end in partial blocks
constexpr uint32_t kLevels = 3;

enum class Kind { kRgb, kPunchThrough, kRgba, kEac, kEacSigned, kAstc };

struct OracleCase {
  std::string name;
  VkFormat format;
  uint32_t glFormat;  // ETC2/EAC: the GL_COMPRESSED_* enum of the same format
  Kind kind;
  bool srgb;
  bool linear;  // sample points with a linear filter (against lavapipe); otherwise fetch every texel
};

void PrintTo(const OracleCase& c, std::ostream* os) { *os << c.name; }

// ETC2 and EAC words are big-endian 64-bit integers.
uint64_t Load(const uint8_t* b) {
  uint64_t w = 0;
  for (int i = 0; i < 8; ++i) w = (w << 8) | b[i];
  return w;
}
void Save(uint64_t w, uint8_t* b) {
  for (int i = 7; i >= 0; --i, w >>= 8) b[i] = static_cast<uint8_t>(w & 0xffu);
}
void Set(uint64_t& w, int high, int low, uint64_t value) {
  const uint64_t mask = ((uint64_t{1} << (high - low + 1)) - 1) << low;
  w = (w & ~mask) | ((value << low) & mask);
}

// One 5-bit base and 3-bit delta pair (at bits high..high-7) whose sum is inside [0, 31] or not.
void BaseAndDelta(uint64_t& w, int high, bool inside, Random& random) {
  if (inside) {
    Set(w, high, high - 4, 4 + random.Next() % 24);  // 4..27: any delta stays inside
  } else if (random.Next() % 2 == 0) {
    Set(w, high, high - 4, 31 - random.Next() % 2), Set(w, high - 5, high - 7, 2 + random.Next() % 2);
  } else {
    Set(w, high, high - 4, random.Next() % 2), Set(w, high - 5, high - 7, 4 + random.Next() % 2);  // -4 or -3
  }
}

// An ETC2 colour block in mode `mode` (0 individual, 1 differential, 2 T, 3 H, 4 planar); punch-through blocks have
// no individual mode, and bit 33 is their opaque bit (random).
void ColourBlock(uint8_t* b, uint32_t mode, bool punchThrough, Random& random) {
  uint64_t w = Load(b);
  if (punchThrough) {
    mode = 1 + mode % 4;
    Set(w, 33, 33, random.Next() % 2);
  } else {
    Set(w, 33, 33, mode == 0 ? 0 : 1);
  }
  if (mode != 0) {
    BaseAndDelta(w, 63, mode != 2, random);
    if (mode != 2) BaseAndDelta(w, 55, mode != 3, random);
    if (mode == 1 || mode == 4) BaseAndDelta(w, 47, mode != 4, random);
  }
  Save(w, b);
}

// An EAC block: every fourth with a multiplier of zero, every fifth signed one with a base of -128.
void EacBlock(uint8_t* b, uint32_t index, bool isSigned) {
  if (index % 4 == 0) b[1] &= 0x0f;
  if (isSigned && index % 5 == 0) b[0] = 0x80;
}

void MakeBlock(Kind kind, uint32_t index, Random& random, uint8_t* block, uint32_t bytes) {
  for (uint32_t i = 0; i < bytes; ++i) block[i] = static_cast<uint8_t>(random.Next());
  switch (kind) {
    case Kind::kRgb: ColourBlock(block, index % 5, false, random); break;
    case Kind::kPunchThrough: ColourBlock(block, index % 4, true, random); break;
    case Kind::kRgba:
      EacBlock(block, index, false);
      ColourBlock(block + 8, index % 5, false, random);
      break;
    case Kind::kEac: case Kind::kEacSigned:
      for (uint32_t half = 0; half < bytes; half += 8) EacBlock(block + half, index + half, kind == Kind::kEacSigned);
      break;
    case Kind::kAstc:
      break;  // AstcBlocks
  }
}

// A level's worth of test image for the ASTC encoder: gradients, noise and hard-edged patches of a few colours (so
// that the encoder picks partitions), alpha varying over half of it.
std::vector<uint8_t> AstcSource(uint32_t width, uint32_t height, Random& random) {
  std::vector<uint8_t> rgba(size_t{width} * height * 4);
  const uint8_t patches[4][4] = {{250, 20, 30, 255}, {10, 200, 240, 255}, {128, 128, 128, 40}, {5, 5, 5, 255}};
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* p = &rgba[(size_t{y} * width + x) * 4];
      const uint32_t style = (x / 7 + y / 5) % 3;
      for (uint32_t c = 0; c < 4; ++c) {
        uint32_t v = style == 0 ? (x * 9 + y * 5 + c * 60) & 0xffu
                   : style == 1 ? patches[(x / 3 + y / 2 + (random.Next() % 8 == 0)) % 4][c]
                                : random.Next() & 0xffu;
        if (c == 3 && x < width / 2) v = 255;
        p[c] = static_cast<uint8_t>(v);
      }
    }
  return rgba;
}

std::vector<uint8_t> AstcBlocks(const ImageSpec& spec, bool srgb, uint64_t seed, std::string* error) {
  Random random(seed);
  const VkExtent2D block = CompressedBlockExtent(spec.format);
  std::vector<uint8_t> bytes;
  for (uint32_t level = 0; level < spec.levels; ++level) {
    const VkExtent3D e = LevelExtent(spec, level);
    std::vector<uint8_t> blocks =
        AstcEncode(block.width, block.height, srgb, e.width, e.height, AstcSource(e.width, e.height, random), error);
    if (blocks.empty()) return {};
    for (size_t b = 0; b < blocks.size() / 16; ++b) {
      uint8_t* at = &blocks[b * 16];
      if (b % 8 == 3) {
        for (int i = 0; i < 16; ++i) at[i] = static_cast<uint8_t>(random.Next());
      } else if (b % 8 == 6) {
        // A 2D void-extent block: bits 8..0 = 111111100, bit 9 (HDR) 0, bits 10-11 1, extents all ones (a plain
        // constant-colour block), then R, G, B and A as UNORM16.
        uint64_t lo = 0x1fcu | 0xc00u | (uint64_t{0xfffffffffffffu} << 12);
        uint64_t hi = 0;
        for (int c = 0; c < 4; ++c) hi |= uint64_t{random.Next() & 0xffffu} << (16 * c);
        std::memcpy(at, &lo, 8), std::memcpy(at + 8, &hi, 8);
      }
    }
    bytes.insert(bytes.end(), blocks.begin(), blocks.end());
  }
  return bytes;
}

std::vector<uint8_t> Blocks(const ImageSpec& spec, Kind kind, uint64_t seed) {
  Random random(seed);
  const uint32_t blockBytes = CompressedBlockBytes(spec.format);
  std::vector<uint8_t> bytes;
  uint32_t b = 0;
  for (uint32_t level = 0; level < spec.levels; ++level) {
    const size_t blocks = LevelBytes(spec, level) / blockBytes;
    for (size_t i = 0; i < blocks; ++i, ++b) {
      bytes.resize(bytes.size() + blockBytes);
      MakeBlock(kind, b, random, bytes.data() + bytes.size() - blockBytes, blockBytes);
    }
  }
  return bytes;
}

std::vector<uint32_t> Words(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> words((bytes.size() + 3) / 4, 0);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

float SrgbToLinear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }

// Every level decoded by OpenGL, as the shader reads it (sRGB colour components made linear), levels one after the
// other, rows of RGBA floats.
std::vector<float> Reference(GlTextureOracle& gl, const OracleCase& c, const ImageSpec& spec,
                             const std::vector<uint8_t>& blocks, std::string* error) {
  std::vector<float> all;
  size_t offset = 0;
  for (uint32_t level = 0; level < spec.levels; ++level) {
    const VkExtent3D e = LevelExtent(spec, level);
    const size_t bytes = LevelBytes(spec, level);
    const VkExtent2D block = CompressedBlockExtent(c.format);
    std::vector<float> texels =
        c.kind == Kind::kAstc
            ? AstcDecode(block.width, block.height, c.srgb, e.width, e.height, blocks.data() + offset, bytes, error)
            : gl.Decode(c.glFormat, e.width, e.height, blocks.data() + offset, static_cast<uint32_t>(bytes), error);
    if (texels.empty()) return {};
    offset += bytes;
    if (c.srgb)
      for (size_t i = 0; i < texels.size(); ++i)
        if (i % 4 != 3) texels[i] = SrgbToLinear(texels[i]);
    // "For linear RGB decode, the error color may be either opaque fully-saturated magenta ... or a vector of four
    // NaNs": astcenc returns the NaNs for UNORM formats, crashtest the magenta of the sRGB formats.
    if (c.kind == Kind::kAstc && !c.srgb)
      for (size_t i = 0; i < texels.size(); i += 4)
        if (std::isnan(texels[i]) && std::isnan(texels[i + 1]) && std::isnan(texels[i + 2]) &&
            std::isnan(texels[i + 3]))
          texels[i] = 1.0f, texels[i + 1] = 0.0f, texels[i + 2] = 1.0f, texels[i + 3] = 1.0f;
    all.insert(all.end(), texels.begin(), texels.end());
  }
  return all;
}

// Every texel of every level as a fetch point (w = -1).
std::vector<uint32_t> FetchPoints() {
  std::vector<uint32_t> out;
  for (uint32_t level = 0; level < kLevels; ++level) {
    const uint32_t w = std::max(1u, kExtent.width >> level), h = std::max(1u, kExtent.height >> level);
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x)
        for (float v : {static_cast<float>(x), static_cast<float>(y), static_cast<float>(level), -1.0f})
          out.push_back(F(v));
  }
  return out;
}

// Sample points across (and past, wrapping) the texture at LODs away from the nearest-mipmap .5 boundaries.
std::vector<uint32_t> SamplePoints(uint32_t count, uint64_t seed) {
  Random random(seed);
  const float lods[] = {0.0f, 0.2f, 0.8f, 1.1f, 1.3f, 1.9f, 2.2f};
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < count; ++i)
    for (float v : {random.Uniform(-0.3f, 1.3f), random.Uniform(-0.3f, 1.3f), lods[random.Next() % 7], 0.0f})
      out.push_back(F(v));
  return out;
}

ComputeJob MakeJob(const ImageSpec& texture, const std::vector<uint32_t>& points) {
  ComputeJob job;
  job.images.push_back(texture);
  const uint32_t count = static_cast<uint32_t>(points.size() / 4);
  BufferSpec in, out;
  in.binding = 1, in.contents.push_back(points);
  out.binding = 2, out.contents.push_back(std::vector<uint32_t>(points.size(), F(-7.0f)));
  job.buffers = {in, out};
  job.pushConstants = {count};
  job.groups[0] = (count + 63) / 64;
  job.spirv = ReadSpirv(std::string(CRASHTEST_EXECUTION_SHADER_DIR) + "/image_fetch_sample.comp.spv");
  return job;
}

std::vector<OracleCase> Etc2Formats() {
  return {
      {"etc2_rgb8_unorm", VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, 0x9274, Kind::kRgb, false, false},
      {"etc2_rgb8_srgb", VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK, 0x9275, Kind::kRgb, true, false},
      {"etc2_rgb8a1_unorm", VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, 0x9276, Kind::kPunchThrough, false, false},
      {"etc2_rgb8a1_srgb", VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK, 0x9277, Kind::kPunchThrough, true, false},
      {"etc2_rgba8_unorm", VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, 0x9278, Kind::kRgba, false, false},
      {"etc2_rgba8_srgb", VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, 0x9279, Kind::kRgba, true, false},
      {"eac_r11_unorm", VK_FORMAT_EAC_R11_UNORM_BLOCK, 0x9270, Kind::kEac, false, false},
      {"eac_r11_snorm", VK_FORMAT_EAC_R11_SNORM_BLOCK, 0x9271, Kind::kEacSigned, false, false},
      {"eac_rg11_unorm", VK_FORMAT_EAC_R11G11_UNORM_BLOCK, 0x9272, Kind::kEac, false, false},
      {"eac_rg11_snorm", VK_FORMAT_EAC_R11G11_SNORM_BLOCK, 0x9273, Kind::kEacSigned, false, false},
  };
}

std::vector<OracleCase> AstcFormats() {
  std::vector<OracleCase> formats;
  const char* sizes[14] = {"4x4", "5x4", "5x5", "6x5", "6x6", "8x5", "8x6", "8x8", "10x5", "10x6", "10x8", "10x10",
                           "12x10", "12x12"};
  for (int i = 0; i < 14; ++i)
    for (int srgb = 0; srgb < 2; ++srgb)
      formats.push_back({std::string("astc_") + sizes[i] + (srgb ? "_srgb" : "_unorm"),
                         static_cast<VkFormat>(VK_FORMAT_ASTC_4x4_UNORM_BLOCK + 2 * i + srgb), 0, Kind::kAstc,
                         srgb != 0, false});
  return formats;
}

std::vector<OracleCase> Cases(const std::vector<OracleCase>& formats) {
  std::vector<OracleCase> cases;
  for (OracleCase c : formats) {
    const std::string name = c.name;
    c.name = name + "_fetch";
    cases.push_back(c);
    c.name = name + "_linear", c.linear = true;
    cases.push_back(c);
  }
  return cases;
}

bool Close(uint32_t a, uint32_t b, float tolerance) {
  if (a == b) return true;
  const float x = std::bit_cast<float>(a), y = std::bit_cast<float>(b);
  return std::isfinite(x) && std::isfinite(y) && std::fabs(x - y) <= tolerance * std::max(1.0f, std::fabs(y));
}

class CompressedImages : public ::testing::TestWithParam<OracleCase> {
 protected:
  static void SetUpTestSuite() {
    // The Mali-G78 profile lists textureCompressionETC2 and _ASTC_LDR and their formats (the default device does
    // not).
    setenv("CRASHTEST_CONFIG", CRASHTEST_EXECUTION_DATA_DIR "/mali_device.json", 1);
    std::string error;
    instance_ = CreateTestInstance(&error);
    unsetenv("CRASHTEST_CONFIG");
    ASSERT_NE(instance_, VK_NULL_HANDLE) << error;
    crashtest_ = ComputeDevice::Open(instance_, "Mali-G78", &error, false, 1).release();
    ASSERT_NE(crashtest_, nullptr) << error;
    lavapipe_ = ComputeDevice::Open(instance_, "llvmpipe", &error, false, 0).release();
    ASSERT_NE(lavapipe_, nullptr) << error;
    gl_ = GlTextureOracle::Create(&error).release();
    ASSERT_NE(gl_, nullptr) << error;
  }
  static void TearDownTestSuite() {
    delete crashtest_;
    delete lavapipe_;
    delete gl_;
    crashtest_ = lavapipe_ = nullptr;
    gl_ = nullptr;
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
  static VkInstance instance_;
  static ComputeDevice* crashtest_;
  static ComputeDevice* lavapipe_;
  static GlTextureOracle* gl_;
};
VkInstance CompressedImages::instance_ = VK_NULL_HANDLE;
ComputeDevice* CompressedImages::crashtest_ = nullptr;
ComputeDevice* CompressedImages::lavapipe_ = nullptr;
GlTextureOracle* CompressedImages::gl_ = nullptr;

TEST_P(CompressedImages, SameTexelsAsMesa) {
  const OracleCase& c = GetParam();
  ASSERT_NE(crashtest_, nullptr);
  ASSERT_NE(lavapipe_, nullptr);
  ASSERT_NE(gl_, nullptr);
  ImageSpec texture;
  texture.binding = 0;
  texture.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  texture.format = c.format;
  texture.extent = kExtent;
  texture.levels = kLevels;
  VkSamplerCreateInfo& sampler = texture.sampler;
  sampler.magFilter = sampler.minFilter = c.linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sampler.maxLod = 1000.0f;
  std::string error;
  const uint64_t seed = 1 + static_cast<uint64_t>(c.format);
  const std::vector<uint8_t> blocks =
      c.kind == Kind::kAstc ? AstcBlocks(texture, c.srgb, seed, &error) : Blocks(texture, c.kind, seed);
  ASSERT_FALSE(blocks.empty()) << error;
  texture.contents = Words(blocks);
  const std::vector<float> decoded = Reference(*gl_, c, texture, blocks, &error);
  ASSERT_FALSE(decoded.empty()) << error;

  const std::vector<uint32_t> points = c.linear ? SamplePoints(512, 7) : FetchPoints();
  const ComputeJob job = MakeJob(texture, points);
  ASSERT_FALSE(job.spirv.empty());
  const ComputeResult ours = crashtest_->Run(job);
  ASSERT_EQ(ours.result, VK_SUCCESS) << "crashtest: " << ours.error;
  const std::vector<uint32_t>& mine = ours.buffers[1][0];

  std::vector<uint32_t> ref;
  // EAC is defined to 11 bits, which OpenGL reads back through 16-bit formats (bit replication: below 3e-5 apart);
  // the 8-bit ETC2 and sRGB ASTC values agree to rounding of the division by 255 and of the sRGB curve, UNORM ASTC's
  // FP16 results exactly.
  float tolerance = c.kind == Kind::kEac || c.kind == Kind::kEacSigned ? 1e-4f : 2e-6f;
  if (!c.linear) {
    for (float v : decoded) ref.push_back(F(v));
  } else {
    // lavapipe samples the decoded texels from a float image with the same sampler; its filter works with 8-bit
    // weights (as in image_differential_test.cpp).
    ImageSpec floats = texture;
    floats.format = VK_FORMAT_R32G32B32A32_SFLOAT;
    floats.contents.clear();
    for (float v : decoded) floats.contents.push_back(F(v));
    const ComputeResult theirs = lavapipe_->Run(MakeJob(floats, points));
    ASSERT_EQ(theirs.result, VK_SUCCESS) << "lavapipe: " << theirs.error;
    ref = theirs.buffers[1][0];
    tolerance = 6e-3f;
  }
  ASSERT_EQ(mine.size(), ref.size());
  size_t mismatches = 0, untouched = 0;
  for (size_t i = 0; i < mine.size(); ++i) {
    if (mine[i] == F(-7.0f)) ++untouched;
    if (Close(mine[i], ref[i], tolerance)) continue;
    if (++mismatches <= 8)
      ADD_FAILURE() << c.name << ": point " << i / 4 << " component " << i % 4 << ": crashtest "
                    << std::bit_cast<float>(mine[i]) << " (0x" << std::hex << mine[i] << "), reference " << std::dec
                    << std::bit_cast<float>(ref[i]) << " (0x" << std::hex << ref[i] << ")" << std::dec;
  }
  EXPECT_EQ(mismatches, 0u) << c.name << " of " << mine.size() << " words";
  // A skipped dispatch leaves the sentinel everywhere: it cannot pass.
  EXPECT_EQ(untouched, 0u) << c.name << ": the dispatch did not run";
}

std::string CaseName(const ::testing::TestParamInfo<OracleCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Etc2, CompressedImages, ::testing::ValuesIn(Cases(Etc2Formats())), CaseName);
INSTANTIATE_TEST_SUITE_P(Astc, CompressedImages, ::testing::ValuesIn(Cases(AstcFormats())), CaseName);

}  // namespace
}  // namespace crashtest::test
