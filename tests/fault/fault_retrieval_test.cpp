// The retrieval rules of ../shared/spec/device-fault.md sections 6, 7 and 9 on the engine's data: counts
// protocol, VK_INCOMPLETE, header-does-not-fit, idempotence, the healthy-device EXT call, the binary feature off.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "fault/fault_engine.h"
#include "fault/fault_retrieval.h"
#include "fault/vendor_binary.h"
#include "fault_test_util.h"

namespace crashtest {
namespace {

using test::Fault;

// An engine whose device was lost by a fault with an address, an instruction address and two vendor infos.
std::unique_ptr<FaultEngine> LostEngine(bool vendorBinary) {
  FaultEngine::Setup setup;
  setup.features.vendorBinary = vendorBinary;
  setup.identity.applicationName = "app";
  PlannedFault f = Fault("pf", FaultTriggerKind::Submit, FaultEffect::DeviceLost, 1);
  f.report.description = "the fault";
  f.report.address = FaultAddress{VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR, 0x7f00, 4096};
  f.report.instruction = FaultAddress{VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_KHR, 0x40, 4};
  f.report.vendor = {{"v0", 1, 10}, {"v1", 2, 20}};
  setup.faults.push_back(f);
  auto engine = std::make_unique<FaultEngine>(std::move(setup));
  uint32_t hang = 0;
  engine->OnSubmit(0, 0, &hang);
  return engine;
}

TEST(FaultRetrievalEXT, HealthyDeviceGivesZeroCountsAndSuccess) {
  FaultEngine engine;
  VkDeviceFaultCountsEXT counts{VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
  counts.addressInfoCount = 5;
  counts.vendorBinarySize = 99;
  ASSERT_EQ(GetDeviceFaultInfoEXT(engine, &counts, nullptr), VK_SUCCESS);
  EXPECT_EQ(counts.addressInfoCount, 0u);
  EXPECT_EQ(counts.vendorInfoCount, 0u);
  EXPECT_EQ(counts.vendorBinarySize, 0u);
  VkDeviceFaultInfoEXT info{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT};
  std::memset(info.description, 'x', sizeof(info.description));
  EXPECT_EQ(GetDeviceFaultInfoEXT(engine, &counts, &info), VK_SUCCESS);
  EXPECT_STREQ(info.description, "");
}

TEST(FaultRetrievalEXT, CountsThenDataIdenticalOnEveryCall) {
  auto engine = LostEngine(true);
  VkDeviceFaultCountsEXT counts{VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
  ASSERT_EQ(GetDeviceFaultInfoEXT(*engine, &counts, nullptr), VK_SUCCESS);
  EXPECT_EQ(counts.addressInfoCount, 2u);  // fault address + instruction address
  EXPECT_EQ(counts.vendorInfoCount, 2u);
  ASSERT_GT(counts.vendorBinarySize, 56u);
  EXPECT_EQ(counts.vendorBinarySize, engine->loss()->vendorBinary.size());
  VkDeviceFaultCountsEXT again{VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
  ASSERT_EQ(GetDeviceFaultInfoEXT(*engine, &again, nullptr), VK_SUCCESS);
  EXPECT_EQ(again.addressInfoCount, counts.addressInfoCount);
  EXPECT_EQ(again.vendorBinarySize, counts.vendorBinarySize);

  std::vector<std::vector<std::byte>> binaries;
  for (int call = 0; call < 2; ++call) {
    VkDeviceFaultCountsEXT c = counts;
    std::vector<VkDeviceFaultAddressInfoEXT> addresses(c.addressInfoCount);
    std::vector<VkDeviceFaultVendorInfoEXT> vendors(c.vendorInfoCount);
    std::vector<std::byte> binary(c.vendorBinarySize);
    int marker = 0;
    VkDeviceFaultInfoEXT info{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT, &marker};
    info.pAddressInfos = addresses.data();
    info.pVendorInfos = vendors.data();
    info.pVendorBinaryData = binary.data();
    ASSERT_EQ(GetDeviceFaultInfoEXT(*engine, &c, &info), VK_SUCCESS);
    EXPECT_EQ(info.sType, VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT);
    EXPECT_EQ(info.pNext, &marker) << "the caller's pNext is kept";
    EXPECT_STREQ(info.description, "the fault");
    EXPECT_EQ(addresses[0].addressType, VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT);
    EXPECT_EQ(addresses[0].reportedAddress, 0x7f00u);
    EXPECT_EQ(addresses[0].addressPrecision, 4096u);
    EXPECT_EQ(addresses[1].addressType, VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_EXT);
    EXPECT_STREQ(vendors[0].description, "v0");
    EXPECT_EQ(vendors[1].vendorFaultData, 20u);
    uint32_t headerSize;
    std::memcpy(&headerSize, binary.data(), 4);
    EXPECT_EQ(headerSize, 56u);
    binaries.push_back(binary);
  }
  EXPECT_EQ(binaries[0], binaries[1]) << "identical bytes on every call";
}

TEST(FaultRetrievalEXT, SmallCapacitiesGiveIncomplete) {
  auto engine = LostEngine(true);
  VkDeviceFaultCountsEXT counts{VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
  counts.addressInfoCount = 1;
  counts.vendorInfoCount = 2;
  counts.vendorBinarySize = 100;
  std::vector<VkDeviceFaultAddressInfoEXT> addresses(1);
  std::vector<VkDeviceFaultVendorInfoEXT> vendors(2);
  std::vector<std::byte> binary(100, std::byte{0xAB});
  VkDeviceFaultInfoEXT info{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT};
  info.pAddressInfos = addresses.data();
  info.pVendorInfos = vendors.data();
  info.pVendorBinaryData = binary.data();
  EXPECT_EQ(GetDeviceFaultInfoEXT(*engine, &counts, &info), VK_INCOMPLETE);
  EXPECT_EQ(counts.addressInfoCount, 1u);
  EXPECT_EQ(counts.vendorInfoCount, 2u);
  EXPECT_EQ(counts.vendorBinarySize, 100u);
  EXPECT_EQ(std::memcmp(binary.data(), engine->loss()->vendorBinary.data(), 100), 0) << "a prefix of the binary";
}

TEST(FaultRetrievalEXT, HeaderThatDoesNotFitWritesNothing) {
  auto engine = LostEngine(true);
  VkDeviceFaultCountsEXT counts{VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
  counts.addressInfoCount = 2;
  counts.vendorInfoCount = 2;
  counts.vendorBinarySize = 55;
  std::vector<VkDeviceFaultAddressInfoEXT> addresses(2);
  std::vector<VkDeviceFaultVendorInfoEXT> vendors(2);
  std::vector<std::byte> binary(55, std::byte{0xAB});
  VkDeviceFaultInfoEXT info{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT};
  info.pAddressInfos = addresses.data();
  info.pVendorInfos = vendors.data();
  info.pVendorBinaryData = binary.data();
  EXPECT_EQ(GetDeviceFaultInfoEXT(*engine, &counts, &info), VK_INCOMPLETE);
  EXPECT_EQ(counts.vendorBinarySize, 0u);
  EXPECT_EQ(binary, std::vector<std::byte>(55, std::byte{0xAB}));
}

TEST(FaultRetrievalEXT, BinaryFeatureOffMeansSizeZeroAndUntouched) {
  auto engine = LostEngine(false);
  VkDeviceFaultCountsEXT counts{VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
  ASSERT_EQ(GetDeviceFaultInfoEXT(*engine, &counts, nullptr), VK_SUCCESS);
  EXPECT_EQ(counts.vendorBinarySize, 0u);
  counts.vendorBinarySize = 64;
  std::vector<std::byte> binary(64, std::byte{0xAB});
  std::vector<VkDeviceFaultAddressInfoEXT> addresses(2);
  std::vector<VkDeviceFaultVendorInfoEXT> vendors(2);
  VkDeviceFaultInfoEXT info{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT};
  info.pAddressInfos = addresses.data();
  info.pVendorInfos = vendors.data();
  info.pVendorBinaryData = binary.data();
  EXPECT_EQ(GetDeviceFaultInfoEXT(*engine, &counts, &info), VK_SUCCESS);
  EXPECT_EQ(counts.vendorBinarySize, 0u);
  EXPECT_EQ(binary, std::vector<std::byte>(64, std::byte{0xAB}));
}

TEST(FaultRetrievalEXT, NullArrayWithCountWritesNothingThere) {
  auto engine = LostEngine(true);
  VkDeviceFaultCountsEXT counts{VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
  counts.addressInfoCount = 4;
  counts.vendorInfoCount = 4;
  VkDeviceFaultInfoEXT info{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT};
  EXPECT_EQ(GetDeviceFaultInfoEXT(*engine, &counts, &info), VK_SUCCESS);
  EXPECT_EQ(counts.addressInfoCount, 2u) << "the total for that array";
  EXPECT_STREQ(info.description, "the fault");
}

TEST(FaultDebugInfoKHR, SizeQueryThenIdenticalBytes) {
  auto engine = LostEngine(true);
  VkDeviceFaultDebugInfoKHR debug{VK_STRUCTURE_TYPE_DEVICE_FAULT_DEBUG_INFO_KHR};
  ASSERT_EQ(GetDeviceFaultDebugInfo(*engine, &debug), VK_SUCCESS);
  const uint32_t size = debug.vendorBinarySize;
  ASSERT_EQ(size, engine->loss()->vendorBinary.size());
  std::vector<std::byte> a(size), b(size);
  debug.pVendorBinaryData = a.data();
  ASSERT_EQ(GetDeviceFaultDebugInfo(*engine, &debug), VK_SUCCESS);
  EXPECT_EQ(debug.vendorBinarySize, size);
  debug.pVendorBinaryData = b.data();
  ASSERT_EQ(GetDeviceFaultDebugInfo(*engine, &debug), VK_SUCCESS);
  EXPECT_EQ(a, b);
  EXPECT_STREQ(reinterpret_cast<const char*>(a.data() + 56), "app");
}

TEST(FaultDebugInfoKHR, TooSmallBufferRules) {
  auto engine = LostEngine(true);
  const auto& full = engine->loss()->vendorBinary;
  std::vector<std::byte> buffer(full.size(), std::byte{0xAB});
  VkDeviceFaultDebugInfoKHR debug{VK_STRUCTURE_TYPE_DEVICE_FAULT_DEBUG_INFO_KHR};
  debug.pVendorBinaryData = buffer.data();
  debug.vendorBinarySize = 60;
  EXPECT_EQ(GetDeviceFaultDebugInfo(*engine, &debug), VK_INCOMPLETE);
  EXPECT_EQ(debug.vendorBinarySize, 60u);
  EXPECT_EQ(std::memcmp(buffer.data(), full.data(), 60), 0);
  EXPECT_EQ(buffer[60], std::byte{0xAB});
  std::fill(buffer.begin(), buffer.end(), std::byte{0xAB});
  debug.vendorBinarySize = 55;  // the header does not fit: nothing, size 0
  EXPECT_EQ(GetDeviceFaultDebugInfo(*engine, &debug), VK_INCOMPLETE);
  EXPECT_EQ(debug.vendorBinarySize, 0u);
  EXPECT_EQ(buffer[0], std::byte{0xAB});
}

TEST(FaultDebugInfoKHR, FeatureOffOrHealthyDeviceGivesSizeZero) {
  auto off = LostEngine(false);
  std::byte canary{0xAB};
  VkDeviceFaultDebugInfoKHR debug{VK_STRUCTURE_TYPE_DEVICE_FAULT_DEBUG_INFO_KHR};
  debug.vendorBinarySize = 1;
  debug.pVendorBinaryData = &canary;
  EXPECT_EQ(GetDeviceFaultDebugInfo(*off, &debug), VK_SUCCESS);
  EXPECT_EQ(debug.vendorBinarySize, 0u);
  EXPECT_EQ(canary, std::byte{0xAB});
  FaultEngine healthy;
  debug.vendorBinarySize = 1;
  EXPECT_EQ(GetDeviceFaultDebugInfo(healthy, &debug), VK_SUCCESS);
  EXPECT_EQ(debug.vendorBinarySize, 0u);
}

TEST(FaultReportsKHR, ZeroTimeoutPollCountQueryAndIncomplete) {
  FaultEngine::Setup setup;
  setup.features.reportMasked = true;
  FaultEngine engine(std::move(setup));
  uint32_t count = 7;
  EXPECT_EQ(GetDeviceFaultReports(engine, 0, &count, nullptr), VK_TIMEOUT) << "nothing queued: VK_TIMEOUT";
  EXPECT_EQ(count, 0u);
  const PlannedFault masked = Fault("m", FaultTriggerKind::Submit, FaultEffect::Masked);
  for (int i = 0; i < 3; ++i) engine.Inject(masked, "test");
  ASSERT_EQ(GetDeviceFaultReports(engine, 0, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 3u);
  ASSERT_EQ(GetDeviceFaultReports(engine, 0, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 3u) << "a count query consumes nothing";
  VkDeviceFaultInfoKHR infos[2] = {{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR}, {VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR}};
  count = 2;
  EXPECT_EQ(GetDeviceFaultReports(engine, 0, &count, infos), VK_INCOMPLETE);
  EXPECT_EQ(count, 2u);
  EXPECT_LT(infos[0].groupId, infos[1].groupId);
  count = 2;
  EXPECT_EQ(GetDeviceFaultReports(engine, 0, &count, infos), VK_SUCCESS);
  EXPECT_EQ(count, 1u) << "the rest stayed queued";
  count = 0;
  EXPECT_EQ(GetDeviceFaultReports(engine, 0, &count, infos), VK_ERROR_VALIDATION_FAILED_EXT)
      << "VUID-vkGetDeviceFaultReportsKHR-pFaultCounts-arraylength";
}

}  // namespace
}  // namespace crashtest
