// Crash dumps of real shader bugs: a read through the device address of a freed buffer is a use after free in
// the fault report and in the dump (the address attributed to the freed buffer and its memory); an off-by-one
// write names the faulting instruction, its SPIR-V id, IR text and source line. The dumps are read from
// CRASHTEST_DUMP_DIR with the decoder `crashtest decode` uses.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "fault/dump/dump_reader.h"
#include "fault/dump/dump_report.h"
#include "vk_compute.h"

namespace crashtest::test {
namespace {

namespace fs = std::filesystem;

std::string Shader(const char* name) { return std::string(CRASHTEST_EXECUTION_SHADER_DIR) + "/" + name + ".spv"; }

class ShaderDumps : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/crashtest-shader-dumps-XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    dir_ = name;
    setenv("CRASHTEST_DUMP_DIR", dir_.c_str(), 1);
    unsetenv("CRASHTEST_CONFIG");
    std::string error;
    instance_ = CreateTestInstance(&error);
    ASSERT_NE(instance_, VK_NULL_HANDLE) << error;
    device_ = ComputeDevice::Open(instance_, "crashtest", &error, /*faults=*/true);
    ASSERT_NE(device_, nullptr) << error;
  }
  void TearDown() override {
    device_.reset();
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
    unsetenv("CRASHTEST_DUMP_DIR");
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // The one dump the loss wrote, decoded.
  dump::Decoded OnlyDump() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir_)) files.push_back(entry.path());
    EXPECT_EQ(files.size(), 1u);
    dump::Decoded d;
    if (files.size() != 1) return d;
    std::ifstream in(files[0], std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    std::memcpy(bytes.data(), chars.data(), chars.size());
    std::string error;
    EXPECT_TRUE(dump::DecodeVendorBinary(bytes, &d, &error)) << error;
    return d;
  }
  fs::path dir_;
  VkInstance instance_ = VK_NULL_HANDLE;
  std::unique_ptr<ComputeDevice> device_;
};

TEST_F(ShaderDumps, ReadOfAFreedBufferIsAUseAfterFree) {
  ComputeJob job;
  job.spirv = ReadSpirv(Shader("bda_read.comp"));
  BufferSpec out;
  out.contents.push_back(std::vector<uint32_t>(64, 0));
  BufferSpec source;
  source.bound = false;
  source.pushAddressWord = 0;
  source.freeBeforeSubmit = true;
  source.contents.push_back(std::vector<uint32_t>(64, 7));
  job.buffers = {out, source};
  ComputeResult r = device_->Run(job);
  ASSERT_EQ(r.result, VK_ERROR_DEVICE_LOST) << r.error;
  EXPECT_NE(r.faultDescription.find("(freed memory)"), std::string::npos) << r.faultDescription;

  const dump::Decoded d = OnlyDump();
  ASSERT_EQ(d.faults.size(), 1u);
  const uint64_t address = d.faults[0].address;
  EXPECT_EQ(address, r.addresses[1]);
  const dump::Resource* owner = dump::AttributeAddress(d.content, address);
  ASSERT_NE(owner, nullptr) << dump::DumpText(d);
  EXPECT_TRUE(owner->freed);
  EXPECT_EQ(owner->kind, dump::ResourceKind::Buffer) << "the destroyed buffer is the most precise owner";
  const std::string text = dump::DumpText(d);
  EXPECT_NE(text.find("use after free"), std::string::npos) << text;
  // The faulting load, with its result id and the line of bda_read.comp that reads through the address.
  ASSERT_EQ(d.content.pipelines.size(), 1u) << text;
  const dump::Pipeline& p = d.content.pipelines[0];
  ASSERT_TRUE(p.hasFault) << text;
  EXPECT_EQ(p.fault.spirvOpName, "OpLoad");
  EXPECT_NE(p.fault.spirvId, 0u);
  EXPECT_EQ(p.fault.line, 10u);
  EXPECT_NE(p.fault.irText.find("%" + std::to_string(p.fault.spirvId)), std::string::npos) << p.fault.irText;
  EXPECT_NE(text.find("bda_read.comp:10"), std::string::npos) << text;
  EXPECT_EQ(dump::DumpJson(d)["faults"][0]["address"]["useAfterFree"], true);
}

TEST_F(ShaderDumps, OffByOneNamesTheInstructionAndSourceLine) {
  ComputeJob job;
  job.spirv = ReadSpirv(Shader("oob_write.comp"));
  BufferSpec data;
  data.contents.push_back(std::vector<uint32_t>(64, 0));
  job.buffers.push_back(data);
  ComputeResult r = device_->Run(job);
  ASSERT_EQ(r.result, VK_ERROR_DEVICE_LOST) << r.error;
  const dump::Decoded d = OnlyDump();
  ASSERT_EQ(d.content.pipelines.size(), 1u) << dump::DumpText(d);
  const dump::Pipeline& p = d.content.pipelines[0];
  ASSERT_TRUE(p.hasFault);
  EXPECT_EQ(p.fault.line, 7u);
  EXPECT_NE(p.fault.file.find("oob_write.comp"), std::string::npos) << p.fault.file;
  EXPECT_EQ(p.fault.spirvId, 0u) << "OpStore has no result id";
  EXPECT_FALSE(p.fault.irText.empty());
  EXPECT_EQ(p.fault.spirvOpName, "OpStore");
  ASSERT_EQ(d.content.submissions.size(), 1u);
  EXPECT_EQ(d.content.submissions[0].executingName, "vkCmdDispatch");
  const std::string text = dump::DumpText(d);
  EXPECT_NE(text.find("oob_write.comp:7"), std::string::npos) << text;
  // One element past the end of the 256-byte buffer: owned by nothing, named by what it ran past.
  ASSERT_EQ(d.faults.size(), 1u);
  EXPECT_EQ(dump::AttributeAddress(d.content, d.faults[0].address), nullptr);
  const dump::Resource* near = dump::NearestBelow(d.content, d.faults[0].address);
  ASSERT_NE(near, nullptr) << text;
  EXPECT_EQ(near->kind, dump::ResourceKind::Buffer);
  EXPECT_FALSE(near->freed);
  EXPECT_NE(text.find("0 bytes past the end of buffer"), std::string::npos) << text;
}

}  // namespace
}  // namespace crashtest::test
