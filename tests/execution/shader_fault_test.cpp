// Faults from real bugs in the application's shaders: an off-by-one write, a read through the device address of a
// freed buffer, a loop that never ends. Each gives the report a GPU crash would (flags, address, instruction, line),
// and the device is lost or not as the configuration ("options": {"shaderFaults": ...}) says.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "vk_compute.h"

namespace crashtest::test {
namespace {

std::string Shader(const char* name) { return std::string(CRASHTEST_EXECUTION_SHADER_DIR) + "/" + name + ".spv"; }

// One instance and crashtest device, created under the given configuration file ("" for none).
class ShaderFaults : public ::testing::Test {
 protected:
  void Open(const char* config) {
    if (config != nullptr && *config != '\0')
      setenv("CRASHTEST_CONFIG", (std::string(CRASHTEST_EXECUTION_DATA_DIR) + "/" + config).c_str(), 1);
    else
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
    unsetenv("CRASHTEST_CONFIG");
  }
  // 64 invocations writing data[i + 1] into a 64-element buffer: invocation 63 writes one past the end.
  ComputeJob OffByOne() {
    ComputeJob job;
    job.spirv = ReadSpirv(Shader("oob_write.comp"));
    BufferSpec out;
    out.contents.push_back(std::vector<uint32_t>(64, 0xdeadbeef));
    job.buffers.push_back(out);
    return job;
  }
  VkInstance instance_ = VK_NULL_HANDLE;
  std::unique_ptr<ComputeDevice> device_;
};

TEST_F(ShaderFaults, OffByOneWriteLosesTheDeviceWithTheAddressAndLine) {
  Open(nullptr);
  ComputeResult r = device_->Run(OffByOne());
  ASSERT_EQ(r.result, VK_ERROR_DEVICE_LOST) << r.error;
  ASSERT_FALSE(r.faultDescription.empty());
  EXPECT_NE(r.faultDescription.find("out-of-bounds write"), std::string::npos) << r.faultDescription;
  EXPECT_NE(r.faultDescription.find("oob_write.comp:7"), std::string::npos) << r.faultDescription;
  EXPECT_NE(r.faultDescription.find("invocation 63"), std::string::npos) << r.faultDescription;
  bool address = false, instruction = false;
  for (const VkDeviceFaultAddressInfoEXT& info : r.faultAddresses) {
    if (info.addressType == VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT) {
      address = true;
      ASSERT_NE(r.addresses[0], 0u);
      EXPECT_EQ(info.reportedAddress, r.addresses[0] + 64 * 4) << "one element past the 256-byte buffer";
    }
    if (info.addressType == VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_EXT) instruction = true;
  }
  EXPECT_TRUE(address);
  EXPECT_TRUE(instruction);
}

TEST_F(ShaderFaults, MaskedFaultKeepsTheDeviceAndDropsTheWrite) {
  Open("shader_faults_masked.json");
  ComputeResult r = device_->Run(OffByOne());
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  ASSERT_EQ(r.buffers[0][0].size(), 64u);
  for (uint32_t i = 1; i < 64; ++i) EXPECT_EQ(r.buffers[0][0][i], i - 1) << i;
  EXPECT_EQ(r.buffers[0][0][0], 0xdeadbeefu);
}

TEST_F(ShaderFaults, FaultsOffGiveRobustSemantics) {
  Open("shader_faults_off.json");
  ComputeResult r = device_->Run(OffByOne());
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  for (uint32_t i = 1; i < 64; ++i) EXPECT_EQ(r.buffers[0][0][i], i - 1) << i;
}

// VK_EXT_robustness2's nullDescriptor: a descriptor written as VK_NULL_HANDLE is defined to read zero and drop
// writes, so the off-by-one shader's writes into it vanish and nothing faults.
TEST_F(ShaderFaults, NullDescriptorAccessesAreNotFaults) {
  Open(nullptr);
  device_.reset();
  std::string error;
  device_ = ComputeDevice::Open(instance_, "crashtest", &error, /*faults=*/true, 1, /*nullDescriptor=*/true);
  ASSERT_NE(device_, nullptr) << error;
  ASSERT_TRUE(device_->hasExtension(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME));
  ComputeJob job = OffByOne();
  job.buffers[0].null = true;
  ComputeResult r = device_->Run(job);
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error << r.faultDescription;
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(r.buffers[0][0][i], 0xdeadbeefu) << "the buffer was not bound";
}

TEST_F(ShaderFaults, ReadThroughTheAddressOfAFreedBuffer) {
  Open(nullptr);
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
  EXPECT_NE(r.faultDescription.find("out-of-bounds read"), std::string::npos) << r.faultDescription;
  bool address = false;
  for (const VkDeviceFaultAddressInfoEXT& info : r.faultAddresses)
    if (info.addressType == VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT) {
      address = true;
      EXPECT_EQ(info.reportedAddress, r.addresses[1]) << "invocation 0 reads the freed buffer's first word";
    }
  EXPECT_TRUE(address);
}

TEST_F(ShaderFaults, ReadThroughALiveAddressWorks) {
  Open(nullptr);
  ComputeJob job;
  job.spirv = ReadSpirv(Shader("bda_read.comp"));
  BufferSpec out;
  out.contents.push_back(std::vector<uint32_t>(64, 0));
  BufferSpec source;
  source.bound = false;
  source.pushAddressWord = 0;
  std::vector<uint32_t> values(64);
  for (uint32_t i = 0; i < 64; ++i) values[i] = i * 3;
  source.contents.push_back(values);
  job.buffers = {out, source};
  ComputeResult r = device_->Run(job);
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(r.buffers[0][0][i], i * 3 + 1) << i;
}

// variablePointers' null pointers (OpConstantNull): a dereference is a device fault at address 0 (plus the offset
// stepped from null), reported as a null-pointer access, never a host crash or an access to some other variable.
ComputeJob NullPointer(const char* shader) {
  ComputeJob job;
  job.spirv = ReadSpirv(Shader(shader));
  BufferSpec data;
  std::vector<uint32_t> values(64);
  for (uint32_t i = 0; i < 64; ++i) values[i] = 100 + i;
  data.contents.push_back(values);
  job.buffers.push_back(data);
  return job;
}

void ExpectNullFault(const ComputeResult& r, const char* what, const char* invocation,
                     VkDeviceFaultAddressTypeEXT type) {
  EXPECT_NE(r.faultDescription.find(what), std::string::npos) << r.faultDescription;
  EXPECT_NE(r.faultDescription.find(invocation), std::string::npos) << r.faultDescription;
  bool address = false;
  for (const VkDeviceFaultAddressInfoEXT& info : r.faultAddresses)
    if (info.addressType == type) {
      address = true;
      EXPECT_EQ(info.reportedAddress, 0u) << "a null pointer's own address";
    }
  EXPECT_TRUE(address);
}

TEST_F(ShaderFaults, NullStorageBufferPointerReadIsAFault) {
  Open(nullptr);
  ComputeResult r = device_->Run(NullPointer("null_pointer_read.spvasm"));
  ASSERT_EQ(r.result, VK_ERROR_DEVICE_LOST) << r.error;
  ExpectNullFault(r, "null-pointer read", "invocation 5", VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT);
}

TEST_F(ShaderFaults, NullWorkgroupPointerWriteIsAFault) {
  Open(nullptr);
  ComputeResult r = device_->Run(NullPointer("null_pointer_write.spvasm"));
  ASSERT_EQ(r.result, VK_ERROR_DEVICE_LOST) << r.error;
  ExpectNullFault(r, "null-pointer write", "invocation 7", VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT);
}

// Masked: the device lives, the write through null lands nowhere (workgroup word 0 keeps invocation 0's value, word
// 7 its zero initial value) and every other invocation's store is there.
TEST_F(ShaderFaults, MaskedNullWorkgroupWriteLandsNowhere) {
  Open("shader_faults_masked.json");
  ComputeResult r = device_->Run(NullPointer("null_pointer_write.spvasm"));
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  ASSERT_EQ(r.buffers[0][0].size(), 64u);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(r.buffers[0][0][i], i == 7 ? 0u : i) << i;
}

ComputeJob EndlessLoop() {
  ComputeJob job;
  job.spirv = ReadSpirv(Shader("endless_loop.comp"));
  BufferSpec data;
  data.contents.push_back(std::vector<uint32_t>(16, 0));
  job.buffers.push_back(data);
  return job;
}

TEST_F(ShaderFaults, EndlessLoopIsAHangTheWatchdogEnds) {
  Open("shader_timeout.json");
  ComputeResult r = device_->Run(EndlessLoop());
  ASSERT_EQ(r.result, VK_ERROR_DEVICE_LOST) << r.error;
  EXPECT_NE(r.faultDescription.find("time budget"), std::string::npos) << r.faultDescription;
  EXPECT_NE(r.faultDescription.find("shader hash"), std::string::npos) << r.faultDescription;
}

TEST_F(ShaderFaults, EndlessLoopRunsOutOfItsInstructionBudget) {
  Open("shader_budget.json");
  ComputeResult r = device_->Run(EndlessLoop());
  ASSERT_EQ(r.result, VK_ERROR_DEVICE_LOST) << r.error;
  EXPECT_NE(r.faultDescription.find("time budget"), std::string::npos) << r.faultDescription;
}

}  // namespace
}  // namespace crashtest::test
