// The VK_KHR_pipeline_executable_properties protocol on an abstract executable list: every VK_INCOMPLETE path,
// text truncation keeping a NUL (Vulkan 1.3.260), binary truncation, the caller's sType/pNext, and the checks
// the CTS (dEQP-VK.pipeline.*executable_properties*) makes on names, descriptions and formats.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "statistics/executable_builder.h"
#include "statistics/executable_properties.h"
#include "statistics_fixture.h"

namespace crashtest::test {
namespace {

using statistics::ExecutableInfo;
using statistics::ExecutableRepresentation;
using statistics::ExecutableStatistic;

// A recognisable pNext the functions must not touch, and an sType they must not "fix".
int gChainSentinel;
void* const kPNext = &gChainSentinel;
constexpr auto kOddSType = static_cast<VkStructureType>(0x7fff1234);

ExecutableStatistic Stat(const char* name, uint64_t value) {
  ExecutableStatistic s{name, std::string("The ") + name, VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR, {}};
  s.value.u64 = value;
  return s;
}

std::vector<ExecutableInfo> ThreeExecutables() {
  std::vector<ExecutableInfo> list(3);
  const char* names[] = {"vertex", "fragment", "compute"};
  const VkShaderStageFlags stages[] = {VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT,
                                       VK_SHADER_STAGE_COMPUTE_BIT};
  for (int i = 0; i < 3; ++i) {
    list[i].stages = stages[i];
    list[i].name = names[i];
    list[i].description = std::string("The ") + names[i] + " shader";
    list[i].subgroupSize = 16u << i;
    list[i].statistics = {Stat("Instructions", 10u + i), Stat("Registers", 20u + i), Stat("Spills", 0)};
    list[i].representations = {{"text", "a text representation", true, "hello, world"},
                               {"binary", "opaque bytes", false, std::string("\x01\x02\x03\x04\x05", 5)}};
  }
  return list;
}

template <typename T>
std::vector<T> Prepared(size_t n) {
  std::vector<T> out(n);
  for (T& e : out) {
    std::memset(&e, 0xcd, sizeof e);  // garbage, as an application's uninitialised array would hold
    e.sType = kOddSType;
    e.pNext = kPNext;
  }
  return out;
}

// ---- vkGetPipelineExecutablePropertiesKHR ----

TEST(ExecutableProperties, CountQuery) {
  auto list = ThreeExecutables();
  uint32_t count = 999;
  EXPECT_EQ(statistics::GetExecutableProperties(list, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 3u);
}

TEST(ExecutableProperties, ExactCapacityWritesAllKeepingHeaders) {
  auto list = ThreeExecutables();
  auto out = Prepared<VkPipelineExecutablePropertiesKHR>(3);
  uint32_t count = 3;
  EXPECT_EQ(statistics::GetExecutableProperties(list, &count, out.data()), VK_SUCCESS);
  EXPECT_EQ(count, 3u);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i].sType, kOddSType);
    EXPECT_EQ(out[i].pNext, kPNext);
    EXPECT_EQ(out[i].stages, list[i].stages);
    EXPECT_STREQ(out[i].name, list[i].name.c_str());
    EXPECT_STREQ(out[i].description, list[i].description.c_str());
    EXPECT_EQ(out[i].subgroupSize, list[i].subgroupSize);
    // The whole array is zeroed past the string: no garbage byte of the caller's survives.
    for (size_t k = list[i].name.size(); k < VK_MAX_DESCRIPTION_SIZE; ++k) EXPECT_EQ(out[i].name[k], '\0');
  }
}

TEST(ExecutableProperties, LargerCapacityReportsTheNumberWritten) {
  auto list = ThreeExecutables();
  auto out = Prepared<VkPipelineExecutablePropertiesKHR>(5);
  uint32_t count = 5;
  EXPECT_EQ(statistics::GetExecutableProperties(list, &count, out.data()), VK_SUCCESS);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(out[3].subgroupSize, 0xcdcdcdcdu);  // untouched
}

TEST(ExecutableProperties, ShortCapacityIsIncomplete) {
  auto list = ThreeExecutables();
  for (uint32_t capacity : {0u, 1u, 2u}) {
    auto out = Prepared<VkPipelineExecutablePropertiesKHR>(3);
    uint32_t count = capacity;
    EXPECT_EQ(statistics::GetExecutableProperties(list, &count, out.data()), VK_INCOMPLETE) << capacity;
    EXPECT_EQ(count, capacity);
    for (uint32_t i = 0; i < 3; ++i) {
      if (i < capacity) {
        EXPECT_STREQ(out[i].name, list[i].name.c_str());
      } else {
        EXPECT_EQ(out[i].subgroupSize, 0xcdcdcdcdu) << "element " << i << " written beyond the capacity";
      }
    }
  }
}

TEST(ExecutableProperties, NoExecutables) {
  uint32_t count = 7;
  EXPECT_EQ(statistics::GetExecutableProperties({}, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 0u);
  auto out = Prepared<VkPipelineExecutablePropertiesKHR>(1);
  count = 1;
  EXPECT_EQ(statistics::GetExecutableProperties({}, &count, out.data()), VK_SUCCESS);
  EXPECT_EQ(count, 0u);
}

TEST(ExecutableProperties, LongNamesAreTruncatedAndTerminated) {
  std::vector<ExecutableInfo> list(1);
  list[0].name = std::string(400, 'n');
  list[0].description = std::string(300, 'd');
  auto out = Prepared<VkPipelineExecutablePropertiesKHR>(1);
  uint32_t count = 1;
  EXPECT_EQ(statistics::GetExecutableProperties(list, &count, out.data()), VK_SUCCESS);
  EXPECT_EQ(std::strlen(out[0].name), VK_MAX_DESCRIPTION_SIZE - 1);
  EXPECT_EQ(std::strlen(out[0].description), VK_MAX_DESCRIPTION_SIZE - 1);
  EXPECT_EQ(out[0].sType, kOddSType);
}

TEST(ExecutableProperties, NullCountIsAnError) {
  auto list = ThreeExecutables();
  EXPECT_EQ(statistics::GetExecutableProperties(list, nullptr, nullptr), VK_ERROR_UNKNOWN);
}

// ---- vkGetPipelineExecutableStatisticsKHR ----

TEST(ExecutableStatistics, CountQueryPerExecutable) {
  auto list = ThreeExecutables();
  list[1].statistics.pop_back();
  uint32_t count = 0;
  EXPECT_EQ(statistics::GetExecutableStatistics(list, 0, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(statistics::GetExecutableStatistics(list, 1, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 2u);
}

TEST(ExecutableStatistics, WritesValuesKeepingHeaders) {
  auto list = ThreeExecutables();
  auto out = Prepared<VkPipelineExecutableStatisticKHR>(3);
  uint32_t count = 3;
  EXPECT_EQ(statistics::GetExecutableStatistics(list, 2, &count, out.data()), VK_SUCCESS);
  ASSERT_EQ(count, 3u);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i].sType, kOddSType);
    EXPECT_EQ(out[i].pNext, kPNext);
    EXPECT_STREQ(out[i].name, list[2].statistics[i].name.c_str());
    EXPECT_STREQ(out[i].description, list[2].statistics[i].description.c_str());
    EXPECT_EQ(out[i].format, VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR);
    EXPECT_EQ(out[i].value.u64, list[2].statistics[i].value.u64);
  }
}

TEST(ExecutableStatistics, ShortCapacityIsIncomplete) {
  auto list = ThreeExecutables();
  for (uint32_t capacity : {0u, 1u, 2u}) {
    auto out = Prepared<VkPipelineExecutableStatisticKHR>(3);
    uint32_t count = capacity;
    EXPECT_EQ(statistics::GetExecutableStatistics(list, 0, &count, out.data()), VK_INCOMPLETE);
    EXPECT_EQ(count, capacity);
    if (capacity < 3) {
      EXPECT_EQ(out[capacity].name[0], static_cast<char>(0xcd));  // not written beyond the capacity
    }
  }
}

TEST(ExecutableStatistics, WithoutCaptureThereAreNone) {
  auto list = ThreeExecutables();
  list[0].statistics.clear();
  auto out = Prepared<VkPipelineExecutableStatisticKHR>(1);
  uint32_t count = 1;
  EXPECT_EQ(statistics::GetExecutableStatistics(list, 0, &count, out.data()), VK_SUCCESS);
  EXPECT_EQ(count, 0u);
}

TEST(ExecutableStatistics, IndexOutOfRangeIsAnError) {
  auto list = ThreeExecutables();
  uint32_t count = 5;
  EXPECT_EQ(statistics::GetExecutableStatistics(list, 3, &count, nullptr), VK_ERROR_UNKNOWN);
  EXPECT_EQ(count, 0u);
  count = 5;
  EXPECT_EQ(statistics::GetExecutableInternalRepresentations(list, 99, &count, nullptr), VK_ERROR_UNKNOWN);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(statistics::GetExecutableStatistics(list, 0, nullptr, nullptr), VK_ERROR_UNKNOWN);
}

// ---- vkGetPipelineExecutableInternalRepresentationsKHR ----

TEST(InternalRepresentations, CountThenSizesThenData) {
  auto list = ThreeExecutables();
  uint32_t count = 0;
  EXPECT_EQ(statistics::GetExecutableInternalRepresentations(list, 0, &count, nullptr), VK_SUCCESS);
  ASSERT_EQ(count, 2u);
  auto out = Prepared<VkPipelineExecutableInternalRepresentationKHR>(2);
  for (auto& r : out) {
    r.pData = nullptr;
    r.dataSize = 12345;
  }
  EXPECT_EQ(statistics::GetExecutableInternalRepresentations(list, 0, &count, out.data()), VK_SUCCESS);
  EXPECT_EQ(out[0].dataSize, std::strlen("hello, world") + 1);  // text: counts the terminating NUL
  EXPECT_EQ(out[0].isText, VK_TRUE);
  EXPECT_EQ(out[1].dataSize, 5u);  // binary: exactly the bytes
  EXPECT_EQ(out[1].isText, VK_FALSE);
  EXPECT_STREQ(out[0].name, "text");
  EXPECT_EQ(out[0].sType, kOddSType);
  EXPECT_EQ(out[0].pNext, kPNext);
  std::vector<char> text(out[0].dataSize, 'x'), binary(out[1].dataSize, 'x');
  out[0].pData = text.data();
  out[1].pData = binary.data();
  EXPECT_EQ(statistics::GetExecutableInternalRepresentations(list, 0, &count, out.data()), VK_SUCCESS);
  EXPECT_STREQ(text.data(), "hello, world");
  EXPECT_EQ(std::memcmp(binary.data(), "\x01\x02\x03\x04\x05", 5), 0);
  EXPECT_EQ(out[0].dataSize, 13u);
  EXPECT_EQ(out[1].dataSize, 5u);
  EXPECT_EQ(out[0].pData, text.data());  // the caller's pointer is kept
}

TEST(InternalRepresentations, LargerBuffersReportBytesWritten) {
  auto list = ThreeExecutables();
  auto out = Prepared<VkPipelineExecutableInternalRepresentationKHR>(2);
  std::vector<char> a(100, 'x'), b(100, 'x');
  out[0].pData = a.data();
  out[0].dataSize = a.size();
  out[1].pData = b.data();
  out[1].dataSize = b.size();
  uint32_t count = 2;
  EXPECT_EQ(statistics::GetExecutableInternalRepresentations(list, 0, &count, out.data()), VK_SUCCESS);
  EXPECT_EQ(out[0].dataSize, 13u);
  EXPECT_EQ(out[1].dataSize, 5u);
  EXPECT_EQ(a[13], 'x');  // nothing written past the data
  EXPECT_EQ(b[5], 'x');
}

TEST(InternalRepresentations, TextTruncationKeepsATerminatingNul) {
  auto list = ThreeExecutables();
  for (size_t size : {size_t{1}, size_t{2}, size_t{5}, size_t{12}}) {
    auto out = Prepared<VkPipelineExecutableInternalRepresentationKHR>(1);
    std::vector<char> buffer(20, 'x');
    out[0].pData = buffer.data();
    out[0].dataSize = size;
    uint32_t count = 1;
    // Array short (2 available) and element short: both say VK_INCOMPLETE.
    EXPECT_EQ(statistics::GetExecutableInternalRepresentations(list, 0, &count, out.data()), VK_INCOMPLETE);
    EXPECT_EQ(out[0].dataSize, size);  // "at most dataSize bytes" were written
    EXPECT_EQ(buffer[size - 1], '\0') << size;
    EXPECT_EQ(std::string(buffer.data()), std::string("hello, world").substr(0, size - 1));
    EXPECT_EQ(buffer[size], 'x');  // nothing beyond dataSize
  }
}

TEST(InternalRepresentations, ElementTruncationAloneIsIncomplete) {
  auto list = ThreeExecutables();
  auto out = Prepared<VkPipelineExecutableInternalRepresentationKHR>(2);
  std::vector<char> a(4, 'x'), b(100, 'x');
  out[0].pData = a.data();
  out[0].dataSize = a.size();
  out[1].pData = b.data();
  out[1].dataSize = b.size();
  uint32_t count = 2;
  EXPECT_EQ(statistics::GetExecutableInternalRepresentations(list, 0, &count, out.data()), VK_INCOMPLETE);
  EXPECT_EQ(count, 2u);
  EXPECT_STREQ(a.data(), "hel");
  EXPECT_EQ(out[1].dataSize, 5u);
}

TEST(InternalRepresentations, BinaryTruncation) {
  auto list = ThreeExecutables();
  auto out = Prepared<VkPipelineExecutableInternalRepresentationKHR>(2);
  std::vector<char> a(100, 'x'), b(3, 'x');
  out[0].pData = a.data();
  out[0].dataSize = a.size();
  out[1].pData = b.data();
  out[1].dataSize = b.size();
  uint32_t count = 2;
  EXPECT_EQ(statistics::GetExecutableInternalRepresentations(list, 0, &count, out.data()), VK_INCOMPLETE);
  EXPECT_EQ(out[1].dataSize, 3u);
  EXPECT_EQ(std::memcmp(b.data(), "\x01\x02\x03", 3), 0);  // binary fills the whole buffer, no NUL
}

TEST(InternalRepresentations, ZeroSizedBufferWritesNothing) {
  auto list = ThreeExecutables();
  auto out = Prepared<VkPipelineExecutableInternalRepresentationKHR>(2);
  char canary = 'x';
  for (auto& r : out) {
    r.pData = &canary;
    r.dataSize = 0;
  }
  uint32_t count = 2;
  EXPECT_EQ(statistics::GetExecutableInternalRepresentations(list, 0, &count, out.data()), VK_INCOMPLETE);
  EXPECT_EQ(canary, 'x');
  EXPECT_EQ(out[0].dataSize, 0u);
}

TEST(InternalRepresentations, ShortArrayWithFullElementsIsIncomplete) {
  auto list = ThreeExecutables();
  auto out = Prepared<VkPipelineExecutableInternalRepresentationKHR>(1);
  out[0].pData = nullptr;
  uint32_t count = 1;
  EXPECT_EQ(statistics::GetExecutableInternalRepresentations(list, 0, &count, out.data()), VK_INCOMPLETE);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(out[0].dataSize, 13u);
  count = 0;
  EXPECT_EQ(statistics::GetExecutableInternalRepresentations(list, 0, &count, out.data()), VK_INCOMPLETE);
}

// ---- The executables a compiled stage yields ----

TEST(ExecutableBuilder, CaptureFlagsDecideWhatIsKept) {
  pipeline::CompiledShader compiled = CompileCorpus("saxpy.comp.spv");
  const MachineModel& model = BuiltinModel("amd-rdna2");
  auto flags = statistics::CaptureFlagsFrom(VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR);
  EXPECT_TRUE(flags.statistics);
  EXPECT_FALSE(flags.internalRepresentations);
  ExecutableInfo none = statistics::DescribeExecutable(compiled, model, VK_SHADER_STAGE_COMPUTE_BIT, {});
  EXPECT_EQ(none.name, "compute");
  EXPECT_EQ(none.stages, VkShaderStageFlags{VK_SHADER_STAGE_COMPUTE_BIT});
  EXPECT_EQ(none.subgroupSize, 64u);
  EXPECT_TRUE(none.statistics.empty());
  EXPECT_TRUE(none.representations.empty());
  ExecutableInfo both = statistics::DescribeExecutable(
      compiled, model, VK_SHADER_STAGE_COMPUTE_BIT,
      statistics::CaptureFlagsFrom(VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR |
                                   VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR));
  // Setting the capture flags does not change the executable itself.
  EXPECT_EQ(both.name, none.name);
  EXPECT_EQ(both.description, none.description);
  EXPECT_EQ(both.subgroupSize, none.subgroupSize);
  ASSERT_FALSE(both.statistics.empty());
  ASSERT_EQ(both.representations.size(), 2u);
  EXPECT_EQ(both.representations[1].name, "crashtest IR");  // the final form last
  std::set<std::string> names;
  for (const ExecutableStatistic& s : both.statistics) {
    EXPECT_TRUE(names.insert(s.name).second);
    EXPECT_LT(s.name.size(), size_t{VK_MAX_DESCRIPTION_SIZE});
    EXPECT_LT(s.description.size(), size_t{VK_MAX_DESCRIPTION_SIZE});
    EXPECT_GE(s.format, VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR);
    EXPECT_LE(s.format, VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR);
  }
  // Through the protocol: the IR text comes back whole and NUL-terminated.
  std::vector<ExecutableInfo> executables = {both};
  uint32_t count = 2;
  auto out = Prepared<VkPipelineExecutableInternalRepresentationKHR>(2);
  for (auto& r : out) r.pData = nullptr;
  ASSERT_EQ(statistics::GetExecutableInternalRepresentations(executables, 0, &count, out.data()), VK_SUCCESS);
  std::vector<char> ir(out[1].dataSize);
  out[1].pData = ir.data();
  out[0].pData = nullptr;
  ASSERT_EQ(statistics::GetExecutableInternalRepresentations(executables, 0, &count, out.data()), VK_SUCCESS);
  EXPECT_EQ(ir.back(), '\0');
  EXPECT_EQ(std::string(ir.data()), both.representations[1].data);
}

TEST(ExecutableBuilder, SameShaderTwiceGivesTheSameSet) {
  // The CTS builds each pipeline twice and requires the same executables and statistic names and formats.
  const MachineModel& model = BuiltinModel("mali-g78");
  auto capture = statistics::CaptureFlagsFrom(VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR);
  ExecutableInfo a = statistics::DescribeExecutable(CompileCorpus("phong.frag.spv", VK_SHADER_STAGE_FRAGMENT_BIT),
                                                    model, VK_SHADER_STAGE_FRAGMENT_BIT, capture);
  ExecutableInfo b = statistics::DescribeExecutable(CompileCorpus("phong.frag.spv", VK_SHADER_STAGE_FRAGMENT_BIT),
                                                    model, VK_SHADER_STAGE_FRAGMENT_BIT, capture);
  EXPECT_EQ(a.name, "fragment");
  ASSERT_EQ(a.statistics.size(), b.statistics.size());
  for (size_t i = 0; i < a.statistics.size(); ++i) {
    EXPECT_EQ(a.statistics[i].name, b.statistics[i].name);
    EXPECT_EQ(a.statistics[i].format, b.statistics[i].format);
    EXPECT_EQ(a.statistics[i].value.u64, b.statistics[i].value.u64);
  }
}

}  // namespace
}  // namespace crashtest::test
