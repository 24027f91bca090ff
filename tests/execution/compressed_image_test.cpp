// Block-compressed textures (BC1-BC7) on crashtest and on Mesa's lavapipe (the oracle), through
// image_fetch_sample.comp: every texel of every level fetched (levels whose extent is not a multiple of 4
// included), then points sampled with a linear filter between texels and levels. The blocks are pseudo-random bytes
// with their mode fields set so that every mode appears: BC1's four- and three-colour blocks, BC4/BC5's eight- and
// six-value blocks, BC7 modes 0-7, and all fourteen BC6H modes, signed and unsigned.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
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

constexpr VkExtent3D kExtent{36, 20, 1};  // levels 36x20, 18x10 and 9x5: the last two end in partial blocks
constexpr uint32_t kLevels = 3;

// An 8-byte colour or channel block whose two endpoints are ordered as `firstGreater` asks (BC1's four-colour
// mode and BC4's eight-value mode when the first is greater). Endpoints are 16-bit (BC1) or 8-bit (RGTC).
void OrderEndpoints(uint8_t* block, bool sixteenBit, bool isSigned, bool firstGreater) {
  if (sixteenBit) {
    uint16_t a, b;
    std::memcpy(&a, block, 2), std::memcpy(&b, block + 2, 2);
    if ((a > b) != firstGreater) std::swap(a, b);
    if (a == b && firstGreater) a = static_cast<uint16_t>(b + 1);
    std::memcpy(block, &a, 2), std::memcpy(block + 2, &b, 2);
    return;
  }
  auto value = [&](uint8_t v) { return isSigned ? static_cast<int>(static_cast<int8_t>(v)) : static_cast<int>(v); };
  if ((value(block[0]) > value(block[1])) != firstGreater) std::swap(block[0], block[1]);
  if (value(block[0]) == value(block[1]) && firstGreater) block[0] = static_cast<uint8_t>(block[0] ^ 1u);
  if ((value(block[0]) > value(block[1])) != firstGreater) std::swap(block[0], block[1]);
}

// BC6H mode values (the low 2 or 5 bits of the block).
constexpr uint8_t kBc6hModes[14] = {0x00, 0x01, 0x02, 0x06, 0x0a, 0x0e, 0x12, 0x16, 0x1a, 0x1e, 0x03, 0x07, 0x0b, 0x0f};

// Block b of a texture of `format`, its mode chosen by b.
void MakeBlock(VkFormat format, uint32_t b, Random& random, uint8_t* block, uint32_t bytes) {
  for (uint32_t i = 0; i < bytes; ++i) block[i] = static_cast<uint8_t>(random.Next());
  const bool odd = (b % 2) != 0;
  switch (format) {
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK: case VK_FORMAT_BC1_RGB_SRGB_BLOCK: case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
      OrderEndpoints(block, true, false, !odd);
      break;
    case VK_FORMAT_BC3_UNORM_BLOCK: case VK_FORMAT_BC3_SRGB_BLOCK: case VK_FORMAT_BC4_UNORM_BLOCK:
      OrderEndpoints(block, false, false, !odd);
      break;
    case VK_FORMAT_BC4_SNORM_BLOCK:
      OrderEndpoints(block, false, true, !odd);
      break;
    case VK_FORMAT_BC5_UNORM_BLOCK: case VK_FORMAT_BC5_SNORM_BLOCK: {
      const bool isSigned = format == VK_FORMAT_BC5_SNORM_BLOCK;
      OrderEndpoints(block, false, isSigned, !odd);
      OrderEndpoints(block + 8, false, isSigned, (b / 2) % 2 == 0);
      break;
    }
    case VK_FORMAT_BC6H_UFLOAT_BLOCK: case VK_FORMAT_BC6H_SFLOAT_BLOCK: {
      const uint8_t mode = kBc6hModes[b % 14];
      const uint8_t mask = mode < 2 ? 0x03 : 0x1f;
      block[0] = static_cast<uint8_t>((block[0] & ~mask) | mode);
      break;
    }
    case VK_FORMAT_BC7_UNORM_BLOCK: case VK_FORMAT_BC7_SRGB_BLOCK: {
      const uint32_t mode = b % 8;  // mode m: m zero bits, then a one
      block[0] = static_cast<uint8_t>(((block[0] << (mode + 1)) | (1u << mode)) & 0xffu);
      break;
    }
    default:
      break;  // BC2: every bit pattern is a four-colour block with explicit alpha
  }
}

std::vector<uint32_t> Blocks(const ImageSpec& spec, uint64_t seed) {
  Random random(seed);
  const uint32_t blockBytes = CompressedBlockBytes(spec.format);
  std::vector<uint8_t> bytes;
  uint32_t b = 0;
  for (uint32_t level = 0; level < spec.levels; ++level) {
    const size_t blocks = LevelBytes(spec, level) / blockBytes;
    for (size_t i = 0; i < blocks; ++i, ++b) {
      bytes.resize(bytes.size() + blockBytes);
      MakeBlock(spec.format, b, random, bytes.data() + bytes.size() - blockBytes, blockBytes);
    }
  }
  std::vector<uint32_t> words((bytes.size() + 3) / 4, 0);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
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

struct CompressedCase {
  std::string name;
  VkFormat format;
  bool linear;        // sample points with a linear filter; otherwise fetch every texel
  float tolerance;    // relative above 1, absolute below
};

void PrintTo(const CompressedCase& c, std::ostream* os) { *os << c.name; }

ComputeJob MakeJob(const CompressedCase& c) {
  ComputeJob job;
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
  texture.contents = Blocks(texture, 1 + static_cast<uint64_t>(c.format));
  job.images.push_back(texture);
  std::vector<uint32_t> points = c.linear ? SamplePoints(512, 7) : FetchPoints();
  const uint32_t count = static_cast<uint32_t>(points.size() / 4);
  BufferSpec in, out;
  in.binding = 1, in.contents.push_back(points);
  out.binding = 2, out.contents.push_back(std::vector<uint32_t>(points.size(), F(-7.0f)));
  job.buffers = {in, out};
  job.pushConstants = {count};
  job.groups[0] = (count + 63) / 64;
  return job;
}

bool Close(uint32_t a, uint32_t b, float tolerance) {
  if (a == b) return true;
  if (tolerance == 0) return false;
  const float x = std::bit_cast<float>(a), y = std::bit_cast<float>(b);
  return std::isfinite(x) && std::isfinite(y) && std::fabs(x - y) <= tolerance * std::max(1.0f, std::fabs(y));
}

std::vector<CompressedCase> Cases() {
  struct Format {
    const char* name;
    VkFormat format;
  };
  const Format formats[] = {
      {"bc1_rgb_unorm", VK_FORMAT_BC1_RGB_UNORM_BLOCK},   {"bc1_rgb_srgb", VK_FORMAT_BC1_RGB_SRGB_BLOCK},
      {"bc1_rgba_unorm", VK_FORMAT_BC1_RGBA_UNORM_BLOCK}, {"bc1_rgba_srgb", VK_FORMAT_BC1_RGBA_SRGB_BLOCK},
      {"bc2_unorm", VK_FORMAT_BC2_UNORM_BLOCK},           {"bc2_srgb", VK_FORMAT_BC2_SRGB_BLOCK},
      {"bc3_unorm", VK_FORMAT_BC3_UNORM_BLOCK},           {"bc3_srgb", VK_FORMAT_BC3_SRGB_BLOCK},
      {"bc4_unorm", VK_FORMAT_BC4_UNORM_BLOCK},           {"bc4_snorm", VK_FORMAT_BC4_SNORM_BLOCK},
      {"bc5_unorm", VK_FORMAT_BC5_UNORM_BLOCK},           {"bc5_snorm", VK_FORMAT_BC5_SNORM_BLOCK},
      {"bc6h_ufloat", VK_FORMAT_BC6H_UFLOAT_BLOCK},       {"bc6h_sfloat", VK_FORMAT_BC6H_SFLOAT_BLOCK},
      {"bc7_unorm", VK_FORMAT_BC7_UNORM_BLOCK},           {"bc7_srgb", VK_FORMAT_BC7_SRGB_BLOCK},
  };
  std::vector<CompressedCase> cases;
  for (const Format& f : formats) {
    // BC6H and BC7 are defined in integer arithmetic: fetches agree exactly (BC7 up to the last bit of the 8-bit
    // to float conversion, where lavapipe multiplies by 1/255). BC1-BC5 interpolate between endpoints with real
    // numbers in the Khronos Data Format Specification, which crashtest follows; lavapipe rounds each palette
    // entry down to 8 bits first (and interpolates signed endpoints of -128 before clamping them to -1), so their
    // texels differ by up to two 8-bit steps (BC1-BC3 also expand 5- and 6-bit endpoints by bit replication), three
    // for SNORM; sRGB steps are up to 2.3 times larger in linear.
    const std::string name = f.name;
    const bool srgb = name.find("srgb") != std::string::npos;
    const bool snorm = name.find("snorm") != std::string::npos;
    float fetch = 8.0e-3f;
    if (name.rfind("bc6h", 0) == 0) fetch = 0.0f;
    else if (name.rfind("bc7", 0) == 0) fetch = 1e-6f;
    else if (srgb) fetch = 2.0e-2f;
    else if (snorm) fetch = 2.4e-2f;
    cases.push_back({name + "_fetch", f.format, false, fetch});
    // Linear filtering adds lavapipe's 8-bit filter weights and 8-bit result (1.5/255, as for uncompressed 8-bit
    // formats in image_differential_test.cpp).
    cases.push_back({name + "_linear", f.format, true, fetch + 6e-3f});
  }
  return cases;
}

class CompressedImages : public ::testing::TestWithParam<CompressedCase> {
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
VkInstance CompressedImages::instance_ = VK_NULL_HANDLE;
ComputeDevice* CompressedImages::crashtest_ = nullptr;
ComputeDevice* CompressedImages::lavapipe_ = nullptr;

TEST_P(CompressedImages, SameTexelsAsLavapipe) {
  const CompressedCase& c = GetParam();
  ASSERT_NE(crashtest_, nullptr);
  ASSERT_NE(lavapipe_, nullptr);
  ComputeJob job = MakeJob(c);
  job.spirv = ReadSpirv(std::string(CRASHTEST_EXECUTION_SHADER_DIR) + "/image_fetch_sample.comp.spv");
  ASSERT_FALSE(job.spirv.empty());
  const ComputeResult ours = crashtest_->Run(job);
  const ComputeResult theirs = lavapipe_->Run(job);
  ASSERT_EQ(theirs.result, VK_SUCCESS) << "lavapipe: " << theirs.error;
  ASSERT_EQ(ours.result, VK_SUCCESS) << "crashtest: " << ours.error;
  const std::vector<uint32_t>& mine = ours.buffers[1][0];
  const std::vector<uint32_t>& ref = theirs.buffers[1][0];
  ASSERT_EQ(mine.size(), ref.size());
  size_t mismatches = 0, untouched = 0;
  for (size_t i = 0; i < mine.size(); ++i) {
    if (mine[i] == F(-7.0f)) ++untouched;
    if (Close(mine[i], ref[i], c.tolerance)) continue;
    if (++mismatches <= 8)
      ADD_FAILURE() << c.name << ": point " << i / 4 << " component " << i % 4 << ": crashtest "
                    << std::bit_cast<float>(mine[i]) << " (0x" << std::hex << mine[i] << "), lavapipe " << std::dec
                    << std::bit_cast<float>(ref[i]) << " (0x" << std::hex << ref[i] << ")" << std::dec;
  }
  EXPECT_EQ(mismatches, 0u) << c.name << " of " << mine.size() << " words";
  // A skipped dispatch leaves the sentinel everywhere: it cannot pass.
  EXPECT_EQ(untouched, 0u) << c.name << ": the dispatch did not run";
}

std::string CaseName(const ::testing::TestParamInfo<CompressedCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Bc, CompressedImages, ::testing::ValuesIn(Cases()), CaseName);

}  // namespace
}  // namespace crashtest::test
