// Writes the dump fuzzer's seeds into the directory named by argv[1]: vendor binaries built by the driver's own
// writer (fault/vendor_binary.h), so they follow the format as it is today — one with every section, one cut by
// the size cap, one with no content at all. Run at build time (meson.build), never committed.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "fault/dump/dump_content.h"
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

std::vector<FaultReport> Reports() {
  FaultReport r;
  r.flags = VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR | VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR |
            VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR;
  r.groupId = 3;
  r.faultAddressInfo = {VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR, 0x100000010ull, 1};
  r.instructionAddressInfo = {VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_KHR, 17, 1};
  // As FaultReport::SetDescription writes it (report_queue.cpp, which the fuzz build does not link).
  std::snprintf(r.description, sizeof r.description, "%s", "out-of-bounds read");
  return {r};
}

dump::Content EverySection() {
  dump::Content c;
  c.hasDevice = true;
  c.device = {"AMD Radeon RX 6800 XT (crashtest emulation)", "crashtest", "emulating RADV", "builtin:amd-rdna2",
              "0.1.0", 0x1002, 0x73bf, 77, VK_API_VERSION_1_3, 0, 2};
  dump::Submission s;
  s.family = 0;
  s.queue = 1;
  s.serial = 4;
  s.executing = 2;
  s.executingName = "vkCmdDispatch";
  s.executingDetail = "pipeline 9 \"Blur\", 4 x 1 x 1 workgroups";
  s.executingCommandBuffer = 7;
  s.labels = {"Frame 12", "Shadows"};
  dump::CommandBufferRecord cb;
  cb.id = 7;
  cb.name = "Frame";
  cb.commands.push_back({0, "vkCmdBindPipeline", "pipeline 9 \"Blur\"", dump::CommandState::Completed});
  cb.commands.push_back({1, "vkCmdFillBuffer", "", dump::CommandState::Completed});
  cb.commands.push_back({2, "vkCmdDispatch", "", dump::CommandState::Executing});
  cb.commands.push_back({3, "vkCmdDispatch", "", dump::CommandState::NotRun});
  s.commandBuffers.push_back(cb);
  c.submissions.push_back(s);
  dump::Pipeline p;
  p.id = 9;
  p.name = "Blur";
  p.bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
  p.stages.push_back({VK_SHADER_STAGE_COMPUTE_BIT, "main", 0x326cdd2e8c11a43dull, {{"Instructions", "36"}}});
  p.hasFault = true;
  p.fault = {VK_SHADER_STAGE_COMPUTE_BIT, 17, 42, 61, "OpLoad", 10, 5, "/src/blur.comp", "%42 = load %41"};
  c.pipelines.push_back(p);
  c.resources.push_back({dump::ResourceKind::Memory, true, 11, "Scratch", 0x100000000ull, 4096, 0, 0});
  c.resources.push_back({dump::ResourceKind::Buffer, true, 12, "Particles", 0x100000000ull, 256, 11, 0});
  c.names.push_back({VK_OBJECT_TYPE_PIPELINE, 0x5555, "Blur"});
  c.markers.push_back({0, 1, 14, 8, 3, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT});
  c.checkpoints.push_back({0, 1, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, 0x3});
  c.capturedFrames.push_back({21, 299, "/tmp/frames/frame000299.png"});
  dump::QueuedSubmission q{0, 1, 5, {}};
  dump::CommandBufferRecord next;
  next.id = 20;
  next.name = "Next";
  next.commands.push_back({0, "vkCmdDispatch", "1 x 1 x 1 workgroups", dump::CommandState::NotRun});
  q.commandBuffers.push_back(next);
  c.queued.push_back(q);
  return c;
}

bool Write(const std::string& path, const std::vector<std::byte>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

}  // namespace
}  // namespace crashtest

int main(int argc, char** argv) {
  using namespace crashtest;
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_dump_seeds DIRECTORY\n");
    return 2;
  }
  const std::string dir = argv[1];
  const std::vector<FaultReport> reports = Reports();
  const std::vector<std::string> ids = {"shader-fault"};
  bool ok = Write(dir + "/every-section.dump", BuildVendorBinary(Identity(), reports, ids, EverySection()));
  ok &= Write(dir + "/size-capped.dump", BuildVendorBinary(Identity(), reports, ids, EverySection(), 600));
  ok &= Write(dir + "/no-content.dump", BuildVendorBinary(Identity(), {}, {}, {}));
  return ok ? 0 : 1;
}
