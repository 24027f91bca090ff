// Differential tests: every case runs the same compute shader with the same deterministic pseudo-random inputs on
// crashtest and on Mesa's lavapipe (both drivers in VK_ICD_FILENAMES, one process) and compares every buffer
// afterwards: exactly for integer work, within a relative tolerance for floating point (transcendentals and
// reassociation differ within Vulkan's precision rules). The corpus shaders that are not compared here are listed
// in docs/execution.md with the reason.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "vk_compute.h"

namespace crashtest::test {
namespace {

uint32_t F(float f) { return std::bit_cast<uint32_t>(f); }

struct Fill {
  enum Kind { Floats, Uints, Zeros, Words, Ramp, Halves, Doubles } kind = Zeros;
  float lo = 0, hi = 1;
  uint32_t bound = 0;   // Uints: values below it (0: any); Ramp: the step
  std::vector<uint32_t> words;
};
Fill Floats(float lo, float hi) { return {Fill::Floats, lo, hi, 0, {}}; }
Fill Uints(uint32_t bound) { return {Fill::Uints, 0, 0, bound, {}}; }
Fill Zeros() { return {}; }
Fill Words(std::vector<uint32_t> w) { return {Fill::Words, 0, 0, 0, std::move(w)}; }
Fill Ramp(uint32_t step) { return {Fill::Ramp, 0, 0, step, {}}; }
Fill Halves(float lo, float hi) { return {Fill::Halves, lo, hi, 0, {}}; }    // two binary16 values per word
Fill Doubles(float lo, float hi) { return {Fill::Doubles, lo, hi, 0, {}}; }  // one binary64 value per two words

// binary16 bits of a normal float in the half range (the fills keep to it).
uint32_t Half(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  if (exponent <= 0) return sign;
  return sign | (static_cast<uint32_t>(exponent) << 10) | ((bits >> 13) & 0x3ff);
}

struct Binding {
  uint32_t set, binding;
  VkDescriptorType type;
  uint32_t words;
  Fill fill;
  uint32_t count = 1;
  uint32_t compare = 0;  // leading words to compare (0: all); the rest depends on the order of atomics
  bool doubles = false;  // words pair up into binary64 values, compared with the case's tolerance
  // Words not compared: those with index % skipStride == skipOffset (0: none), where lavapipe is known wrong.
  uint32_t skipStride = 0, skipOffset = 0;
};
constexpr VkDescriptorType kStorage = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
constexpr VkDescriptorType kUniform = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;

struct Case {
  const char* name;  // corpus file without .spv
  std::vector<Binding> bindings;
  std::vector<uint32_t> push;
  uint32_t groups[3];
  float tolerance;   // 0: exact
  // Nonzero: words hold two 16-bit integers, each compared with this absolute tolerance (results derived from
  // half-precision transcendentals, whose precision Vulkan bounds loosely).
  int halfwordTolerance = 0;
  bool availabilityChains = false;  // both devices must offer vulkanMemoryModelAvailabilityVisibilityChains
};

std::vector<Case> Cases() {
  const uint32_t n = 16384;  // words per buffer unless a case says otherwise
  return {
      {"saxpy.comp", {{0, 0, kStorage, n, Floats(-1, 1)}, {0, 1, kStorage, n, Floats(-1, 1)}}, {F(1.5f), 4000},
       {64, 1, 1}, 1e-6f},
      {"reduce.comp", {{0, 0, kStorage, n, Floats(-1, 1)}, {0, 1, kStorage, 256, Zeros()}}, {n}, {16, 1, 1}, 1e-4f},
      {"prefix_sum.comp", {{0, 0, kStorage, n, Uints(1000)}, {0, 1, kStorage, n, Zeros()}, {0, 2, kStorage, 64, Zeros()}},
       {}, {16, 1, 1}, 0},
      {"matmul_tiled.comp",
       {{0, 0, kStorage, 4096, Floats(-1, 1)}, {0, 1, kStorage, 4096, Floats(-1, 1)}, {0, 2, kStorage, 4096, Zeros()}},
       {64, 64, 64, F(0.75f)}, {4, 4, 1}, 1e-5f},
      {"control_flow.comp", {{0, 0, kStorage, 256, Uints(0)}, {0, 1, kStorage, 4096, Uints(0)}}, {64, 256},
       {4, 1, 1}, 0},
      {"composites.comp", {{0, 0, kStorage, n, Floats(-2, 2)}, {0, 1, kStorage, n, Zeros()}, {0, 2, kStorage, 1024, Zeros()}},
       {}, {4, 1, 1}, 1e-5f},
      // One workgroup: its outputs are indexed by the local invocation id.
      {"conversions.comp", {{0, 0, kStorage, n, Floats(-1000, 1000)}, {0, 1, kStorage, n, Zeros()}}, {}, {1, 1, 1}, 1e-6f},
      {"glsl_std450.comp",
       {{0, 0, kStorage, 4096, Floats(0.1f, 4)}, {0, 1, kStorage, 4096, Uints(200)}, {0, 2, kStorage, n, Zeros()},
        {0, 3, kStorage, n, Zeros()}},
       {}, {4, 1, 1}, 1e-4f},
      {"fp16_int16.comp",
       {{0, 0, kStorage, 4096, Halves(0.1f, 2.0f)}, {0, 1, kStorage, 4096, Zeros()}, {0, 2, kStorage, 4096, Zeros()}},
       {F(1.5f), F(2.2f)}, {4, 1, 1}, 0, 64},
      // Kahan compensation terms are ~1e-14: lavapipe's NIR reassociates them to 0, as Vulkan allows; the sums
      // and the 64-bit hashes must agree.
      {"fp64_int64.comp",
       {{0, 0, kStorage, 4096, Doubles(-100, 100)}, {0, 1, kStorage, 8192, Zeros(), 1, 0, true},
        {0, 2, kStorage, 4096, Zeros()}},
       {8}, {4, 1, 1}, 1e-9f},
      {"histogram.comp", {{0, 0, kStorage, n, Uints(0)}, {0, 1, kStorage, 256, Zeros()}}, {n}, {8, 1, 1}, 0},
      {"jacobi_stencil.comp",
       {{0, 0, kStorage, 4096, Floats(-1, 1)}, {0, 1, kStorage, 4096, Floats(-1, 1)}, {0, 2, kStorage, 4096, Zeros()},
        {0, 3, kStorage, 64, Zeros()}},
       {64, 64, F(0.01f)}, {4, 4, 1}, 1e-4f},
      {"nbody.comp",
       {{0, 0, kStorage, 4096, Floats(0.5f, 2)}, {0, 1, kStorage, 4096, Floats(-1, 1)}, {0, 2, kStorage, 4096, Zeros()},
        {0, 3, kStorage, 4096, Zeros()}},
       {1024, F(0.01f), F(0.1f)}, {8, 1, 1}, 1e-3f},
      {"shared_transpose.comp", {{0, 0, kStorage, 4096, Floats(-1, 1)}, {0, 1, kStorage, 4096, Zeros()}}, {64, 64},
       {2, 8, 1}, 0},
      {"spmv_csr.comp",
       {{0, 0, kStorage, 1025, Ramp(4)}, {0, 1, kStorage, 4096, Uints(1024)}, {0, 2, kStorage, 4096, Floats(-1, 1)},
        {0, 3, kStorage, 1024, Floats(-1, 1)}, {0, 4, kStorage, 1024, Floats(-1, 1)},
        {0, 5, kUniform, 4, Words({1024, F(0.5f), 0, 0})}},
       {}, {16, 1, 1}, 1e-5f},
      // The same with its parameters in an inline uniform block (Vulkan 1.3).
      {"spmv_csr.comp",
       {{0, 0, kStorage, 1025, Ramp(4)}, {0, 1, kStorage, 4096, Uints(1024)}, {0, 2, kStorage, 4096, Floats(-1, 1)},
        {0, 3, kStorage, 1024, Floats(-1, 1)}, {0, 4, kStorage, 1024, Floats(-1, 1)},
        {0, 5, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 4, Words({1000, F(0.25f), 0, 0})}},
       {}, {16, 1, 1}, 1e-5f},
      {"bitonic_sort.comp", {{0, 0, kStorage, 2048, Uints(0)}}, {2, 4, 1024}, {4, 1, 1}, 0},
      {"bitonic_sort_shared.comp", {{0, 0, kStorage, 4096, Floats(-100, 100)}}, {}, {4, 1, 1}, 0},
      {"private_storage.comp", {{0, 0, kStorage, 512, Zeros()}, {0, 1, kStorage, 4096, Zeros()}}, {12345, 32},
       {4, 1, 1}, 1e-5f},
      {"spec_constants.comp", {{0, 0, kStorage, 4096, Floats(-1, 1)}, {0, 1, kStorage, 4096, Zeros()}}, {}, {4, 1, 1},
       1e-5f},
      {"function_calls.comp", {{0, 0, kStorage, 64, Floats(0.2f, 1.5f)}, {0, 1, kStorage, 1024, Zeros()}}, {16, 16, 16},
       {2, 2, 1}, 1e-3f},
      // Only the counters whose result does not depend on the order of the atomics are compared.
      {"atomics_all.comp", {{0, 0, kStorage, 300, Zeros(), 1, 9}, {0, 1, kStorage, 4096, Floats(-1, 1)}}, {},
       {4, 1, 1}, 0},
      {"radix_count.comp", {{0, 0, kStorage, 4096, Uints(0)}, {0, 1, kStorage, 1024, Zeros()}}, {0, 4096, 4},
       {8, 1, 1}, 0},
      // Row-major and column-major matrices in std140 and std430 blocks, every matrix instruction.
      {"matrix_ops.comp",
       {{0, 0, kUniform, 48, Floats(-1, 1)}, {0, 1, kStorage, 512, Floats(-1, 1)}, {0, 2, kStorage, 1536, Zeros()}},
       {}, {1, 1, 1}, 1e-3f},
      {"particle_update.comp",
       {{0, 0, kStorage, 12288, Floats(-2, 2)},
        {0, 1, kUniform, 12, Words({F(0), F(-9.8f), F(0), F(0), F(0), F(1), F(0), F(0), F(0.1f), F(0.5f), 1024})}},
       {F(0.016f), F(12.5f)}, {16, 1, 1}, 1e-4f},
      {"push_constants.comp", {{0, 0, kStorage, 4096, Floats(0, 1)}},
       {F(0.9f), F(0.1f), F(0), F(0), F(0.05f), F(0.8f), F(0.1f), F(0), F(0), F(0.1f), F(0.9f), F(0), F(0), F(0),
        F(0), F(1), F(0.01f), F(0.02f), F(0.03f), F(0), F(1.5f), F(1.2f), F(0.9f), F(0.6f), 1000, 0, 0, 0, F(0.05f),
        F(0.95f)},
       {16, 1, 1}, 1e-5f},
      // bench/shaders: the throughput and latency kernels of bench/ (alu: 1024 dependent multiply-adds).
      {"bench/alu.comp", {{0, 0, kStorage, 4096, Floats(-1, 1)}}, {}, {64, 1, 1}, 1e-4f},
      // Every integer dot product instruction, packed 4x8-bit and 32-bit vectors, saturating accumulation.
      {"execution/integer_dot_product.spvasm", {{0, 0, kStorage, 1024, Uints(0)}, {0, 1, kStorage, 2048, Zeros()}},
       {}, {4, 1, 1}, 0},
      // A runtime-sized array of storage buffers indexed non-uniformly (five descriptors in the layout).
      {"execution/descriptor_indexing.comp", {{0, 0, kStorage, 1024, Uints(0), 5}, {0, 1, kStorage, 1024, Zeros()}},
       {}, {16, 1, 1}, 0},
      // HLSL compiled by glslang -D: structured buffers of structs, a cbuffer, user-semantic decorations.
      {"execution/hlsl_structured_buffer.hlsl", {{0, 0, kUniform, 4, Words({F(0.02f), 1000})},
       {0, 1, kStorage, 4096, Floats(-3, 3)}}, {}, {16, 1, 1}, 1e-5f},
      // Bit casts between component sizes (u64/double <-> uvec2, f16vec2/u16vec2/u8vec4 <-> uint).
      {"execution/bitcasts.comp", {{0, 0, kStorage, 2048, Uints(0)}, {0, 1, kStorage, 4096, Zeros()}}, {},
       {16, 1, 1}, 0},
      // VK_KHR_variable_pointers: storage-buffer pointers selected, looped over (OpPhi) and stepped (OpPtrAccessChain).
      {"execution/variable_pointers.spvasm",
       {{0, 0, kStorage, 1024, Floats(-1, 1)}, {0, 1, kStorage, 1024, Floats(-1, 1)}, {0, 2, kStorage, 768, Zeros()}},
       {}, {4, 1, 1}, 1e-6f},
      // The full variablePointers: workgroup pointers selected, looped over, stepped, compared, subtracted, null,
      // kept in Function and Private variables and passed through a function; storage-buffer pointers compared,
      // subtracted and null (tests/execution/shaders/variable_pointers_workgroup.spvasm, eight words per invocation).
      {"execution/variable_pointers_workgroup.spvasm", {{0, 0, kStorage, 1024, Uints(0)}, {0, 1, kStorage, 2048, Zeros()}},
       {}, {4, 1, 1}, 0},
      // VK_KHR_shader_float_controls: signed zeros, infinities, NaNs and round-to-nearest-even, bit for bit.
      {"execution/float_controls.comp", {{0, 0, kStorage, 1024, Floats(-100, 100)}, {0, 1, kStorage, 8192, Zeros()}},
       {}, {16, 1, 1}, 0},
      // Availability and visibility chains of two elements (workgroup store, queue-family barrier) in the Vulkan
      // memory model.
      {"execution/memory_model_chains.comp", {{0, 0, kStorage, 256, Uints(1000)}, {0, 1, kStorage, 256, Zeros()}},
       {}, {4, 1, 1}, 0, 0, true},
      {"bench/fill.comp", {{0, 0, kStorage, 4096, Zeros()}}, {}, {64, 1, 1}, 0},
      {"bench/reduce.comp", {{0, 0, kStorage, 4096, Floats(-1, 1)}, {0, 1, kStorage, 16, Zeros()}}, {}, {16, 1, 1},
       1e-5f},
      {"bench/saxpy.comp",
       {{0, 0, kUniform, 4, Words({F(2.5f), 128})}, {0, 1, kStorage, 128, Floats(-1, 1)},
        {1, 0, kStorage, 128, Floats(-1, 1)}},
       {F(0.25f)}, {1, 1, 1}, 1e-6f},
      {"uniform_buffer.comp",
       {{0, 0, kUniform, 1040, Floats(-1, 1)}, {0, 1, kUniform, 256, Floats(0, 1), 2},
        {1, 0, kStorage, 1024, Floats(-1, 1)}, {1, 1, kStorage, 1024, Uints(64)}, {1, 2, kStorage, 1024, Zeros()}},
       {1}, {4, 1, 1}, 1e-4f},
  };
}

std::vector<uint32_t> Contents(const Fill& fill, uint32_t words, uint32_t seed) {
  std::vector<uint32_t> out(words, 0);
  uint64_t state = 0x9e3779b97f4a7c15ull * (seed + 1);
  auto next = [&] {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return static_cast<uint32_t>(state >> 11);
  };
  for (uint32_t i = 0; i < words; ++i) {
    switch (fill.kind) {
      case Fill::Floats:
        out[i] = F(fill.lo + (fill.hi - fill.lo) * static_cast<float>(next() % 1000000) / 1000000.0f);
        break;
      case Fill::Uints: out[i] = fill.bound == 0 ? next() : next() % fill.bound; break;
      case Fill::Words: out[i] = i < fill.words.size() ? fill.words[i] : 0; break;
      case Fill::Ramp: out[i] = i * fill.bound; break;
      case Fill::Halves: {
        auto half = [&] { return Half(fill.lo + (fill.hi - fill.lo) * static_cast<float>(next() % 1000000) / 1000000.0f); };
        out[i] = half() | (half() << 16);
        break;
      }
      case Fill::Doubles:
        if (i % 2 == 0) {
          const double d = fill.lo + (fill.hi - fill.lo) * static_cast<double>(next() % 1000000) / 1000000.0;
          const uint64_t bits = std::bit_cast<uint64_t>(d);
          out[i] = static_cast<uint32_t>(bits);
          if (i + 1 < words) out[i + 1] = static_cast<uint32_t>(bits >> 32);
        }
        break;
      case Fill::Zeros: break;
    }
  }
  return out;
}

ComputeJob MakeJob(const Case& c) {
  ComputeJob job;
  const std::string name = c.name;
  // "bench/..." and "execution/...": compiled into the execution tests' build directory; others: the corpus.
  const size_t slash = name.find('/');
  job.spirv = slash != std::string::npos
                  ? ReadSpirv(std::string(CRASHTEST_EXECUTION_SHADER_DIR) + "/" + name.substr(slash + 1) + ".spv")
                  : ReadSpirv(std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/" + name + ".spv");
  uint32_t seed = 0;
  for (const Binding& b : c.bindings) {
    BufferSpec spec;
    spec.set = b.set, spec.binding = b.binding, spec.type = b.type, spec.count = b.count;
    for (uint32_t e = 0; e < b.count; ++e) spec.contents.push_back(Contents(b.fill, b.words, seed++));
    job.buffers.push_back(std::move(spec));
  }
  job.pushConstants = c.push;
  for (int i = 0; i < 3; ++i) job.groups[i] = c.groups[i];
  return job;
}

bool Close(uint32_t a, uint32_t b, float tolerance) {
  if (a == b) return true;
  if (tolerance == 0) return false;
  const float x = std::bit_cast<float>(a), y = std::bit_cast<float>(b);
  if (std::isnan(x) && std::isnan(y)) return true;
  if (!std::isfinite(x) || !std::isfinite(y)) return false;
  const float scale = std::max({1.0f, std::fabs(x), std::fabs(y)});
  return std::fabs(x - y) <= tolerance * scale;
}

class Differential : public ::testing::TestWithParam<Case> {
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
  void Compare(const Case& c);
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
VkInstance Differential::instance_ = VK_NULL_HANDLE;
ComputeDevice* Differential::crashtest_ = nullptr;
ComputeDevice* Differential::lavapipe_ = nullptr;

TEST_P(Differential, SameBuffersAsLavapipe) { Compare(GetParam()); }

void Differential::Compare(const Case& c) {
  ASSERT_NE(crashtest_, nullptr);
  ASSERT_NE(lavapipe_, nullptr);
  const ComputeJob job = MakeJob(c);
  ASSERT_FALSE(job.spirv.empty()) << c.name;
  if (c.availabilityChains) {
    ASSERT_TRUE(crashtest_->memoryModelChains()) << "crashtest lacks vulkanMemoryModelAvailabilityVisibilityChains";
    ASSERT_TRUE(lavapipe_->memoryModelChains()) << "lavapipe lacks vulkanMemoryModelAvailabilityVisibilityChains";
  }
  const ComputeResult ours = crashtest_->Run(job);
  if (ours.result == VK_ERROR_DEVICE_LOST) {  // the next case gets a fresh device
    std::string error;
    delete crashtest_;
    crashtest_ = ComputeDevice::Open(instance_, "crashtest", &error, false, 1).release();
  }
  const ComputeResult theirs = lavapipe_->Run(job);
  ASSERT_EQ(theirs.result, VK_SUCCESS) << "lavapipe: " << theirs.error;
  ASSERT_EQ(ours.result, VK_SUCCESS) << "crashtest: " << ours.error;
  bool changed = false;
  for (size_t b = 0; b < job.buffers.size(); ++b)
    for (size_t e = 0; e < job.buffers[b].count; ++e) {
      const auto& mine = ours.buffers[b][e];
      const auto& ref = theirs.buffers[b][e];
      ASSERT_EQ(mine.size(), ref.size());
      size_t mismatches = 0;
      const size_t compared = c.bindings[b].compare != 0 ? c.bindings[b].compare : mine.size();
      for (size_t i = 0; i < compared; ++i) {
        if (c.bindings[b].skipStride != 0 && i % c.bindings[b].skipStride == c.bindings[b].skipOffset) continue;
        if (c.bindings[b].doubles) {
          if (i % 2 == 1 || i + 1 >= compared) continue;
          const double x = std::bit_cast<double>(uint64_t{mine[i]} | (uint64_t{mine[i + 1]} << 32));
          const double y = std::bit_cast<double>(uint64_t{ref[i]} | (uint64_t{ref[i + 1]} << 32));
          if (mine[i] != job.buffers[b].contents[e][i] || mine[i + 1] != job.buffers[b].contents[e][i + 1])
            changed = true;
          if (x == y || std::fabs(x - y) <= c.tolerance * std::max({1.0, std::fabs(x), std::fabs(y)})) continue;
          if (++mismatches <= 5) ADD_FAILURE() << c.name << ": double at word " << i << ": " << x << " vs " << y;
          continue;
        }
        if (i < job.buffers[b].contents[e].size() && mine[i] != job.buffers[b].contents[e][i]) changed = true;
        if (Close(mine[i], ref[i], c.tolerance)) continue;
        if (c.halfwordTolerance != 0) {
          auto near = [&](int shift) {
            const int a = static_cast<int16_t>(mine[i] >> shift), b = static_cast<int16_t>(ref[i] >> shift);
            return std::abs(a - b) <= c.halfwordTolerance;
          };
          if (near(0) && near(16)) continue;
        }
        if (++mismatches <= 5)
          ADD_FAILURE() << c.name << ": binding (" << job.buffers[b].set << "," << job.buffers[b].binding << ")["
                        << e << "] word " << i << ": crashtest 0x" << std::hex << mine[i] << " ("
                        << std::bit_cast<float>(mine[i]) << "), lavapipe 0x" << ref[i] << " ("
                        << std::bit_cast<float>(ref[i]) << ")" << std::dec;
      }
      EXPECT_EQ(mismatches, 0u) << c.name << ": binding (" << job.buffers[b].set << "," << job.buffers[b].binding
                                << ")";
    }
  // The shader must have written something: a skipped dispatch cannot pass.
  EXPECT_TRUE(changed) << c.name << ": no buffer changed";
}

// Subgroup operations depend on the subgroup size: these cases run on a crashtest device emulating lavapipe's own
// profile (tests/data/profiles/llvmpipe-mesa-22.3.6.json: subgroups of 8), beside lavapipe itself.
std::vector<Case> SubgroupCases() {
  return {
      {"prefix_sum_subgroup.comp", {{0, 0, kStorage, 1024, Uints(4)}, {0, 1, kStorage, 64, Zeros()}}, {}, {4, 1, 1}, 0},
      {"reduce_subgroup.comp", {{0, 0, kStorage, 1024, Floats(-1, 1)}, {0, 1, kStorage, 64, Zeros()}}, {}, {4, 1, 1},
       1e-5f},
      // Mesa 22.3's lavapipe gets r_int.z (an exclusive max plus clustered min/max) wrong for the first lane of
      // some subgroups, and out_b.x (a clustered add plus a quad broadcast) wrong everywhere; an independent scalar
      // computation agrees with crashtest on both (docs/execution.md), so those words are not compared here.
      {"subgroup_arithmetic.comp",
       {{0, 0, kStorage, 1024, Uints(100)}, {0, 1, kStorage, 1024, Zeros(), 1, 0, false, 4, 2},
        {0, 2, kStorage, 1024, Zeros()}},
       {}, {4, 1, 1}, 1e-5f},
      {"subgroup_shuffle.comp",
       {{0, 0, kStorage, 1024, Floats(-1, 1)}, {0, 1, kStorage, 1024, Zeros()},
        {0, 2, kStorage, 1024, Zeros(), 1, 0, false, 4, 0}},
       {}, {4, 1, 1}, 1e-5f},
      {"subgroup_vote.comp", {{0, 0, kStorage, 1024, Uints(2)}, {0, 1, kStorage, 1024, Zeros()}}, {}, {4, 1, 1}, 0},
      // VK_EXT_shader_subgroup_ballot / _vote: SPIR-V's OpSubgroup*KHR instructions, converged and divergent.
      {"execution/subgroup_ext_ballot_vote.comp", {{0, 0, kStorage, 1024, Uints(100)}, {0, 1, kStorage, 4096, Zeros()}},
       {}, {16, 1, 1}, 0},
      // Only the count: the order of the kept items follows the order of the atomics.
      {"stream_compaction.comp", {{0, 0, kStorage, 2048, Floats(-1, 1)}, {0, 1, kStorage, 4096, Zeros(), 1, 1}},
       {F(0.0f), 1024}, {8, 1, 1}, 0},
  };
}

class SubgroupDifferential : public Differential {
 protected:
  static void SetUpTestSuite() {
    setenv("CRASHTEST_CONFIG", CRASHTEST_EXECUTION_DATA_DIR "/llvmpipe_device.json", 1);
    std::string error;
    instance_ = CreateTestInstance(&error);
    unsetenv("CRASHTEST_CONFIG");
    ASSERT_NE(instance_, VK_NULL_HANDLE) << error;
    crashtest_ = ComputeDevice::Open(instance_, "llvmpipe", &error, false, 1).release();
    ASSERT_NE(crashtest_, nullptr) << error;
    lavapipe_ = ComputeDevice::Open(instance_, "llvmpipe", &error, false, 0).release();
    ASSERT_NE(lavapipe_, nullptr) << error;
    ASSERT_EQ(crashtest_->subgroupSize(), lavapipe_->subgroupSize());
  }
};

TEST_P(SubgroupDifferential, SameBuffersAsLavapipe) { Compare(GetParam()); }

// Physical storage buffers: buffers reached only through device addresses in push constants and in memory (a
// linked list), on devices with bufferDeviceAddress enabled.
class AddressDifferential : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    instance_ = CreateTestInstance(&error);
    ASSERT_NE(instance_, VK_NULL_HANDLE) << error;
    crashtest_ = ComputeDevice::Open(instance_, "crashtest", &error, true, 1).release();
    ASSERT_NE(crashtest_, nullptr) << error;
    lavapipe_ = ComputeDevice::Open(instance_, "llvmpipe", &error, true, 0).release();
    ASSERT_NE(lavapipe_, nullptr) << error;
  }
  static void TearDownTestSuite() {
    delete crashtest_;
    delete lavapipe_;
    crashtest_ = lavapipe_ = nullptr;
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
  // Runs `job` on both and compares buffer `compared` word by word.
  static void RunBoth(const ComputeJob& job, size_t compared, float tolerance) {
    ASSERT_FALSE(job.spirv.empty());
    const ComputeResult ours = crashtest_->Run(job);
    const ComputeResult theirs = lavapipe_->Run(job);
    ASSERT_EQ(theirs.result, VK_SUCCESS) << "lavapipe: " << theirs.error;
    ASSERT_EQ(ours.result, VK_SUCCESS) << "crashtest: " << ours.error;
    const std::vector<uint32_t>& mine = ours.buffers[compared][0];
    const std::vector<uint32_t>& ref = theirs.buffers[compared][0];
    ASSERT_EQ(mine.size(), ref.size());
    size_t mismatches = 0, changed = 0;
    for (size_t i = 0; i < mine.size(); ++i) {
      if (mine[i] != job.buffers[compared].contents[0][i]) ++changed;
      if (!Close(mine[i], ref[i], tolerance) && ++mismatches <= 5)
        ADD_FAILURE() << "word " << i << ": crashtest " << std::bit_cast<float>(mine[i]) << ", lavapipe "
                      << std::bit_cast<float>(ref[i]);
    }
    EXPECT_EQ(mismatches, 0u);
    EXPECT_GT(changed, 0u) << "the shader wrote nothing";
  }
  static VkInstance instance_;
  static ComputeDevice* crashtest_;
  static ComputeDevice* lavapipe_;
};
VkInstance AddressDifferential::instance_ = VK_NULL_HANDLE;
ComputeDevice* AddressDifferential::crashtest_ = nullptr;
ComputeDevice* AddressDifferential::lavapipe_ = nullptr;

BufferSpec Unbound(std::vector<uint32_t> contents, int pushAddressWord) {
  BufferSpec spec;
  spec.bound = false;
  spec.pushAddressWord = pushAddressWord;
  spec.contents.push_back(std::move(contents));
  return spec;
}

TEST_F(AddressDifferential, BdaSaxpy) {
  ComputeJob job;
  job.spirv = ReadSpirv(std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/bda_saxpy.comp.spv");
  const uint32_t n = 4000;
  job.buffers.push_back(Unbound(Contents(Floats(-1, 1), 4096, 1), 0));  // x: a uint64_t address
  job.buffers.push_back(Unbound(Contents(Floats(-1, 1), 4096, 2), 2));  // y: the address as uvec2
  job.buffers.push_back(Unbound({F(1.75f), 0, 0, 0}, 4));              // coefficients
  job.pushConstants = {0, 0, 0, 0, 0, 0, n};
  job.groups[0] = 64;
  RunBoth(job, 1, 1e-6f);
}

TEST_F(AddressDifferential, BdaLinkedList) {
  // 64 lists of 1 to 8 nodes in one buffer of 32-byte nodes (vec4 payload, next address, padding), walked through
  // the addresses the harness writes into the nodes once the buffer exists.
  ComputeJob job;
  job.spirv = ReadSpirv(std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/bda_linked_list.comp.spv");
  const uint32_t lists = 64, maxLength = 8;
  std::vector<uint32_t> nodes = Contents(Floats(-1, 1), lists * maxLength * 8, 3);
  BufferSpec nodeSpec = Unbound({}, -1);
  nodeSpec.contents.clear();
  BufferSpec heads = Unbound(std::vector<uint32_t>(lists * 2, 0), 0);
  for (uint32_t list = 0; list < lists; ++list) {
    const uint32_t length = 1 + (list * 5) % maxLength;
    for (uint32_t k = 0; k < maxLength; ++k) {
      const uint32_t node = list * maxLength + k;
      nodes[node * 8 + 4] = nodes[node * 8 + 5] = nodes[node * 8 + 6] = nodes[node * 8 + 7] = 0;
      if (k + 1 < length) nodeSpec.relocations.push_back({node * 8 + 4, 1, (node + 1) * 32ull});
    }
    heads.relocations.push_back({list * 2, 1, list * maxLength * 32ull});
  }
  nodeSpec.contents.push_back(nodes);
  job.buffers.push_back(heads);
  job.buffers.push_back(nodeSpec);
  job.buffers.push_back(Unbound(std::vector<uint32_t>(lists * 4, 0), 2));  // sums
  job.pushConstants = {0, 0, 0, 0, lists, 100};
  job.groups[0] = 1;
  RunBoth(job, 2, 1e-6f);
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.name;
  for (const Binding& b : info.param.bindings)
    if (b.type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) name += "_inline_uniform_block";
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, Differential, ::testing::ValuesIn(Cases()), CaseName);
INSTANTIATE_TEST_SUITE_P(Subgroups, SubgroupDifferential, ::testing::ValuesIn(SubgroupCases()), CaseName);

}  // namespace
}  // namespace crashtest::test
