// The vendor binary's sections written and read back (every field survives), the size cap (what is cut is said),
// the text and JSON reports (attribution of fault addresses, use after free), and the decoder's robustness: every
// truncation of a valid dump and seeded random corruption give an error message, never a crash, a hang or an
// unbounded allocation (run under ASan/UBSan in CI).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fault/dump/dump_reader.h"
#include "fault/dump/dump_report.h"
#include "fault/dump/dump_sections.h"
#include "fault/vendor_binary.h"

namespace crashtest {
namespace {

FaultIdentity Identity() {
  FaultIdentity identity;
  identity.vendorID = 0x1002;
  identity.deviceID = 0x73bf;
  identity.driverVersion = 77;
  identity.applicationName = "Game";
  identity.engineName = "Engine";
  identity.apiVersion = VK_API_VERSION_1_3;
  return identity;
}

std::vector<FaultReport> Reports(uint64_t address) {
  FaultReport r;
  r.flags = VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR | VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR |
            VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR;
  r.groupId = 3;
  r.faultAddressInfo = {VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR, address, 1};
  r.instructionAddressInfo = {VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_KHR, 17, 1};
  r.SetDescription("out-of-bounds read");
  return {r};
}

// A dump of a dispatch that read a freed buffer: the content every section carries.
dump::Content RichContent() {
  dump::Content c;
  c.hasDevice = true;
  c.device = {"AMD Radeon RX 6800 XT (crashtest emulation)", "crashtest", "emulating RADV", "builtin:amd-rdna2",
              "0.1.0", 0x1002, 0x73bf, 77, VK_API_VERSION_1_3, 0, 2};
  dump::Submission s;
  s.family = 0;
  s.queue = 1;
  s.serial = 4;
  s.executing = 5;
  s.executingName = "vkCmdDispatch";
  s.executingDetail = "pipeline 9 \"Blur\", 4 x 1 x 1 workgroups";
  s.executingCommandBuffer = 7;
  s.labels = {"Frame 12", "Shadows"};
  dump::CommandBufferRecord cb;
  cb.id = 7;
  cb.name = "Frame";
  const char* names[] = {"vkCmdBeginDebugUtilsLabelEXT", "vkCmdFillBuffer", "vkCmdBeginDebugUtilsLabelEXT",
                         "vkCmdBindPipeline", "vkCmdDispatch", "vkCmdDispatch", "vkCmdFillBuffer"};
  for (uint32_t i = 0; i < 7; ++i)
    cb.commands.push_back({i, names[i], i == 3 ? "pipeline 9 \"Blur\"" : "",
                           i < 5 ? dump::CommandState::Completed : i == 5 ? dump::CommandState::Executing
                                                                          : dump::CommandState::NotRun});
  s.commandBuffers.push_back(cb);
  c.submissions.push_back(s);
  dump::Pipeline p;
  p.id = 9;
  p.name = "Blur";
  p.bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
  p.stages.push_back({VK_SHADER_STAGE_COMPUTE_BIT, "main", 0x326cdd2e8c11a43dull, {{"Instructions", "36"}, {"Registers", "16"}}});
  p.hasFault = true;
  p.fault = {VK_SHADER_STAGE_COMPUTE_BIT, 17, 42, 61, "OpLoad", 10, 5, "/src/blur.comp", "%42 = load %41"};
  c.pipelines.push_back(p);
  c.resources.push_back({dump::ResourceKind::Memory, true, 11, "Scratch", 0x100000000ull, 4096, 0, 0});
  c.resources.push_back({dump::ResourceKind::Buffer, true, 12, "Particles", 0x100000000ull, 256, 11, 0});
  c.resources.push_back({dump::ResourceKind::Memory, false, 13, "", 0x100020000ull, 65536, 0, 1});
  c.names.push_back({VK_OBJECT_TYPE_PIPELINE, 0x5555, "Blur"});
  c.markers.push_back({0, 1, 14, 8, 3, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT});
  c.checkpoints.push_back({0, 1, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, 0x3});
  c.checkpoints.push_back({0, 1, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, 0x3});
  c.capturedFrames.push_back({21, 299, "/tmp/frames/crashtest-1-swapchain21-frame000299-before-loss.png"});
  // Queued behind submission 4: submission 5 (one command buffer) and 6 (semaphore operations only).
  dump::QueuedSubmission q5{0, 1, 5, {}};
  dump::CommandBufferRecord next;
  next.id = 20;
  next.name = "Next";
  next.commands.push_back({0, "vkCmdDispatch", "1 x 1 x 1 workgroups", dump::CommandState::NotRun});
  q5.commandBuffers.push_back(next);
  c.queued.push_back(q5);
  c.queued.push_back({0, 1, 6, {}});
  return c;
}

std::vector<std::byte> RichDump(uint64_t cap = 1 << 20) {
  const std::vector<std::string> ids = {"shader-fault"};
  return BuildVendorBinary(Identity(), Reports(0x100000010ull), ids, RichContent(), cap);
}

TEST(DumpDecoder, EverySectionRoundTrips) {
  const std::vector<std::byte> bytes = RichDump();
  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(bytes, &d, &error)) << error;
  EXPECT_EQ(d.vendorID, 0x1002u);
  EXPECT_EQ(d.applicationName, "Game");
  EXPECT_EQ(d.engineName, "Engine");
  ASSERT_EQ(d.faults.size(), 1u);
  EXPECT_EQ(d.faults[0].faultId, "shader-fault");
  EXPECT_EQ(d.faults[0].address, 0x100000010ull);
  EXPECT_EQ(d.faults[0].instruction, 17u);
  const dump::Content expected = RichContent();
  const dump::Content& c = d.content;
  ASSERT_TRUE(c.hasDevice);
  EXPECT_EQ(c.device.deviceName, expected.device.deviceName);
  EXPECT_EQ(c.device.profile, "builtin:amd-rdna2");
  ASSERT_EQ(c.submissions.size(), 1u);
  EXPECT_EQ(c.submissions[0].executing, 5u);
  EXPECT_EQ(c.submissions[0].labels, expected.submissions[0].labels);
  ASSERT_EQ(c.submissions[0].commandBuffers.size(), 1u);
  ASSERT_EQ(c.submissions[0].commandBuffers[0].commands.size(), 7u);
  EXPECT_EQ(c.submissions[0].commandBuffers[0].commands[5].state, dump::CommandState::Executing);
  EXPECT_EQ(c.submissions[0].commandBuffers[0].commands[3].detail, "pipeline 9 \"Blur\"");
  ASSERT_EQ(c.pipelines.size(), 1u);
  EXPECT_TRUE(c.pipelines[0].hasFault);
  EXPECT_EQ(c.pipelines[0].fault.spirvId, 42u);
  EXPECT_EQ(c.pipelines[0].fault.line, 10u);
  EXPECT_EQ(c.pipelines[0].fault.irText, "%42 = load %41");
  ASSERT_EQ(c.pipelines[0].stages.size(), 1u);
  EXPECT_EQ(c.pipelines[0].stages[0].hash, 0x326cdd2e8c11a43dull);
  EXPECT_EQ(c.pipelines[0].stages[0].statistics.size(), 2u);
  ASSERT_EQ(c.resources.size(), 3u);
  EXPECT_TRUE(c.resources[1].freed);
  EXPECT_EQ(c.resources[1].name, "Particles");
  ASSERT_EQ(c.names.size(), 1u);
  ASSERT_EQ(c.markers.size(), 1u);
  EXPECT_EQ(c.markers[0].value, 3u);
  ASSERT_EQ(c.checkpoints.size(), 2u);
  ASSERT_EQ(c.capturedFrames.size(), 1u);
  EXPECT_EQ(c.capturedFrames[0].swapchain, 21u);
  EXPECT_EQ(c.capturedFrames[0].frame, 299u);
  EXPECT_EQ(c.capturedFrames[0].path, expected.capturedFrames[0].path);
  EXPECT_NE(dump::DumpText(d).find("  swapchain 21 frame 299: " + expected.capturedFrames[0].path), std::string::npos);
  EXPECT_EQ(dump::DumpJson(d)["capturedFrames"][0]["frame"], 299);
  ASSERT_EQ(c.queued.size(), 2u);
  EXPECT_EQ(c.queued[0].serial, 5u);
  EXPECT_EQ(c.queued[0].queue, 1u);
  ASSERT_EQ(c.queued[0].commandBuffers.size(), 1u);
  EXPECT_EQ(c.queued[0].commandBuffers[0].name, "Next");
  ASSERT_EQ(c.queued[0].commandBuffers[0].commands.size(), 1u);
  EXPECT_EQ(c.queued[0].commandBuffers[0].commands[0].state, dump::CommandState::NotRun);
  EXPECT_EQ(c.queued[1].serial, 6u);
  EXPECT_TRUE(c.queued[1].commandBuffers.empty());
  EXPECT_TRUE(d.truncated.empty());
  EXPECT_TRUE(d.unknownSections.empty());
}

// Section 9 (queued submissions) is new: a decoder that does not know it skips it by its payload size, and the
// rest decodes unchanged. Simulated by renumbering it to a type no decoder knows.
TEST(DumpDecoder, QueuedSubmissionsAreASectionOldDecodersSkip) {
  std::vector<std::byte> bytes = RichDump();
  // Walk the sections (container at 72, after "Game\0Engine\0", aligned) to section 9's type field.
  size_t at = 72 + 16;
  bool found = false;
  while (at + 16 <= bytes.size()) {
    uint32_t type;
    uint64_t size;
    std::memcpy(&type, bytes.data() + at, 4);
    std::memcpy(&size, bytes.data() + at + 8, 8);
    if (type == dump::kSectionQueuedSubmissions) {
      const uint32_t unknown = 1000;
      std::memcpy(bytes.data() + at, &unknown, 4);
      found = true;
      break;
    }
    at += 16 + (size + 7) / 8 * 8;
  }
  ASSERT_TRUE(found);
  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(bytes, &d, &error)) << error;
  EXPECT_TRUE(d.content.queued.empty());
  EXPECT_EQ(d.unknownSections, std::vector<uint32_t>{1000});
  EXPECT_EQ(d.content.submissions.size(), 1u);
  EXPECT_EQ(d.content.checkpoints.size(), 2u);
}

TEST(DumpDecoder, QueuedSubmissionsAreListedPerQueue) {
  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(RichDump(), &d, &error)) << error;
  const std::string text = dump::DumpText(d);
  EXPECT_NE(text.find("queued, not started, on queue 1 of family 0: submission 5 (command buffer 20 \"Next\"), "
                      "submission 6 (no command buffers)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("commands of submission 5 on queue 1 of family 0 (queued, not started):\n"
                      "  command buffer 20 \"Next\":\n    not run 1 vkCmdDispatch 1 x 1 x 1 workgroups\n"),
            std::string::npos)
      << text;
  const nlohmann::json json = dump::DumpJson(d);
  ASSERT_EQ(json["queued"].size(), 2u);
  EXPECT_EQ(json["queued"][0]["serial"], 5);
  EXPECT_EQ(json["queued"][0]["queue"], 1);
  EXPECT_EQ(json["queued"][0]["state"], "queued, not started");
  EXPECT_EQ(json["queued"][0]["commandBuffers"][0]["name"], "Next");
  EXPECT_EQ(json["queued"][0]["commandBuffers"][0]["commands"][0]["state"], "not-run");
  EXPECT_EQ(json["queued"][1]["commandBuffers"].size(), 0u);
}

TEST(DumpDecoder, TextNamesTheCommandLabelsInstructionAndTheFreedOwner) {
  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(RichDump(), &d, &error)) << error;
  const std::string text = dump::DumpText(d);
  EXPECT_NE(text.find("executing command 6 (vkCmdDispatch, pipeline 9 \"Blur\", 4 x 1 x 1 workgroups) of command "
                      "buffer 7 \"Frame\", submission 4 on queue 1 of family 0, inside labels Frame 12 > Shadows, "
                      "when the device was lost"),
            std::string::npos)
      << text;
  // The buffer is the most precise owner; it was freed: a use after free.
  EXPECT_NE(text.find("in freed buffer 12 \"Particles\""), std::string::npos) << text;
  EXPECT_NE(text.find("use after free"), std::string::npos) << text;
  EXPECT_NE(text.find("SPIR-V %42 (OpLoad), instruction 17 at blur.comp:10:5"), std::string::npos) << text;
  EXPECT_NE(text.find("IR: %42 = load %41"), std::string::npos) << text;
  EXPECT_NE(text.find("last buffer marker on queue 1 of family 0: 3"), std::string::npos) << text;
  const nlohmann::json json = dump::DumpJson(d);
  EXPECT_EQ(json["faults"][0]["address"]["useAfterFree"], true);
  EXPECT_EQ(json["faults"][0]["address"]["resource"]["name"], "Particles");
  EXPECT_EQ(json["submissions"][0]["executing"]["command"], 5) << "JSON keeps the index from 0";
  EXPECT_EQ(json["pipelines"][0]["fault"]["line"], 10);
}

TEST(DumpDecoder, AnAddressInNoResourceIsSaidSo) {
  const std::vector<std::string> ids = {"x"};
  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(BuildVendorBinary(Identity(), Reports(0x7f00), ids, RichContent()), &d, &error));
  EXPECT_EQ(dump::AttributeAddress(d.content, 0x7f00), nullptr);
  EXPECT_NE(dump::DumpText(d).find("in no live or recently freed resource"), std::string::npos);
  EXPECT_EQ(dump::NearestBelow(d.content, 0x7f00), nullptr) << "nothing ends within 64 KiB below it";
  // 8 bytes past the end of the live 64 KiB allocation 13.
  const dump::Resource* past = dump::NearestBelow(d.content, 0x100030008ull);
  ASSERT_NE(past, nullptr);
  EXPECT_EQ(past->id, 13u);
  // A live allocation owns its addresses.
  const dump::Resource* live = dump::AttributeAddress(d.content, 0x100020000ull + 5);
  ASSERT_NE(live, nullptr);
  EXPECT_FALSE(live->freed);
  EXPECT_EQ(live->id, 13u);
}

TEST(DumpDecoder, TheSizeCapCutsListsAndSaysWhat) {
  dump::Content big = RichContent();
  for (uint32_t i = 7; i < 2000; ++i)
    big.submissions[0].commandBuffers[0].commands.push_back({i, "vkCmdFillBuffer", "buffer 3", dump::CommandState::NotRun});
  const std::vector<std::string> ids = {"x"};
  const std::vector<std::byte> bytes = BuildVendorBinary(Identity(), Reports(1), ids, big, 8192);
  EXPECT_LE(bytes.size(), 8192u);
  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(bytes, &d, &error)) << error;
  ASSERT_EQ(d.faults.size(), 1u);  // never cut
  ASSERT_EQ(d.content.submissions.size(), 1u);
  EXPECT_EQ(d.content.submissions[0].executing, 5u);  // in the submission's header
  EXPECT_LT(d.content.submissions[0].commandBuffers[0].commands.size(), 2000u);
  ASSERT_FALSE(d.truncated.empty());
  EXPECT_NE(d.truncated[0].find("commands"), std::string::npos) << d.truncated[0];
  EXPECT_NE(dump::DumpText(d).find("cut by the dump size cap"), std::string::npos);
}

TEST(DumpDecoder, UnknownSectionsAreSkipped) {
  std::vector<std::byte> bytes = RichDump();
  // Append a section of type 99 and count it in the container header (at 72: after "Game\0Engine\0", aligned).
  const size_t container = 72;
  uint32_t sections;
  std::memcpy(&sections, bytes.data() + container + 12, 4);
  ++sections;
  std::memcpy(bytes.data() + container + 12, &sections, 4);
  const uint32_t header[2] = {99, 1};
  const uint64_t size = 8;
  bytes.insert(bytes.end(), reinterpret_cast<const std::byte*>(header), reinterpret_cast<const std::byte*>(header) + 8);
  bytes.insert(bytes.end(), reinterpret_cast<const std::byte*>(&size), reinterpret_cast<const std::byte*>(&size) + 8);
  bytes.resize(bytes.size() + 8, std::byte{0x5a});
  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(bytes, &d, &error)) << error;
  ASSERT_EQ(d.unknownSections.size(), 1u);
  EXPECT_EQ(d.unknownSections[0], 99u);
}

TEST(DumpDecoder, ForeignAndEmptyFilesAreNamedAsSuch) {
  dump::Decoded d;
  std::string error;
  EXPECT_FALSE(dump::DecodeVendorBinary({}, &d, &error));
  EXPECT_NE(error.find("fewer than the 56-byte"), std::string::npos) << error;
  std::vector<std::byte> foreign(200, std::byte{0});
  const uint32_t header[2] = {56, 1};
  std::memcpy(foreign.data(), header, 8);
  EXPECT_FALSE(dump::DecodeVendorBinary(foreign, &d, &error));
  EXPECT_NE(error.find("another driver"), std::string::npos) << error;
  std::vector<std::byte> text(100, std::byte{'a'});
  EXPECT_FALSE(dump::DecodeVendorBinary(text, &d, &error));
  EXPECT_NE(error.find("not a Vulkan vendor binary"), std::string::npos) << error;
}

TEST(DumpDecoder, EveryTruncationIsAnError) {
  const std::vector<std::byte> bytes = RichDump();
  for (size_t n = 0; n < bytes.size(); ++n) {
    dump::Decoded d;
    std::string error;
    const std::span<const std::byte> prefix(bytes.data(), n);
    // Only a cut inside the final padding can leave a whole dump.
    if (dump::DecodeVendorBinary(prefix, &d, &error)) {
      EXPECT_GE(n + 8, bytes.size()) << "a dump cut at " << n << " of " << bytes.size() << " bytes decoded";
    } else {
      EXPECT_FALSE(error.empty()) << n;
    }
  }
}

// Seeded random corruption: flipped bytes, overwritten counts and sizes, spliced garbage. The decoder must return
// (true or false) every time; sanitizers catch any out-of-bounds read. A fixed number of cases keeps it bounded.
TEST(DumpDecoder, RandomCorruptionNeverCrashes) {
  const std::vector<std::byte> valid = RichDump();
  std::mt19937_64 rng(20261202);
  size_t rejected = 0;
  constexpr int kCases = 4000;
  for (int i = 0; i < kCases; ++i) {
    std::vector<std::byte> bytes = valid;
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % bytes.size();
      switch (rng() % 4) {
        case 0: bytes[at] ^= static_cast<std::byte>(1u << (rng() % 8)); break;
        case 1: bytes[at] = static_cast<std::byte>(rng()); break;
        case 2: {  // a huge or hostile 32-bit value (counts, lengths, offsets)
          const uint32_t values[] = {0xffffffffu, 0x7fffffffu, 0x10000u, 0u, static_cast<uint32_t>(rng())};
          const uint32_t v = values[rng() % 5];
          if (at + 4 <= bytes.size()) std::memcpy(bytes.data() + at, &v, 4);
          break;
        }
        default: bytes.resize(at + 1); break;  // truncate
      }
    }
    dump::Decoded d;
    std::string error;
    if (!dump::DecodeVendorBinary(bytes, &d, &error)) {
      ++rejected;
      EXPECT_FALSE(error.empty());
    } else {
      // Whatever decoded must also render.
      EXPECT_FALSE(dump::DumpText(d).empty());
      EXPECT_FALSE(dump::DumpJson(d).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).empty());
    }
  }
  EXPECT_GT(rejected, 0u);
}

}  // namespace
}  // namespace crashtest
