// The fault plan reader: every valid form, and every bad plan's message (file, JSON path, what was expected).
#include <gtest/gtest.h>

#include <string>

#include "fault/plan_reader.h"

namespace crashtest {
namespace {

struct Read {
  bool ok = false;
  FaultPlan plan;
  Diagnostics diagnostics;
  std::string Messages() const {
    std::string s;
    for (const Diagnostic& d : diagnostics.Items()) s += d.Format() + "\n";
    return s;
  }
};

Read ReadPlan(const std::string& text, std::size_t deviceCount = 2) {
  Read r;
  ReadContext ctx{"plan.json", false, &r.diagnostics};
  r.ok = ReadFaultPlan(ctx, Json::parse(text), deviceCount, r.plan);
  return r;
}

TEST(FaultPlan, EmptyPlanIsValid) {
  Read r = ReadPlan("[]");
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.plan.faults.empty());
  EXPECT_TRUE(r.diagnostics.Items().empty());
}

TEST(FaultPlan, ReadsTheDesignSketch) {
  Read r = ReadPlan(R"([{"id": "third-submit", "device": 1, "when": {"submit": 3, "queue": {"family": 0, "index": 1}},
    "effect": "device-lost",
    "report": {"description": "page fault", "address": {"type": "read-invalid", "address": "0x7f00", "precision": 4096},
               "instruction": {"type": "instruction-pointer-fault", "address": 4660},
               "vendor": [{"description": "ring 0", "code": 7, "data": "0xffffffffffffffff"}], "binary": false}}])");
  ASSERT_TRUE(r.ok) << r.Messages();
  ASSERT_EQ(r.plan.faults.size(), 1u);
  const PlannedFault& f = r.plan.faults[0];
  EXPECT_EQ(f.id, "third-submit");
  EXPECT_EQ(f.device, 1u);
  EXPECT_EQ(f.when.kind, FaultTriggerKind::Submit);
  EXPECT_EQ(f.when.count, 3u);
  ASSERT_TRUE(f.when.queue.has_value());
  EXPECT_EQ(f.when.queue->family, 0u);
  EXPECT_EQ(f.when.queue->index, 1u);
  EXPECT_EQ(f.effect, FaultEffect::DeviceLost);
  EXPECT_EQ(f.report.description, "page fault");
  ASSERT_TRUE(f.report.address.has_value());
  EXPECT_EQ(f.report.address->type, VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR);
  EXPECT_EQ(f.report.address->address, 0x7f00u);
  EXPECT_EQ(f.report.address->precision, 4096u);
  ASSERT_TRUE(f.report.instruction.has_value());
  EXPECT_EQ(f.report.instruction->type, VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_KHR);
  EXPECT_EQ(f.report.instruction->address, 4660u);
  EXPECT_EQ(f.report.instruction->precision, 1u);
  ASSERT_EQ(f.report.vendor.size(), 1u);
  EXPECT_EQ(f.report.vendor[0].code, 7u);
  EXPECT_EQ(f.report.vendor[0].data, UINT64_MAX);
  EXPECT_FALSE(f.report.binary);
}

TEST(FaultPlan, ReadsEveryTriggerAndEffect) {
  Read r = ReadPlan(R"([
    {"id": "a", "when": {"label": "Shadows"}, "effect": "masked", "repeat": true},
    {"id": "b", "when": {"allocation": 5}, "effect": "out-of-device-memory"},
    {"id": "c", "when": {"allocationAbove": 1048576}, "effect": "out-of-host-memory"},
    {"id": "d", "when": {"afterMs": 250}, "effect": "device-lost"},
    {"id": "e", "when": {"random": 0.25, "seed": 42}, "effect": "hang", "watchdogMs": 100}])");
  ASSERT_TRUE(r.ok) << r.Messages();
  ASSERT_EQ(r.plan.faults.size(), 5u);
  EXPECT_EQ(r.plan.faults[0].when.kind, FaultTriggerKind::Label);
  EXPECT_EQ(r.plan.faults[0].when.name, "Shadows");
  EXPECT_TRUE(r.plan.faults[0].repeat);
  EXPECT_EQ(r.plan.faults[0].effect, FaultEffect::Masked);
  EXPECT_EQ(r.plan.faults[1].when.kind, FaultTriggerKind::Allocation);
  EXPECT_EQ(r.plan.faults[1].when.count, 5u);
  EXPECT_EQ(r.plan.faults[1].effect, FaultEffect::OutOfDeviceMemory);
  EXPECT_EQ(r.plan.faults[2].when.kind, FaultTriggerKind::AllocationSize);
  EXPECT_EQ(r.plan.faults[2].when.bytes, 1048576u);
  EXPECT_EQ(r.plan.faults[2].effect, FaultEffect::OutOfHostMemory);
  EXPECT_EQ(r.plan.faults[3].when.kind, FaultTriggerKind::Time);
  EXPECT_EQ(r.plan.faults[3].when.milliseconds, 250u);
  EXPECT_EQ(r.plan.faults[4].when.kind, FaultTriggerKind::Random);
  EXPECT_DOUBLE_EQ(r.plan.faults[4].when.probability, 0.25);
  EXPECT_EQ(r.plan.faults[4].when.seed, 42u);
  EXPECT_EQ(r.plan.faults[4].effect, FaultEffect::Hang);
  EXPECT_EQ(r.plan.faults[4].watchdogMs, 100u);
  // Without "device" a fault watches every device.
  EXPECT_FALSE(r.plan.faults[0].device.has_value());
  EXPECT_EQ(r.plan.ForDevice(1).size(), 5u);
}

TEST(FaultPlan, ReadsDispatchAndDrawTriggers) {
  Read r = ReadPlan(R"([
    {"id": "a", "when": {"dispatch": 3}, "effect": "device-lost"},
    {"id": "b", "when": {"draw": 2, "pipeline": "GBuffer", "queue": {"family": 0, "index": 1}}, "effect": "hang"},
    {"id": "c", "when": {"dispatch": 1, "shaderHash": "0x00ff00ff00ff00ff"}, "effect": "masked", "repeat": true}])");
  ASSERT_TRUE(r.ok) << r.Messages();
  ASSERT_EQ(r.plan.faults.size(), 3u);
  EXPECT_EQ(r.plan.faults[0].when.kind, FaultTriggerKind::Dispatch);
  EXPECT_EQ(r.plan.faults[0].when.count, 3u);
  EXPECT_TRUE(r.plan.faults[0].when.pipelineName.empty());
  EXPECT_FALSE(r.plan.faults[0].when.shaderHash.has_value());
  EXPECT_EQ(r.plan.faults[1].when.kind, FaultTriggerKind::Draw);
  EXPECT_EQ(r.plan.faults[1].when.pipelineName, "GBuffer");
  ASSERT_TRUE(r.plan.faults[1].when.queue.has_value());
  EXPECT_EQ(r.plan.faults[1].when.queue->index, 1u);
  EXPECT_EQ(r.plan.faults[1].effect, FaultEffect::Hang);
  ASSERT_TRUE(r.plan.faults[2].when.shaderHash.has_value());
  EXPECT_EQ(*r.plan.faults[2].when.shaderHash, 0x00ff00ff00ff00ffull);
  EXPECT_TRUE(IsCommandTrigger(r.plan.faults[2].when.kind));
  EXPECT_FALSE(IsCommandTrigger(FaultTriggerKind::Submit));
}

TEST(FaultPlan, ForDeviceSelectsByIndex) {
  Read r = ReadPlan(R"([{"id": "a", "device": 0, "when": {"submit": 1}, "effect": "device-lost"},
                        {"id": "b", "device": 1, "when": {"submit": 1}, "effect": "device-lost"},
                        {"id": "c", "when": {"submit": 2}, "effect": "masked"}])");
  ASSERT_TRUE(r.ok) << r.Messages();
  auto zero = r.plan.ForDevice(0);
  ASSERT_EQ(zero.size(), 2u);
  EXPECT_EQ(zero[0].id, "a");
  EXPECT_EQ(zero[1].id, "c");
  auto one = r.plan.ForDevice(1);
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0].id, "b");
}

struct BadPlan {
  const char* name;
  const char* json;
  const char* message;  // the exact formatted message expected among the diagnostics
};

const BadPlan kBadPlans[] = {
    {"NotArray", R"({"id": "x"})", "plan.json: faults: expected an array of faults, got an object"},
    {"NotObject", R"([3])",
     "plan.json: faults[0]: expected a fault object {\"id\": ..., \"when\": {...}, \"effect\": ..., \"report\": "
     "{...}}, got 3"},
    {"MissingId", R"([{"when": {"submit": 1}, "effect": "device-lost"}])",
     "plan.json: faults[0]: missing \"id\" (a name for the fault, used in reports and logs)"},
    {"EmptyId", R"([{"id": "", "when": {"submit": 1}, "effect": "device-lost"}])",
     "plan.json: faults[0].id: expected a non-empty string, got \"\""},
    {"DuplicateId",
     R"([{"id": "a", "when": {"submit": 1}, "effect": "device-lost"}, {"id": "a", "when": {"submit": 2}, "effect": "masked"}])",
     "plan.json: faults[1].id: duplicate fault id \"a\" (ids name faults in reports)"},
    {"MissingWhen", R"([{"id": "a", "effect": "device-lost"}])",
     "plan.json: faults[0]: missing \"when\" (the trigger, e.g. {\"submit\": 3})"},
    {"MissingEffect", R"([{"id": "a", "when": {"submit": 1}}])",
     "plan.json: faults[0]: missing \"effect\" (\"device-lost\", \"masked\", \"out-of-device-memory\", "
     "\"out-of-host-memory\", \"hang\", \"surface-lost\", \"out-of-date\")"},
    {"UnknownMember", R"([{"id": "a", "when": {"submit": 1}, "effect": "device-lost", "efect": 1}])",
     "plan.json: faults[0].efect: unknown member (expected \"id\", \"device\", \"when\", \"effect\", \"repeat\", "
     "\"watchdogMs\", \"report\") (did you mean \"effect\"?)"},
    {"DeviceOutOfRange", R"([{"id": "a", "device": 2, "when": {"submit": 1}, "effect": "device-lost"}])",
     "plan.json: faults[0].device: expected the index of a configured device (0 to 1), got 2"},
    {"WhenNotObject", R"([{"id": "a", "when": 3, "effect": "device-lost"}])",
     "plan.json: faults[0].when: expected a trigger object with one of \"submit\", \"dispatch\", \"draw\", "
     "\"label\", \"allocation\", \"allocationAbove\", \"afterMs\", \"random\", \"present\", \"acquire\", got 3"},
    {"NoTrigger", R"([{"id": "a", "when": {}, "effect": "device-lost"}])",
     "plan.json: faults[0].when: expected exactly one trigger: \"submit\", \"dispatch\", \"draw\", \"label\", "
     "\"allocation\", \"allocationAbove\", \"afterMs\", \"random\", \"present\", \"acquire\""},
    {"TwoTriggers", R"([{"id": "a", "when": {"submit": 1, "allocation": 2}, "effect": "device-lost"}])",
     "plan.json: faults[0].when: expected exactly one trigger, got 2 (a fault has one trigger; write several faults "
     "for several triggers)"},
    {"SubmitZero", R"([{"id": "a", "when": {"submit": 0}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.submit: expected an integer of at least 1, got 0"},
    {"SubmitString", R"([{"id": "a", "when": {"submit": "3"}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.submit: expected an integer of at least 1, got \"3\""},
    {"UnknownTrigger", R"([{"id": "a", "when": {"submitt": 1}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.submitt: unknown member (expected \"submit\", \"dispatch\", \"draw\", \"queue\", "
     "\"pipeline\", \"shaderHash\", \"label\", \"allocation\", \"allocationAbove\", \"afterMs\", \"random\", "
     "\"seed\", \"present\", \"acquire\") (did you mean \"submit\"?)"},
    {"DispatchZero", R"([{"id": "a", "when": {"dispatch": 0}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.dispatch: expected an integer of at least 1, got 0"},
    {"PipelineWithoutWork", R"([{"id": "a", "when": {"submit": 1, "pipeline": "p"}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.pipeline: \"pipeline\" applies to the \"dispatch\" and \"draw\" triggers only"},
    {"EmptyPipelineName", R"([{"id": "a", "when": {"draw": 1, "pipeline": ""}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.pipeline: expected a non-empty string, got \"\""},
    {"ShaderHashWithoutWork", R"([{"id": "a", "when": {"label": "x", "shaderHash": 5}, "effect": "masked"}])",
     "plan.json: faults[0].when.shaderHash: \"shaderHash\" applies to the \"dispatch\" and \"draw\" triggers only"},
    {"ShaderHashNotHex", R"([{"id": "a", "when": {"dispatch": 1, "shaderHash": "0xZZ"}, "effect": "masked"}])",
     "plan.json: faults[0].when.shaderHash: expected a 64-bit address as an integer or a string such as "
     "\"0x7f00\", got \"0xZZ\""},
    {"OomOnDispatch", R"([{"id": "a", "when": {"dispatch": 1}, "effect": "out-of-device-memory"}])",
     "plan.json: faults[0].effect: \"out-of-device-memory\" is returned by the triggering call, so it needs a "
     "\"submit\", \"random\", \"allocation\" or \"allocationAbove\" trigger, not \"dispatch\" (work on the "
     "queue fails by losing the device, not with an error code)"},
    {"QueueNotObject", R"([{"id": "a", "when": {"submit": 1, "queue": 0}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.queue: expected {\"family\": F, \"index\": I}, got 0"},
    {"QueueBadMember", R"([{"id": "a", "when": {"submit": 1, "queue": {"familly": 0}}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.queue.familly: unknown member (expected \"family\", \"index\") (did you mean "
     "\"family\"?)"},
    {"QueueWithoutSubmit", R"([{"id": "a", "when": {"allocation": 1, "queue": {"family": 0}}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.queue: \"queue\" applies to the \"submit\", \"dispatch\" and \"draw\" triggers "
     "only"},
    {"SeedWithoutRandom", R"([{"id": "a", "when": {"submit": 1, "seed": 3}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.seed: \"seed\" applies to the \"random\" trigger only"},
    {"RandomZero", R"([{"id": "a", "when": {"random": 0}, "effect": "masked"}])",
     "plan.json: faults[0].when.random: expected a probability per submit greater than 0 and at most 1, got 0"},
    {"RandomAboveOne", R"([{"id": "a", "when": {"random": 1.5}, "effect": "masked"}])",
     "plan.json: faults[0].when.random: expected a probability per submit greater than 0 and at most 1, got 1.5"},
    {"EmptyLabel", R"([{"id": "a", "when": {"label": ""}, "effect": "masked"}])",
     "plan.json: faults[0].when.label: expected a non-empty string, got \"\""},
    {"NegativeTime", R"([{"id": "a", "when": {"afterMs": -5}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.afterMs: expected an integer from 0 to 31536000000 (milliseconds: at most 365 days), "
     "got -5"},
    // 2^53 and above used to overflow the deadline arithmetic and fire at once.
    {"TimeTooLarge", R"([{"id": "a", "when": {"afterMs": 9007199254740992}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.afterMs: expected an integer from 0 to 31536000000 (milliseconds: at most 365 days), "
     "got 9007199254740992"},
    {"TimeJustAboveAYear", R"([{"id": "a", "when": {"afterMs": 31536000001}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.afterMs: expected an integer from 0 to 31536000000 (milliseconds: at most 365 days), "
     "got 31536000001"},
    {"TimeMaxUint64", R"([{"id": "a", "when": {"afterMs": 18446744073709551615}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.afterMs: expected an integer from 0 to 31536000000 (milliseconds: at most 365 days), "
     "got 18446744073709551615"},
    {"TimeFloat", R"([{"id": "a", "when": {"afterMs": 1e300}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.afterMs: expected an integer from 0 to 31536000000 (milliseconds: at most 365 days), "
     "got 1e+300"},
    // A 32-bit queue family or index used to wrap: 2^32 named family 0.
    {"QueueFamilyTooLarge",
     R"([{"id": "a", "when": {"submit": 1, "queue": {"family": 4294967296}}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.queue.family: expected an integer from 0 to 4294967295, got 4294967296"},
    {"QueueIndexTooLarge",
     R"([{"id": "a", "when": {"submit": 1, "queue": {"family": 0, "index": 4294967297}}, "effect": "device-lost"}])",
     "plan.json: faults[0].when.queue.index: expected an integer from 0 to 4294967295, got 4294967297"},
    {"UnknownEffect", R"([{"id": "a", "when": {"submit": 1}, "effect": "device-lots"}])",
     "plan.json: faults[0].effect: unknown effect \"device-lots\" (expected one of \"device-lost\", \"masked\", "
     "\"out-of-device-memory\", \"out-of-host-memory\", \"hang\", \"surface-lost\", \"out-of-date\"; did you mean \"device-lost\"?)"},
    {"EffectNotString", R"([{"id": "a", "when": {"submit": 1}, "effect": 1}])",
     "plan.json: faults[0].effect: expected one of \"device-lost\", \"masked\", \"out-of-device-memory\", "
     "\"out-of-host-memory\", \"hang\", \"surface-lost\", \"out-of-date\", got 1"},
    {"OomOnLabel", R"([{"id": "a", "when": {"label": "x"}, "effect": "out-of-host-memory"}])",
     "plan.json: faults[0].effect: \"out-of-host-memory\" is returned by the triggering call, so it needs a "
     "\"submit\", \"random\", \"allocation\" or \"allocationAbove\" trigger, not \"label\""},
    {"HangOnAllocation", R"([{"id": "a", "when": {"allocation": 1}, "effect": "hang"}])",
     "plan.json: faults[0].effect: \"hang\" stops a queue, so it needs a \"submit\", \"random\", \"dispatch\" or "
     "\"draw\" trigger, not \"allocation\""},
    {"WatchdogWithoutHang", R"([{"id": "a", "when": {"submit": 1}, "effect": "device-lost", "watchdogMs": 10}])",
     "plan.json: faults[0].watchdogMs: \"watchdogMs\" applies to the \"hang\" effect only"},
    {"WatchdogZero", R"([{"id": "a", "when": {"submit": 1}, "effect": "hang", "watchdogMs": 0}])",
     "plan.json: faults[0].watchdogMs: expected an integer of at least 1, got 0"},
    {"RepeatTime", R"([{"id": "a", "when": {"afterMs": 1}, "effect": "masked", "repeat": true}])",
     "plan.json: faults[0].repeat: an \"afterMs\" trigger fires once; \"repeat\" does not apply"},
    {"RepeatNotBool", R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "repeat": 1}])",
     "plan.json: faults[0].repeat: expected true or false, got 1"},
    {"ReportNotObject", R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": "x"}])",
     "plan.json: faults[0].report: expected a report object {\"description\": ..., \"address\": {...}, \"vendor\": "
     "[...]}, got \"x\""},
    {"ReportUnknownMember", R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"adress": {}}}])",
     "plan.json: faults[0].report.adress: unknown member (expected \"description\", \"address\", \"instruction\", "
     "\"vendor\", \"binary\") (did you mean \"address\"?)"},
    {"DescriptionTooLong", nullptr,
     "plan.json: faults[0].report.description: expected at most 255 bytes (VK_MAX_DESCRIPTION_SIZE with the "
     "terminating NUL), got 256"},
    {"AddressTypeUnknown",
     R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"address": {"type": "read", "address": 1}}}])",
     "plan.json: faults[0].report.address.type: unknown address type \"read\" (expected one of \"read-invalid\", "
     "\"write-invalid\", \"execute-invalid\", \"instruction-pointer-unknown\", \"instruction-pointer-invalid\", "
     "\"instruction-pointer-fault\")"},
    {"AddressTypeMissing",
     R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"address": {"address": 1}}}])",
     "plan.json: faults[0].report.address: missing \"type\" (e.g. \"read-invalid\")"},
    {"AddressNotHex",
     R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"address": {"type": "read-invalid", "address": "0xzz"}}}])",
     "plan.json: faults[0].report.address.address: expected a 64-bit address as an integer or a string such as "
     "\"0x7f00\", got \"0xzz\""},
    {"AddressTooLong",
     R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"address": {"type": "read-invalid", "address": "0x10000000000000000"}}}])",
     "plan.json: faults[0].report.address.address: expected a 64-bit address as an integer or a string such as "
     "\"0x7f00\", got \"0x10000000000000000\""},
    {"PrecisionNotPowerOfTwo",
     R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"address": {"type": "read-invalid", "address": 1, "precision": 48}}}])",
     "plan.json: faults[0].report.address.precision: expected a power of two (the reported range is [address & "
     "~(precision-1), address | (precision-1)]), got 48"},
    {"PrecisionZero",
     R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"instruction": {"type": "read-invalid", "precision": 0}}}])",
     "plan.json: faults[0].report.instruction.precision: expected an integer of at least 1, got 0"},
    {"AddressUnknownMember",
     R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"address": {"type": "read-invalid", "addr": 1}}}])",
     "plan.json: faults[0].report.address.addr: unknown member (expected \"type\", \"address\", \"precision\") (did you mean \"address\"?)"},
    {"VendorNotArray", R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"vendor": {}}}])",
     "plan.json: faults[0].report.vendor: expected an array of {\"description\": ..., \"code\": ..., \"data\": ...}, "
     "got an object"},
    {"VendorEntryNotObject", R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"vendor": [1]}}])",
     "plan.json: faults[0].report.vendor[0]: expected {\"description\": ..., \"code\": ..., \"data\": ...}, got 1"},
    {"VendorBadCode",
     R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"vendor": [{"code": -1}]}}])",
     "plan.json: faults[0].report.vendor[0].code: expected a 64-bit address as an integer or a string such as "
     "\"0x7f00\", got -1"},
    {"VendorUnknownMember",
     R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"vendor": [{"cod": 1}]}}])",
     "plan.json: faults[0].report.vendor[0].cod: unknown member (expected \"description\", \"code\", \"data\") (did "
     "you mean \"code\"?)"},
    {"BinaryNotBool", R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"binary": "yes"}}])",
     "plan.json: faults[0].report.binary: expected true or false, got \"yes\""},
};

class BadPlanTest : public testing::TestWithParam<BadPlan> {};

TEST_P(BadPlanTest, NamesThePathAndWhatWasExpected) {
  const BadPlan& bad = GetParam();
  std::string json = bad.json != nullptr ? bad.json
                                          : R"([{"id": "a", "when": {"submit": 1}, "effect": "masked", "report": {"description": ")" +
                                                std::string(256, 'x') + "\"}}]";
  Read r = ReadPlan(json);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.diagnostics.HasErrors());
  EXPECT_NE(r.Messages().find(std::string(bad.message) + "\n"), std::string::npos)
      << "expected: " << bad.message << "\ngot:\n" << r.Messages();
  // Each bad plan has exactly one bad fault: it is not planned, the others are.
  const Json parsed = Json::parse(json);
  if (parsed.is_array()) {
    EXPECT_EQ(r.plan.faults.size(), parsed.size() - 1) << "a bad fault must not be planned";
  }
}

INSTANTIATE_TEST_SUITE_P(Messages, BadPlanTest, testing::ValuesIn(kBadPlans),
                         [](const testing::TestParamInfo<BadPlan>& info) { return std::string(info.param.name); });

TEST(FaultPlan, ReportsEveryProblemNotOnlyTheFirst) {
  Read r = ReadPlan(R"([{"id": "a", "when": {"submit": 0}, "effect": "nope"},
                        {"id": "b", "when": {"submit": 1}, "effect": "masked"},
                        {"when": {"label": 3}, "effect": "masked"}])");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.diagnostics.Count(Severity::Error), 4u) << r.Messages();
  // The valid fault is still read (the driver fails anyway; `crashtest check` lists everything).
  ASSERT_EQ(r.plan.faults.size(), 1u);
  EXPECT_EQ(r.plan.faults[0].id, "b");
}

TEST(InjectedFault, WithoutWhenFiresNow) {
  Diagnostics diagnostics;
  ReadContext ctx{"inject", false, &diagnostics};
  PlannedFault fault;
  bool hasTrigger = true;
  ASSERT_TRUE(ReadInjectedFault(ctx, Json::parse(R"({"id": "x", "effect": "masked"})"), fault, &hasTrigger));
  EXPECT_FALSE(hasTrigger);
  EXPECT_EQ(fault.effect, FaultEffect::Masked);
  ASSERT_TRUE(ReadInjectedFault(ctx, Json::parse(R"({"id": "y", "when": {"allocation": 2}, "effect": "hang"})"),
                                fault, &hasTrigger) == false);
  EXPECT_TRUE(hasTrigger);
}

TEST(InjectedFault, MessagesNameTheFault) {
  Diagnostics diagnostics;
  ReadContext ctx{"crashtestInjectFault", false, &diagnostics};
  PlannedFault fault;
  bool hasTrigger = false;
  EXPECT_FALSE(ReadInjectedFault(ctx, Json::parse(R"({"id": "x", "effect": "nope"})"), fault, &hasTrigger));
  EXPECT_FALSE(ReadInjectedFault(ctx, Json::parse(R"({"id": "x", "device": 0, "effect": "masked"})"), fault,
                                 &hasTrigger));
  ASSERT_EQ(diagnostics.Items().size(), 2u);
  EXPECT_EQ(diagnostics.Items()[0].Format(),
            "crashtestInjectFault: fault.effect: unknown effect \"nope\" (expected one of \"device-lost\", "
            "\"masked\", \"out-of-device-memory\", \"out-of-host-memory\", \"hang\", \"surface-lost\", \"out-of-date\"; did you mean \"hang\"?)");
  EXPECT_EQ(diagnostics.Items()[1].Format(),
            "crashtestInjectFault: fault.device: not allowed here: the fault applies to the device the call names");
}

// A fault counting a queue its device does not have would never fire (issue 18): the queues are checked when the
// devices are known. Device 0 has families of 1 and 2 queues, device 1 one family of 1 queue.
TEST(FaultPlan, QueueSelectorsMustNameAQueueTheDeviceHas) {
  const std::vector<DeviceQueueCounts> queues = {{1, 2}, {1}};
  const auto read = [&](const std::string& text) {
    Read r;
    ReadContext ctx{"plan.json", false, &r.diagnostics};
    r.ok = ReadFaultPlan(ctx, Json::parse(text), queues.size(), r.plan, &queues);
    return r;
  };
  const auto fault = [](const std::string& device, const std::string& queue) {
    return R"([{"id": "q", )" + device + R"("when": {"submit": 1, "queue": )" + queue +
           R"(}, "effect": "device-lost"}])";
  };
  EXPECT_TRUE(read(fault(R"("device": 0, )", R"({"family": 1, "index": 1})")).ok);
  EXPECT_TRUE(read(fault("", R"({"family": 1, "index": 1})")).ok);  // device 0 has it
  const std::pair<std::string, std::string> kBad[] = {
      {fault(R"("device": 1, )", R"({"family": 1, "index": 0})"),
       "plan.json: faults[0].when.queue.family: device 1 has 1 queue family, so there is no family 1: the fault "
       "would never fire"},
      {fault(R"("device": 0, )", R"({"family": 0, "index": 1})"),
       "plan.json: faults[0].when.queue.index: queue family 0 of device 0 has 1 queue, so there is no queue 1: the "
       "fault would never fire"},
      {fault("", R"({"family": 1, "index": 2})"),
       "plan.json: faults[0].when.queue: no configured device has queue 2 in queue family 1: the fault would never "
       "fire"},
  };
  for (const auto& [text, message] : kBad) {
    SCOPED_TRACE(text);
    Read r = read(text);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.plan.faults.empty());
    ASSERT_EQ(r.diagnostics.Items().size(), 1u) << r.Messages();
    EXPECT_EQ(r.diagnostics.Items()[0].Format(), message);
  }
}

TEST(InjectedFault, QueueMustBeOneTheDeviceHas) {
  Diagnostics diagnostics;
  ReadContext ctx{"crashtestInjectFault", false, &diagnostics};
  PlannedFault fault;
  bool hasTrigger = false;
  const DeviceQueueCounts queues = {1};
  EXPECT_TRUE(ReadInjectedFault(ctx, Json::parse(R"({"id": "x", "when": {"submit": 1, "queue": {"family": 0}},
                                                    "effect": "masked"})"),
                                fault, &hasTrigger, &queues));
  EXPECT_FALSE(ReadInjectedFault(ctx, Json::parse(R"({"id": "x", "when": {"submit": 1, "queue": {"family": 3}},
                                                     "effect": "masked"})"),
                                 fault, &hasTrigger, &queues));
  ASSERT_EQ(diagnostics.Items().size(), 1u);
  EXPECT_EQ(diagnostics.Items()[0].Format(),
            "crashtestInjectFault: fault.when.queue: the device has no queue 0 in queue family 3: the fault would "
            "never fire");
}

}  // namespace
}  // namespace crashtest
