// 64-bit integer texels through the real loader: R64_UINT and R64_SINT storage images and storage texel buffers
// read, written and used atomically by a compute shader (GL_EXT_shader_image_int64, SPIR-V Int64ImageEXT), on a
// crashtest device whose profile (data/image_int64_profile.json) lists the formats' storage features and
// VK_EXT_shader_image_atomic_int64. lavapipe (Mesa 22.3) offers neither, so the oracle is a scalar reference
// computed here from the same inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "vk_compute.h"

namespace crashtest::test {
namespace {

constexpr uint32_t kSize = 16;  // the images are 16x16 texels: 2x2 workgroups of 8x8
constexpr uint32_t kTexels = kSize * kSize;

std::vector<uint32_t> Words(const std::vector<uint64_t>& values) {
  std::vector<uint32_t> out;
  for (uint64_t v : values) {
    out.push_back(static_cast<uint32_t>(v));
    out.push_back(static_cast<uint32_t>(v >> 32));
  }
  return out;
}
std::vector<uint64_t> Values(const std::vector<uint32_t>& words) {
  std::vector<uint64_t> out(words.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = words[2 * i] | (uint64_t{words[2 * i + 1]} << 32);
  return out;
}
std::vector<uint64_t> Random64(size_t count, uint64_t seed) {
  uint64_t state = 0x9e3779b97f4a7c15ull * (seed + 1);
  std::vector<uint64_t> out(count);
  for (uint64_t& v : out) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    v = state;
  }
  return out;
}

class ImageInt64 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    setenv("CRASHTEST_CONFIG", CRASHTEST_EXECUTION_DATA_DIR "/image_int64_device.json", 1);
    std::string error;
    instance_ = CreateTestInstance(&error);
    ASSERT_NE(instance_, VK_NULL_HANDLE) << error;
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    for (VkPhysicalDevice d : devices) {
      VkPhysicalDeviceProperties properties;
      vkGetPhysicalDeviceProperties(d, &properties);
      if (std::string(properties.deviceName).find("Int64 Image Test GPU") != std::string::npos) physical_ = d;
    }
    device_ = ComputeDevice::Open(instance_, "Int64 Image Test GPU", &error, false, 1).release();
    ASSERT_NE(device_, nullptr) << error;
  }
  static void TearDownTestSuite() {
    delete device_;
    device_ = nullptr;
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
    unsetenv("CRASHTEST_CONFIG");
  }
  static VkInstance instance_;
  static VkPhysicalDevice physical_;
  static ComputeDevice* device_;
};
VkInstance ImageInt64::instance_ = VK_NULL_HANDLE;
VkPhysicalDevice ImageInt64::physical_ = VK_NULL_HANDLE;
ComputeDevice* ImageInt64::device_ = nullptr;

// The profile's storage features and the extension survive the intersection with what the driver implements;
// sparse residency does not (crashtest has no sparse images).
TEST_F(ImageInt64, ProfileFeaturesAreAdvertised) {
  ASSERT_NE(physical_, VK_NULL_HANDLE);
  EXPECT_TRUE(device_->hasExtension(VK_EXT_SHADER_IMAGE_ATOMIC_INT64_EXTENSION_NAME));
  VkPhysicalDeviceShaderImageAtomicInt64FeaturesEXT int64{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_IMAGE_ATOMIC_INT64_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &int64};
  vkGetPhysicalDeviceFeatures2(physical_, &features);
  EXPECT_EQ(int64.shaderImageInt64Atomics, VK_TRUE);
  EXPECT_EQ(int64.sparseImageInt64Atomics, VK_FALSE);
  for (VkFormat format : {VK_FORMAT_R64_UINT, VK_FORMAT_R64_SINT}) {
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(physical_, format, &properties);
    const VkFormatFeatureFlags image = VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT;
    const VkFormatFeatureFlags buffer =
        VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT | VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
    EXPECT_EQ(properties.optimalTilingFeatures & image, image) << format;
    EXPECT_EQ(properties.bufferFeatures & buffer, buffer) << format;
  }
}

TEST_F(ImageInt64, LoadsStoresAndAtomicsMatchAScalarReference) {
  ASSERT_NE(device_, nullptr);
  const std::vector<uint64_t> counters = Random64(kTexels, 1);
  std::vector<uint64_t> signed64 = Random64(kTexels, 2);
  for (size_t i = 0; i < signed64.size(); i += 2) signed64[i] |= uint64_t{1} << 63;  // half of them negative
  const std::vector<uint64_t> texels = Random64(kTexels, 3);
  // Row 0: add, max, min, or, xor, and targets; row 1: compare-exchange targets, equal to the comparator on even x.
  std::vector<uint64_t> atomics(2 * kSize, 0);
  atomics[0] = 0x0123456789abcdefull, atomics[1] = 5, atomics[2] = ~uint64_t{0} - 7, atomics[3] = uint64_t{1} << 63;
  atomics[4] = 0xffff0000ffff0000ull, atomics[5] = ~uint64_t{0};
  for (uint32_t x = 0; x < kSize; ++x) atomics[kSize + x] = uint64_t{x} * 0x300000001ull + (x % 2);
  const std::vector<uint64_t> signedAtomics = {0, static_cast<uint64_t>(INT64_MIN)};

  ComputeJob job;
  job.spirv = ReadSpirv(std::string(CRASHTEST_EXECUTION_SHADER_DIR) + "/image_int64.comp.spv");
  ASSERT_FALSE(job.spirv.empty());
  auto image = [](uint32_t binding, VkFormat format, VkExtent3D extent, const std::vector<uint64_t>& contents,
                  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE) {
    ImageSpec spec;
    spec.binding = binding, spec.format = format, spec.extent = extent, spec.type = type;
    spec.contents = Words(contents);
    return spec;
  };
  job.images = {image(0, VK_FORMAT_R64_UINT, {kSize, kSize, 1}, counters),
                image(1, VK_FORMAT_R64_SINT, {kSize, kSize, 1}, signed64),
                image(2, VK_FORMAT_R64_UINT, {kTexels, 1, 1}, texels, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER),
                image(3, VK_FORMAT_R64_UINT, {kSize, 2, 1}, atomics),
                image(4, VK_FORMAT_R64_SINT, {2, 1, 1}, signedAtomics, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)};
  BufferSpec results;
  results.binding = 5;
  results.contents = {std::vector<uint32_t>(2 * kTexels, 0xdeadbeef)};
  job.buffers.push_back(results);
  job.groups[0] = job.groups[1] = 2;
  const ComputeResult r = device_->Run(job);
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;

  // The reference, invocation by invocation (the atomics' final values do not depend on the order).
  std::vector<uint64_t> wantCounters(kTexels), wantSigned(kTexels), wantTexels(kTexels), wantResults(kTexels, 0);
  std::vector<uint64_t> wantAtomics = atomics;
  std::vector<int64_t> wantSignedAtomics = {0, INT64_MIN};
  for (uint32_t i = 0; i < kTexels; ++i) {
    const uint64_t u = i;
    wantCounters[i] = counters[i] * 3 + u + 0x100000000ull;
    wantSigned[i] = (uint64_t{0} - signed64[i]) * 2 - u;  // -s * 2 - i, wrapping as the shader's arithmetic does
    wantTexels[i] = texels[i] ^ 0xffffffff00000001ull;
    wantAtomics[0] += (u << 32) | 1;
    wantAtomics[1] = std::max<uint64_t>(wantAtomics[1], u * 0x100000001ull);
    wantAtomics[2] = std::min<uint64_t>(wantAtomics[2], ~u);
    wantAtomics[3] |= uint64_t{1} << (i % 64);
    wantAtomics[4] ^= u << 33;
    wantAtomics[5] &= ~(uint64_t{1} << (i % 61 + 3));
    wantSignedAtomics[0] = std::min<int64_t>(wantSignedAtomics[0], -static_cast<int64_t>(i) * 0x10000000ll);
    wantSignedAtomics[1] = std::max<int64_t>(wantSignedAtomics[1], static_cast<int64_t>(i) - 0x7000000000ll);
    if (i < kSize) {  // row 0, x = i: the compare-exchange returns the old value; out-of-bounds loads add zero
      wantResults[i] = atomics[kSize + i];
      if (atomics[kSize + i] == u * 0x300000001ull) wantAtomics[kSize + i] = 0xfedcba9876543210ull + u;
    }
  }

  ASSERT_EQ(r.images.size(), 5u);
  auto expectValues = [](const char* what, const std::vector<uint32_t>& got, const std::vector<uint64_t>& want) {
    const std::vector<uint64_t> values = Values(got);
    ASSERT_EQ(values.size(), want.size()) << what;
    size_t mismatches = 0;
    for (size_t i = 0; i < want.size(); ++i)
      if (values[i] != want[i] && ++mismatches <= 5)
        ADD_FAILURE() << what << " texel " << i << ": 0x" << std::hex << values[i] << ", expected 0x" << want[i];
    EXPECT_EQ(mismatches, 0u) << what;
  };
  expectValues("R64_UINT image", r.images[0], wantCounters);
  expectValues("R64_SINT image", r.images[1], wantSigned);
  expectValues("R64_UINT texel buffer", r.images[2], wantTexels);
  expectValues("R64_UINT atomics", r.images[3], wantAtomics);
  expectValues("R64_SINT texel buffer atomics", r.images[4],
               {static_cast<uint64_t>(wantSignedAtomics[0]), static_cast<uint64_t>(wantSignedAtomics[1])});
  expectValues("results", r.buffers[0][0], wantResults);
}

}  // namespace
}  // namespace crashtest::test
