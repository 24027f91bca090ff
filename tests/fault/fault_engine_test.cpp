// The fault engine on its own: triggers counted deterministically, effects at the triggering call, reports and
// groups, masked-fault features, hang and watchdog, the loss snapshot and its vendor binary.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "fault/fault_engine.h"
#include "fault/vendor_binary.h"
#include "fault/dump/dump_sections.h"
#include "fault_test_util.h"

namespace crashtest {
namespace {

using test::Fault;

std::vector<VkDeviceFaultInfoKHR> Drain(FaultEngine& engine) {
  uint32_t count = 0;
  if (engine.reports().Take(0, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<VkDeviceFaultInfoKHR> infos(count, VkDeviceFaultInfoKHR{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR});
  engine.reports().Take(0, &count, infos.data());
  infos.resize(count);
  return infos;
}

TEST(FaultEngine, EmptyPlanWatchesNothing) {
  FaultEngine engine;
  EXPECT_FALSE(engine.WatchesSubmits());
  EXPECT_FALSE(engine.WatchesAllocations());
  EXPECT_FALSE(engine.WatchesLabels());
  EXPECT_FALSE(engine.lost());
  EXPECT_EQ(engine.loss(), nullptr);
}

TEST(FaultEngine, ThirdSubmitLosesTheDevice) {
  FaultEngine::Setup setup;
  setup.faults.push_back(Fault("third", FaultTriggerKind::Submit, FaultEffect::DeviceLost, 3));
  int lostCalls = 0;
  setup.onLost = [&](const std::function<void()>& publish) {
    publish();
    ++lostCalls;
  };
  FaultEngine engine(std::move(setup));
  ASSERT_TRUE(engine.WatchesSubmits());
  uint32_t hang = 0;
  EXPECT_EQ(engine.OnSubmit(0, 0, &hang), VK_SUCCESS);
  EXPECT_EQ(engine.OnSubmit(0, 1, &hang), VK_SUCCESS);
  EXPECT_FALSE(engine.lost());
  EXPECT_EQ(engine.OnSubmit(0, 0, &hang), VK_ERROR_DEVICE_LOST);
  EXPECT_TRUE(engine.lost());
  EXPECT_EQ(lostCalls, 1);
  EXPECT_EQ(engine.OnSubmit(0, 0, &hang), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(lostCalls, 1) << "the loss is announced once";
  EXPECT_EQ(engine.firedCount(), 1u);

  auto reports = Drain(engine);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].flags, static_cast<VkDeviceFaultFlagsKHR>(VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR));
  EXPECT_NE(std::strstr(reports[0].description, "\"third\""), nullptr) << reports[0].description;
  EXPECT_NE(std::strstr(reports[0].description, "submit 3"), nullptr) << reports[0].description;
  ASSERT_NE(engine.loss(), nullptr);
  EXPECT_EQ(engine.loss()->reports.size(), 1u);
}

TEST(FaultEngine, CommandTriggersFilterByKindQueuePipelineAndHash) {
  FaultEngine::Setup setup;
  PlannedFault byName = Fault("by-name", FaultTriggerKind::Draw, FaultEffect::Masked, 2);
  byName.when.pipelineName = "Shadow";
  PlannedFault byHash = Fault("by-hash", FaultTriggerKind::Dispatch, FaultEffect::DeviceLost, 1);
  byHash.when.shaderHash = 0xabcdull;
  byHash.when.queue = FaultQueueSelector{0, 1};
  PlannedFault label = Fault("label", FaultTriggerKind::Label, FaultEffect::Masked);
  label.when.name = "Pass";
  setup.faults = {byName, byHash, label};
  FaultEngine engine(std::move(setup));
  EXPECT_TRUE(engine.WatchesCommands());
  EXPECT_TRUE(engine.WantsPipelineIdentity());
  EXPECT_TRUE(engine.WatchesLabels()) << "queue labels still count";
  EXPECT_FALSE(engine.WatchesSubmits());

  std::vector<FaultEngine::CommandMatch> fired;
  // The faults that fire at `event`, as "index:match" strings.
  auto fire = [&](const CommandEvent& event) {
    fired.clear();
    engine.OnCommand(event, &fired);
    std::vector<std::string> out;
    for (const auto& m : fired) out.push_back(std::to_string(m.fault) + ":" + m.match);
    return out;
  };
  using Fired = std::vector<std::string>;
  const uint64_t hashes[] = {0x1234ull, 0xabcdull};
  CommandEvent draw{FaultTriggerKind::Draw, 0, 0, {}, "Shadow", {}};
  CommandEvent otherDraw{FaultTriggerKind::Draw, 0, 0, {}, "Opaque", {}};
  EXPECT_EQ(fire(draw), Fired{}) << "the first Shadow draw";
  EXPECT_EQ(fire(otherDraw), Fired{}) << "a draw of another pipeline";
  EXPECT_EQ(fire(draw), Fired{"1:draw 2 of pipeline \"Shadow\""});

  CommandEvent dispatchQueue0{FaultTriggerKind::Dispatch, 0, 0, {}, "", hashes};
  CommandEvent dispatchNoHash{FaultTriggerKind::Dispatch, 0, 1, {}, "", {}};
  CommandEvent dispatchQueue1{FaultTriggerKind::Dispatch, 0, 1, {}, "", hashes};
  EXPECT_EQ(fire(dispatchQueue0), Fired{}) << "another queue";
  EXPECT_EQ(fire(dispatchNoHash), Fired{}) << "a pipeline without the hash";
  EXPECT_EQ(fire(dispatchQueue1), Fired{"2:dispatch 1 (shader hash 0x000000000000abcd)"}) << "no name, none printed";

  CommandEvent otherLabel{FaultTriggerKind::Label, 0, 0, "Other", {}, {}};
  CommandEvent passLabel{FaultTriggerKind::Label, 0, 0, "Pass", {}, {}};
  EXPECT_EQ(fire(otherLabel), Fired{});
  EXPECT_EQ(fire(passLabel), Fired{"3:entering the label region \"Pass\" in a command buffer"});
  EXPECT_EQ(fire(passLabel), Fired{}) << "fires once without repeat";

  // Firing: masked continues, device-lost stops; nothing fires on a lost device.
  EXPECT_EQ(engine.FireAtCommand(1, "at draw 2"), CommandFaultOutcome::Continue);
  EXPECT_FALSE(engine.lost());
  EXPECT_EQ(engine.FireAtCommand(2, "at dispatch 1"), CommandFaultOutcome::Stop);
  EXPECT_TRUE(engine.lost());
  EXPECT_EQ(engine.FireAtCommand(3, "at label"), CommandFaultOutcome::Stop);
  EXPECT_EQ(engine.firedCount(), 2u);
}

TEST(FaultEngine, TwoFaultsAtOneCommandKeepTheirOwnMatch) {
  FaultEngine::Setup setup;
  PlannedFault any = Fault("any", FaultTriggerKind::Dispatch, FaultEffect::Masked, 2);
  PlannedFault named = Fault("named", FaultTriggerKind::Dispatch, FaultEffect::Masked, 1);
  named.when.pipelineName = "Blur";
  setup.faults = {any, named};
  FaultEngine engine(std::move(setup));
  std::vector<FaultEngine::CommandMatch> fired;
  engine.OnCommand(CommandEvent{FaultTriggerKind::Dispatch, 0, 0, {}, "Sharpen", {}}, &fired);
  EXPECT_TRUE(fired.empty());
  engine.OnCommand(CommandEvent{FaultTriggerKind::Dispatch, 0, 0, {}, "Blur", {}}, &fired);
  ASSERT_EQ(fired.size(), 2u);
  EXPECT_EQ(fired[0].fault, 1u);
  EXPECT_EQ(fired[0].match, "dispatch 2 of pipeline \"Blur\"");
  EXPECT_EQ(fired[1].fault, 2u);
  EXPECT_EQ(fired[1].match, "dispatch 1 of pipeline \"Blur\"");
}

TEST(FaultEngine, PerQueueSubmitCountsOnlyThatQueue) {
  FaultEngine::Setup setup;
  PlannedFault f = Fault("q1", FaultTriggerKind::Submit, FaultEffect::OutOfHostMemory, 2);
  f.when.queue = FaultQueueSelector{0, 1};
  setup.faults.push_back(f);
  FaultEngine engine(std::move(setup));
  uint32_t hang = 0;
  EXPECT_EQ(engine.OnSubmit(0, 0, &hang), VK_SUCCESS);
  EXPECT_EQ(engine.OnSubmit(0, 1, &hang), VK_SUCCESS);
  EXPECT_EQ(engine.OnSubmit(0, 0, &hang), VK_SUCCESS);
  EXPECT_EQ(engine.OnSubmit(1, 1, &hang), VK_SUCCESS);
  EXPECT_EQ(engine.OnSubmit(0, 1, &hang), VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(engine.OnSubmit(0, 1, &hang), VK_SUCCESS) << "fires once without repeat";
  EXPECT_FALSE(engine.lost());
  EXPECT_TRUE(Drain(engine).empty()) << "an out-of-memory result is not a device fault";
}

TEST(FaultEngine, RepeatFiresAtEveryNth) {
  FaultEngine::Setup setup;
  PlannedFault f = Fault("every2", FaultTriggerKind::Allocation, FaultEffect::OutOfDeviceMemory, 2);
  f.repeat = true;
  setup.faults.push_back(f);
  FaultEngine engine(std::move(setup));
  std::vector<VkResult> results;
  for (int i = 0; i < 6; ++i) results.push_back(engine.OnAllocate(64));
  EXPECT_EQ(results, (std::vector<VkResult>{VK_SUCCESS, VK_ERROR_OUT_OF_DEVICE_MEMORY, VK_SUCCESS,
                                            VK_ERROR_OUT_OF_DEVICE_MEMORY, VK_SUCCESS,
                                            VK_ERROR_OUT_OF_DEVICE_MEMORY}));
  EXPECT_EQ(engine.firedCount(), 3u);
}

TEST(FaultEngine, AllocationAboveASize) {
  FaultEngine::Setup setup;
  PlannedFault f = Fault("big", FaultTriggerKind::AllocationSize, FaultEffect::OutOfHostMemory);
  f.when.bytes = 1 << 20;
  setup.faults.push_back(f);
  FaultEngine engine(std::move(setup));
  EXPECT_EQ(engine.OnAllocate(1 << 20), VK_SUCCESS) << "not above";
  EXPECT_EQ(engine.OnAllocate((1 << 20) + 1), VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(engine.OnAllocate(1 << 21), VK_SUCCESS) << "once";
}

TEST(FaultEngine, DeviceLostOnAllocationShowsAtTheNextCallThatCanSayIt) {
  FaultEngine::Setup setup;
  setup.faults.push_back(Fault("alloc", FaultTriggerKind::Allocation, FaultEffect::DeviceLost, 1));
  FaultEngine engine(std::move(setup));
  // vkAllocateMemory has no VK_ERROR_DEVICE_LOST result.
  EXPECT_EQ(engine.OnAllocate(16), VK_SUCCESS);
  EXPECT_TRUE(engine.lost());
  uint32_t hang = 0;
  EXPECT_EQ(engine.OnSubmit(0, 0, &hang), VK_ERROR_DEVICE_LOST);
}

TEST(FaultEngine, LabelTriggerMatchesTheName) {
  FaultEngine::Setup setup;
  setup.features.reportMasked = true;
  PlannedFault f = Fault("shadows", FaultTriggerKind::Label, FaultEffect::Masked);
  f.when.name = "Shadows";
  f.repeat = true;
  setup.faults.push_back(f);
  FaultEngine engine(std::move(setup));
  ASSERT_TRUE(engine.WatchesLabels());
  engine.OnLabel("Frame");
  engine.OnLabel("Shadow");
  engine.OnLabel(nullptr);
  EXPECT_TRUE(Drain(engine).empty());
  engine.OnLabel("Shadows");
  engine.OnLabel("Shadows");
  auto reports = Drain(engine);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0].flags, 0u) << "masked: no DEVICE_LOST";
  EXPECT_LT(reports[0].groupId, reports[1].groupId) << "each fault its own, increasing group";
  EXPECT_FALSE(engine.lost());
}

TEST(FaultEngine, MaskedFaultsFollowTheFeatures) {
  for (int mode = 0; mode < 3; ++mode) {
    SCOPED_TRACE(mode);
    FaultEngine::Setup setup;
    setup.features.reportMasked = mode >= 1;
    setup.features.lostOnMasked = mode == 2;
    setup.faults.push_back(Fault("m", FaultTriggerKind::Submit, FaultEffect::Masked, 1));
    FaultEngine engine(std::move(setup));
    uint32_t hang = 0;
    const VkResult result = engine.OnSubmit(0, 0, &hang);
    auto reports = Drain(engine);
    EXPECT_EQ(engine.firedCount(), 1u);
    if (mode == 0) {  // not reported, device lives
      EXPECT_EQ(result, VK_SUCCESS);
      EXPECT_TRUE(reports.empty());
      EXPECT_FALSE(engine.lost());
    } else if (mode == 1) {  // reported, device lives
      EXPECT_EQ(result, VK_SUCCESS);
      ASSERT_EQ(reports.size(), 1u);
      EXPECT_EQ(reports[0].flags, 0u);
      EXPECT_FALSE(engine.lost());
    } else {  // deviceFaultDeviceLostOnMasked: fatal, flagged DEVICE_LOST
      EXPECT_EQ(result, VK_ERROR_DEVICE_LOST);
      ASSERT_EQ(reports.size(), 1u);
      EXPECT_EQ(reports[0].flags, static_cast<VkDeviceFaultFlagsKHR>(VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR));
      EXPECT_TRUE(engine.lost());
    }
  }
}

TEST(FaultEngine, ReportContentGroupsAndFlags) {
  FaultEngine::Setup setup;
  PlannedFault f = Fault("pf", FaultTriggerKind::Submit, FaultEffect::DeviceLost, 1);
  f.report.description = "page fault in the shadow pass";
  f.report.address = FaultAddress{VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR, 0x7f00, 4096};
  f.report.instruction = FaultAddress{VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_KHR, 0x1234, 1};
  f.report.vendor = {{"ring 0 timeout", 7, 1}, {"shader engine 2", 8, 2}};
  setup.faults.push_back(f);
  FaultEngine engine(std::move(setup));
  uint32_t hang = 0;
  ASSERT_EQ(engine.OnSubmit(0, 0, &hang), VK_ERROR_DEVICE_LOST);
  auto r = Drain(engine);
  ASSERT_EQ(r.size(), 2u) << "one entry per vendor info";
  EXPECT_EQ(r[0].groupId, r[1].groupId) << "entries of one error share a group";
  EXPECT_EQ(r[0].flags, static_cast<VkDeviceFaultFlagsKHR>(VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR |
                                                            VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR |
                                                            VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR));
  EXPECT_EQ(r[1].flags, static_cast<VkDeviceFaultFlagsKHR>(VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR |
                                                            VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR))
      << "the last entry of the losing group carries DEVICE_LOST";
  EXPECT_STREQ(r[0].description, "page fault in the shadow pass");
  EXPECT_EQ(r[0].faultAddressInfo.addressType, VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR);
  EXPECT_EQ(r[0].faultAddressInfo.reportedAddress, 0x7f00u);
  EXPECT_EQ(r[0].faultAddressInfo.addressPrecision, 4096u);
  EXPECT_EQ(r[0].instructionAddressInfo.reportedAddress, 0x1234u);
  EXPECT_STREQ(r[0].vendorInfo.description, "ring 0 timeout");
  EXPECT_EQ(r[1].vendorInfo.vendorFaultCode, 8u);
  EXPECT_EQ(r[1].vendorInfo.vendorFaultData, 2u);
}

TEST(FaultEngine, NoReportsAfterTheLoss) {
  FaultEngine::Setup setup;
  setup.features.reportMasked = true;
  setup.faults.push_back(Fault("lose", FaultTriggerKind::Submit, FaultEffect::DeviceLost, 1));
  PlannedFault masked = Fault("later", FaultTriggerKind::Allocation, FaultEffect::Masked, 1);
  setup.faults.push_back(masked);
  FaultEngine engine(std::move(setup));
  uint32_t hang = 0;
  engine.OnSubmit(0, 0, &hang);
  EXPECT_EQ(engine.Inject(Fault("inj", FaultTriggerKind::Submit, FaultEffect::DeviceLost), "test"),
            VK_ERROR_DEVICE_LOST);
  engine.OnAllocate(1);  // "DEVICE_LOST ... no further entries" — crashtest stops triggering once lost
  EXPECT_EQ(Drain(engine).size(), 1u);
}

TEST(FaultEngine, RandomTriggerIsDeterministicForASeed) {
  auto run = [](uint64_t seed) {
    FaultEngine::Setup setup;
    PlannedFault f = Fault("rnd", FaultTriggerKind::Random, FaultEffect::OutOfHostMemory);
    f.when.probability = 0.3;
    f.when.seed = seed;
    f.repeat = true;
    setup.faults.push_back(f);
    FaultEngine engine(std::move(setup));
    std::vector<bool> fired;
    uint32_t hang = 0;
    for (int i = 0; i < 200; ++i) fired.push_back(engine.OnSubmit(0, 0, &hang) != VK_SUCCESS);
    return fired;
  };
  const auto a = run(42);
  EXPECT_EQ(a, run(42)) << "same seed, same run";
  EXPECT_NE(a, run(43)) << "another seed, another run";
  const auto hits = std::count(a.begin(), a.end(), true);
  EXPECT_GT(hits, 30);   // ~60 expected at p = 0.3
  EXPECT_LT(hits, 100);
}

TEST(FaultEngine, HangThenWatchdogLosesTheDevice) {
  FaultEngine::Setup setup;
  PlannedFault f = Fault("hang", FaultTriggerKind::Submit, FaultEffect::Hang, 2);
  f.watchdogMs = 20;
  setup.faults.push_back(f);
  std::atomic<int> lostCalls{0};
  setup.onLost = [&](const std::function<void()>& publish) {
    publish();
    ++lostCalls;
  };
  FaultEngine engine(std::move(setup));
  engine.Start();
  uint32_t hang = 0;
  EXPECT_EQ(engine.OnSubmit(0, 0, &hang), VK_SUCCESS);
  EXPECT_EQ(hang, 0u);
  EXPECT_EQ(engine.OnSubmit(0, 0, &hang), VK_SUCCESS) << "a hang is not an error of the submit";
  ASSERT_NE(hang, 0u);
  EXPECT_FALSE(engine.lost()) << "the watchdog starts when the queue reaches the work";
  engine.BeginHang(hang);
  uint32_t count = 1;
  VkDeviceFaultInfoKHR info{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR};
  // Blocks until the watchdog's report arrives (no fixed sleep).
  ASSERT_EQ(engine.reports().Take(UINT64_MAX, &count, &info), VK_SUCCESS);
  EXPECT_EQ(info.flags, static_cast<VkDeviceFaultFlagsKHR>(VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR |
                                                           VK_DEVICE_FAULT_FLAG_WATCHDOG_TIMEOUT_BIT_KHR));
  EXPECT_NE(std::strstr(info.description, "watchdog"), nullptr) << info.description;
  engine.Shutdown();  // joins the timer: onLost has run
  EXPECT_TRUE(engine.lost());
  EXPECT_EQ(lostCalls.load(), 1);
}

TEST(FaultEngine, TimeTriggerFiresAfterStart) {
  FaultEngine::Setup setup;
  PlannedFault f = Fault("timer", FaultTriggerKind::Time, FaultEffect::DeviceLost);
  f.when.milliseconds = 5;
  setup.faults.push_back(f);
  FaultEngine engine(std::move(setup));
  EXPECT_FALSE(engine.WatchesSubmits()) << "time triggers cost the submit path nothing";
  engine.Start();
  uint32_t count = 0;
  ASSERT_EQ(engine.reports().Take(UINT64_MAX, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 1u);
  engine.Shutdown();
  EXPECT_TRUE(engine.lost());
}

TEST(FaultEngine, ShutdownWithAPendingTimerNeitherFiresNorHangs) {
  FaultEngine::Setup setup;
  PlannedFault f = Fault("late", FaultTriggerKind::Time, FaultEffect::DeviceLost);
  f.when.milliseconds = 3600000;
  setup.faults.push_back(f);
  FaultEngine engine(std::move(setup));
  engine.Start();
  engine.Shutdown();
  EXPECT_FALSE(engine.lost());
}

TEST(FaultEngine, VendorBinaryHeaderNamesAndFaultsSection) {
  FaultEngine::Setup setup;
  setup.features.vendorBinary = true;
  setup.identity.vendorID = 0x1002;
  setup.identity.deviceID = 0x73bf;
  setup.identity.driverVersion = 77;
  for (uint32_t i = 0; i < VK_UUID_SIZE; ++i) setup.identity.pipelineCacheUUID[i] = static_cast<uint8_t>(i + 1);
  setup.identity.applicationName = "Game";
  setup.identity.engineName = "Engine";
  setup.identity.applicationVersion = 3;
  setup.identity.engineVersion = 4;
  setup.identity.apiVersion = VK_API_VERSION_1_3;
  PlannedFault f = Fault("pf", FaultTriggerKind::Submit, FaultEffect::DeviceLost, 1);
  f.report.description = "boom";
  f.report.address = FaultAddress{VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_KHR, 0xdead0000, 256};
  setup.faults.push_back(f);
  FaultEngine engine(std::move(setup));
  uint32_t hang = 0;
  engine.OnSubmit(0, 0, &hang);
  ASSERT_NE(engine.loss(), nullptr);
  const std::vector<std::byte>& b = engine.loss()->vendorBinary;
  auto u32 = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
  };
  auto u64 = [&](size_t at) {
    uint64_t v;
    std::memcpy(&v, b.data() + at, 8);
    return v;
  };
  ASSERT_GE(b.size(), 56u);
  EXPECT_EQ(u32(0), 56u);  // headerSize
  EXPECT_EQ(u32(4), 1u);   // VK_DEVICE_FAULT_VENDOR_BINARY_HEADER_VERSION_ONE
  EXPECT_EQ(u32(8), 0x1002u);
  EXPECT_EQ(u32(12), 0x73bfu);
  EXPECT_EQ(u32(16), 77u);
  EXPECT_EQ(static_cast<uint8_t>(b[20]), 1);
  EXPECT_EQ(static_cast<uint8_t>(b[35]), 16);
  EXPECT_EQ(u32(36), 56u);  // applicationNameOffset
  EXPECT_EQ(u32(40), 3u);
  EXPECT_EQ(u32(44), 61u);  // engineNameOffset: after "Game\0"
  EXPECT_EQ(u32(48), 4u);
  EXPECT_EQ(u32(52), VK_API_VERSION_1_3);
  EXPECT_STREQ(reinterpret_cast<const char*>(b.data() + 56), "Game");
  EXPECT_STREQ(reinterpret_cast<const char*>(b.data() + 61), "Engine");
  const size_t container = 72;  // 68 rounded up to 8
  EXPECT_EQ(std::memcmp(b.data() + container, kDumpMagic, 8), 0);
  EXPECT_EQ(u32(container + 8), kDumpVersion);
  // The faults, then the submissions, pipelines, resources, breadcrumbs and names (empty lists without a device).
  EXPECT_EQ(u32(container + 12), 6u);
  const size_t section = container + 16;
  EXPECT_EQ(u32(section), dump::kSectionFaults);
  EXPECT_EQ(u32(section + 4), dump::kSectionVersion);
  EXPECT_EQ(u64(section + 8), 8u + dump::kFaultRecordSize);
  const size_t payload = section + 16;
  EXPECT_EQ(u32(payload), 1u);
  EXPECT_EQ(u32(payload + 4), dump::kFaultRecordSize);
  const size_t record = payload + 8;
  EXPECT_EQ(u32(record), static_cast<uint32_t>(VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR |
                                               VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR));
  EXPECT_EQ(u32(record + 4), static_cast<uint32_t>(VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_KHR));
  EXPECT_EQ(u64(record + 16), 0xdead0000u);
  EXPECT_EQ(u64(record + 24), 256u);
  EXPECT_STREQ(reinterpret_cast<const char*>(b.data() + record + 72), "pf");
  EXPECT_STREQ(reinterpret_cast<const char*>(b.data() + record + 72 + dump::kFaultIdSize), "boom");
  EXPECT_EQ(b.size() % 8, 0u);
  EXPECT_EQ(u32(record + dump::kFaultRecordSize), dump::kSectionSubmissions);
}

TEST(FaultEngine, NoBinaryWhenTheFaultAsksForNone) {
  FaultEngine::Setup setup;
  PlannedFault f = Fault("pf", FaultTriggerKind::Submit, FaultEffect::DeviceLost, 1);
  f.report.binary = false;
  setup.faults.push_back(f);
  FaultEngine engine(std::move(setup));
  uint32_t hang = 0;
  engine.OnSubmit(0, 0, &hang);
  ASSERT_NE(engine.loss(), nullptr);
  EXPECT_TRUE(engine.loss()->vendorBinary.empty());
}

// 8 threads drain while masked faults are injected at a high rate: every report exactly once, none lost, each
// thread's sequence in order of occurrence (run under ThreadSanitizer too).
TEST(FaultEngine, ConcurrentInjectionAndDraining) {
  constexpr int kFaults = 20000;
  constexpr int kReaders = 8;
  FaultEngine::Setup setup;
  setup.features.reportMasked = true;
  setup.capacity = kFaults;  // large enough that nothing overflows
  FaultEngine engine(std::move(setup));
  const PlannedFault masked = Fault("masked", FaultTriggerKind::Submit, FaultEffect::Masked);
  std::atomic<bool> done{false};
  std::vector<std::vector<uint64_t>> seen(kReaders);
  std::vector<std::thread> readers;
  for (int t = 0; t < kReaders; ++t) {
    readers.emplace_back([&, t] {
      VkDeviceFaultInfoKHR infos[16];
      for (;;) {
        uint32_t count = 16;
        for (auto& i : infos) i.sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR;
        VkResult r = engine.reports().Take(1000000, &count, infos);  // 1 ms
        for (uint32_t i = 0; i < count; ++i) seen[t].push_back(infos[i].groupId);
        if (r == VK_TIMEOUT && done.load()) return;
      }
    });
  }
  for (int i = 0; i < kFaults; ++i) ASSERT_EQ(engine.Inject(masked, "stress"), VK_SUCCESS);
  done = true;
  for (auto& r : readers) r.join();
  std::vector<uint64_t> all;
  for (const auto& s : seen) {
    EXPECT_TRUE(std::is_sorted(s.begin(), s.end())) << "each reader sees reports in order of occurrence";
    all.insert(all.end(), s.begin(), s.end());
  }
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), static_cast<size_t>(kFaults)) << "every report delivered, none twice";
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
  EXPECT_EQ(engine.firedCount(), static_cast<uint64_t>(kFaults));
}

}  // namespace
}  // namespace crashtest
