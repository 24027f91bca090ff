// Crash dumps through the real loader: a scripted fault inside a known command stream (labels, a named pipeline,
// a named buffer) gives a vendor binary — the same bytes from vkGetDeviceFaultDebugInfoKHR and in the file
// CRASHTEST_DUMP_DIR / options.dumpDirectory receives — whose decode names the executing command, the label path,
// the pipeline with its statistics and the resource owning the fault address; one file per loss; an unwritable
// folder changes nothing the application sees.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <crashtest/crashtest.h>
#include <crashtest/vulkan_compat.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "fault/dump/dump_reader.h"
#include "fault/dump/dump_report.h"
#include "fault_loader_fixture.h"

namespace {

using namespace crashtest::test;
namespace fs = std::filesystem;
namespace dump = crashtest::dump;

std::vector<uint32_t> ReadSpirv(const std::string& name) {
  std::ifstream in(std::string(CRASHTEST_FAULT_SHADER_DIR) + "/" + name, std::ios::binary | std::ios::ate);
  std::vector<uint32_t> words(in ? static_cast<size_t>(in.tellg()) / 4 : 0);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(words.size() * 4));
  EXPECT_FALSE(words.empty()) << name;
  return words;
}

std::vector<std::byte> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

class DumpLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/crashtest-dump-loader-XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    root_ = name;
    unsetenv("CRASHTEST_DUMP_DIR");
  }
  void TearDown() override {
    Close();
    std::error_code ec;
    fs::remove_all(root_, ec);
    unsetenv("CRASHTEST_DUMP_DIR");
  }

  // An instance whose configuration has `options`, and a device with VK_KHR_device_fault (vendor binary on),
  // buffer device addresses, one named 64-byte buffer "Scene" and a compute pipeline named "Blur"; its queues are
  // those of `family` (builtin:default: one in family 0, two in family 1, compute and transfer).
  void Open(const std::string& options, uint32_t family = 0) {
    config_.reset();
    config_ = std::make_unique<TempConfig>(R"({"devices": ["builtin:default"], "options": )" + options + "}");
    instance_ = MakeInstance(nullptr, {VK_EXT_DEBUG_UTILS_EXTENSION_NAME});
    ASSERT_NE(instance_, VK_NULL_HANDLE);
    uint32_t count = 1;
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    ASSERT_GE(vkEnumeratePhysicalDevices(instance_, &count, &gpu), VK_SUCCESS);
    VkPhysicalDeviceFaultFeaturesKHR fault{};
    fault.deviceFault = VK_TRUE;
    fault.deviceFaultVendorBinary = VK_TRUE;
    address_.bufferDeviceAddress = VK_TRUE;
    device_ = std::make_unique<TestDevice>(gpu, &fault, std::vector<const char*>{VK_KHR_DEVICE_FAULT_EXTENSION_NAME},
                                           &address_, family);
    ASSERT_NE(device_->device, VK_NULL_HANDLE);
    VkDevice device = device_->device;
    setName_ = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
        vkGetInstanceProcAddr(instance_, "vkSetDebugUtilsObjectNameEXT"));
    beginLabel_ = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance_, "vkCmdBeginDebugUtilsLabelEXT"));
    endLabel_ = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance_, "vkCmdEndDebugUtilsLabelEXT"));
    inject_ = reinterpret_cast<PFN_crashtestInjectFault>(vkGetDeviceProcAddr(device, CRASHTEST_INJECT_FAULT_NAME));
    debugInfo_ = reinterpret_cast<PFN_vkGetDeviceFaultDebugInfoKHR>(
        vkGetDeviceProcAddr(device, "vkGetDeviceFaultDebugInfoKHR"));
    ASSERT_TRUE(setName_ && beginLabel_ && endLabel_ && inject_ && debugInfo_);

    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = family;
    ASSERT_EQ(vkCreateCommandPool(device, &poolInfo, nullptr, &pool_), VK_SUCCESS);
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    ASSERT_EQ(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout_), VK_SUCCESS);
    std::vector<uint32_t> words = ReadSpirv("fault_point.comp.spv");
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = words.size() * 4;
    moduleInfo.pCode = words.data();
    ASSERT_EQ(vkCreateShaderModule(device, &moduleInfo, nullptr, &module_), VK_SUCCESS);
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module_;
    info.stage.pName = "main";
    info.layout = layout_;
    ASSERT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_), VK_SUCCESS);
    Name(VK_OBJECT_TYPE_PIPELINE, reinterpret_cast<uint64_t>(pipeline_), "Blur");

    VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bufferInfo.size = 64;
    bufferInfo.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    ASSERT_EQ(vkCreateBuffer(device, &bufferInfo, nullptr, &buffer_), VK_SUCCESS);
    VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags};
    allocate.allocationSize = 4096;
    allocate.memoryTypeIndex = device_->HostVisibleType();
    ASSERT_EQ(vkAllocateMemory(device, &allocate, nullptr, &memory_), VK_SUCCESS);
    ASSERT_EQ(vkBindBufferMemory(device, buffer_, memory_, 256), VK_SUCCESS);
    Name(VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buffer_), "Scene");
    VkBufferDeviceAddressInfo addressInfo{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    addressInfo.buffer = buffer_;
    bufferAddress_ = vkGetBufferDeviceAddress(device, &addressInfo);
    ASSERT_NE(bufferAddress_, 0u);
  }

  void Close() {
    if (device_) {
      VkDevice device = device_->device;
      vkDestroyPipeline(device, pipeline_, nullptr);
      vkDestroyShaderModule(device, module_, nullptr);
      vkDestroyPipelineLayout(device, layout_, nullptr);
      vkDestroyBuffer(device, buffer_, nullptr);
      vkFreeMemory(device, memory_, nullptr);
      vkDestroyCommandPool(device, pool_, nullptr);
      device_.reset();
    }
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
    config_.reset();
  }

  void Name(VkObjectType type, uint64_t handle, const char* name) {
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = name;
    EXPECT_EQ(setName_(device_->device, &info), VK_SUCCESS);
  }
  void Label(VkCommandBuffer cb, const char* name) {
    VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = name;
    beginLabel_(cb, &label);
  }

  // Records the known stream: 0 label "Frame 12", 1 fill, 2 label "Shadows", 3 bind "Blur", 4 dispatch,
  // 5 dispatch, 6 fill, 7 end label, 8 end label; arms a fault at the second dispatch of "Blur" (command 5),
  // reporting a write to `address`; submits and waits. Returns the wait's result.
  VkResult CrashInKnownStream(uint64_t address) {
    char fault[256];
    std::snprintf(fault, sizeof fault,
                  R"({"id": "blur-crash", "when": {"dispatch": 2, "pipeline": "Blur"}, "effect": "device-lost",)"
                  R"( "report": {"address": {"type": "write-invalid", "address": "0x%)" PRIx64 R"("}}})",
                  address);
    EXPECT_EQ(inject_(device_->device, fault), VK_SUCCESS);
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = pool_;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateCommandBuffers(device_->device, &info, &cb), VK_SUCCESS);
    Name(VK_OBJECT_TYPE_COMMAND_BUFFER, reinterpret_cast<uint64_t>(cb), "Frame");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    EXPECT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
    Label(cb, "Frame 12");
    vkCmdFillBuffer(cb, buffer_, 0, 4, 1);
    Label(cb, "Shadows");
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    vkCmdDispatch(cb, 1, 1, 1);
    vkCmdDispatch(cb, 2, 1, 1);
    vkCmdFillBuffer(cb, buffer_, 4, 4, 2);
    endLabel_(cb);
    endLabel_(cb);
    EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkFence fence = device_->Fence();
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    EXPECT_EQ(vkQueueSubmit(device_->queues[0], 1, &submit, fence), VK_SUCCESS);
    const VkResult result = vkWaitForFences(device_->device, 1, &fence, VK_TRUE, UINT64_MAX);
    vkDestroyFence(device_->device, fence, nullptr);
    return result;
  }

  std::vector<std::byte> VendorBinary() {
    VkDeviceFaultDebugInfoKHR debug{VK_STRUCTURE_TYPE_DEVICE_FAULT_DEBUG_INFO_KHR};
    EXPECT_EQ(debugInfo_(device_->device, &debug), VK_SUCCESS);
    std::vector<std::byte> bytes(debug.vendorBinarySize);
    debug.pVendorBinaryData = bytes.data();
    EXPECT_EQ(debugInfo_(device_->device, &debug), VK_SUCCESS);
    return bytes;
  }

  std::vector<fs::path> Dumps(const fs::path& dir) const {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path root_;
  std::unique_ptr<TempConfig> config_;
  VkInstance instance_ = VK_NULL_HANDLE;
  std::unique_ptr<TestDevice> device_;
  VkPhysicalDeviceBufferDeviceAddressFeatures address_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
  PFN_vkSetDebugUtilsObjectNameEXT setName_ = nullptr;
  PFN_vkCmdBeginDebugUtilsLabelEXT beginLabel_ = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT endLabel_ = nullptr;
  PFN_crashtestInjectFault inject_ = nullptr;
  PFN_vkGetDeviceFaultDebugInfoKHR debugInfo_ = nullptr;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  uint64_t bufferAddress_ = 0;
};

TEST_F(DumpLoaderTest, GoldenDecodeNamesCommandLabelsPipelineAndResource) {
  const fs::path dir = root_ / "from-config";
  Open(R"({"dumpDirectory": ")" + dir.string() + R"("})");
  ASSERT_EQ(CrashInKnownStream(bufferAddress_ + 8), VK_ERROR_DEVICE_LOST);
  const std::vector<std::byte> bytes = VendorBinary();
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(VendorBinary(), bytes) << "the same bytes on every call";
  const std::vector<fs::path> files = Dumps(dir);
  ASSERT_EQ(files.size(), 1u) << "options.dumpDirectory receives one file per loss";
  EXPECT_EQ(ReadFile(files[0]), bytes) << "the file holds exactly the vendor binary";

  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(bytes, &d, &error)) << error;
  ASSERT_EQ(d.faults.size(), 1u);
  EXPECT_EQ(d.faults[0].faultId, "blur-crash");
  ASSERT_TRUE(d.content.hasDevice);
  EXPECT_NE(d.content.device.deviceName.find("crashtest"), std::string::npos) << d.content.device.deviceName;
  EXPECT_EQ(d.content.device.profile.rfind("builtin:default", 0), 0u) << d.content.device.profile;
  ASSERT_EQ(d.content.submissions.size(), device_->queues.size()) << "every queue: the losing one first";
  const dump::Submission& s = d.content.submissions[0];
  for (size_t i = 1; i < d.content.submissions.size(); ++i)
    EXPECT_EQ(d.content.submissions[i].serial, 0u) << "the other queues are idle";
  EXPECT_EQ(s.executing, 5u);
  EXPECT_EQ(s.executingName, "vkCmdDispatch");
  EXPECT_EQ(s.labels, (std::vector<std::string>{"Frame 12", "Shadows"}));
  ASSERT_EQ(s.commandBuffers.size(), 1u);
  EXPECT_EQ(s.commandBuffers[0].name, "Frame");
  ASSERT_EQ(s.commandBuffers[0].commands.size(), 9u);
  EXPECT_EQ(s.commandBuffers[0].commands[4].state, dump::CommandState::Completed);
  EXPECT_EQ(s.commandBuffers[0].commands[5].state, dump::CommandState::Executing);
  EXPECT_EQ(s.commandBuffers[0].commands[6].state, dump::CommandState::NotRun);
  ASSERT_EQ(d.content.pipelines.size(), 1u);
  EXPECT_EQ(d.content.pipelines[0].name, "Blur");
  ASSERT_EQ(d.content.pipelines[0].stages.size(), 1u);
  EXPECT_NE(d.content.pipelines[0].stages[0].hash, 0u);
  EXPECT_FALSE(d.content.pipelines[0].stages[0].statistics.empty());
  EXPECT_FALSE(d.content.pipelines[0].hasFault) << "a planned fault is not a shader's";
  const dump::Resource* owner = dump::AttributeAddress(d.content, bufferAddress_ + 8);
  ASSERT_NE(owner, nullptr);
  EXPECT_EQ(owner->kind, dump::ResourceKind::Buffer);
  EXPECT_EQ(owner->name, "Scene");
  EXPECT_FALSE(owner->freed);

  const std::string text = dump::DumpText(d);
  EXPECT_NE(text.find("executing command 6 (vkCmdDispatch, pipeline "), std::string::npos) << text;
  EXPECT_NE(d.faults[0].description.find("command 6, vkCmdDispatch"), std::string::npos)
      << d.faults[0].description << ": the report and the decode number the command alike";
  EXPECT_NE(text.find("\"Blur\", 2 x 1 x 1 workgroups) of command buffer "), std::string::npos) << text;
  EXPECT_NE(text.find("inside labels Frame 12 > Shadows, when the device was lost"), std::string::npos) << text;
  EXPECT_NE(text.find("\"Scene\""), std::string::npos) << text;
}

// A loss raised off the queue's thread (crashtestInjectFault from the application's thread) still says where the
// queue was: the submission's command buffers — the one it completed before the executing one too — the executing
// command (a vkCmdWaitEvents the host never satisfies), the label path there and the bound pipeline.
TEST_F(DumpLoaderTest, LossFromAnotherThreadDescribesWhatTheQueueRuns) {
  Open("{}");
  VkDevice device = device_->device;
  VkEventCreateInfo eventInfo{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  VkEvent event = VK_NULL_HANDLE;    // the host never sets it
  VkEvent reached = VK_NULL_HANDLE;  // the queue sets it: the host then knows where the queue is
  ASSERT_EQ(vkCreateEvent(device, &eventInfo, nullptr, &event), VK_SUCCESS);
  ASSERT_EQ(vkCreateEvent(device, &eventInfo, nullptr, &reached), VK_SUCCESS);
  VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = pool_;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 2;
  VkCommandBuffer cbs[2] = {};
  ASSERT_EQ(vkAllocateCommandBuffers(device, &info, cbs), VK_SUCCESS);
  Name(VK_OBJECT_TYPE_COMMAND_BUFFER, reinterpret_cast<uint64_t>(cbs[0]), "Earlier");
  Name(VK_OBJECT_TYPE_COMMAND_BUFFER, reinterpret_cast<uint64_t>(cbs[1]), "Waiting");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  // 0 label "Frame 3", 1 fill, 2 set event, 3 end label | 4 label "Pass", 5 bind "Blur", 6 wait event, 7 dispatch,
  // 8 end label.
  ASSERT_EQ(vkBeginCommandBuffer(cbs[0], &begin), VK_SUCCESS);
  Label(cbs[0], "Frame 3");
  vkCmdFillBuffer(cbs[0], buffer_, 0, 4, 7);
  vkCmdSetEvent(cbs[0], reached, VK_PIPELINE_STAGE_TRANSFER_BIT);
  endLabel_(cbs[0]);
  ASSERT_EQ(vkEndCommandBuffer(cbs[0]), VK_SUCCESS);
  ASSERT_EQ(vkBeginCommandBuffer(cbs[1], &begin), VK_SUCCESS);
  Label(cbs[1], "Pass");
  vkCmdBindPipeline(cbs[1], VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  vkCmdWaitEvents(cbs[1], 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, nullptr, 0,
                  nullptr, 0, nullptr);
  vkCmdDispatch(cbs[1], 1, 1, 1);
  endLabel_(cbs[1]);
  ASSERT_EQ(vkEndCommandBuffer(cbs[1]), VK_SUCCESS);
  VkFence fence = device_->Fence();
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 2;
  submit.pCommandBuffers = cbs;
  ASSERT_EQ(vkQueueSubmit(device_->queues[0], 1, &submit, fence), VK_SUCCESS);
  // The queue set `reached`; it then reaches the event wait within microseconds.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (vkGetEventStatus(device, reached) != VK_EVENT_SET && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(vkGetEventStatus(device, reached), VK_EVENT_SET);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ(inject_(device, R"({"id": "from-host", "effect": "device-lost"})"), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST);
  vkQueueWaitIdle(device_->queues[0]);
  vkDestroyFence(device, fence, nullptr);
  vkDestroyEvent(device, event, nullptr);
  vkDestroyEvent(device, reached, nullptr);

  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(VendorBinary(), &d, &error)) << error;
  ASSERT_EQ(d.content.submissions.size(), device_->queues.size()) << "one entry per queue";
  const dump::Submission& s = d.content.submissions[0];  // queue 0, described from the injecting thread
  EXPECT_EQ(s.queue, 0u);
  EXPECT_EQ(s.serial, 1u);
  EXPECT_EQ(s.executing, 6u);
  EXPECT_EQ(s.executingName, "vkCmdWaitEvents");
  EXPECT_EQ(s.labels, (std::vector<std::string>{"Pass"})) << "Frame 3 ended in the earlier command buffer";
  ASSERT_EQ(s.commandBuffers.size(), 2u) << "the completed command buffer is listed too";
  EXPECT_EQ(s.commandBuffers[0].name, "Earlier");
  ASSERT_EQ(s.commandBuffers[0].commands.size(), 4u);
  for (const dump::Command& c : s.commandBuffers[0].commands) EXPECT_EQ(c.state, dump::CommandState::Completed);
  EXPECT_EQ(s.commandBuffers[0].commands[1].name, "vkCmdFillBuffer");
  EXPECT_EQ(s.commandBuffers[1].name, "Waiting");
  ASSERT_EQ(s.commandBuffers[1].commands.size(), 5u);
  EXPECT_EQ(s.commandBuffers[1].commands[1].state, dump::CommandState::Completed);
  EXPECT_EQ(s.commandBuffers[1].commands[2].index, 6u);
  EXPECT_EQ(s.commandBuffers[1].commands[2].state, dump::CommandState::Executing);
  EXPECT_EQ(s.commandBuffers[1].commands[3].state, dump::CommandState::NotRun);
  ASSERT_EQ(d.content.pipelines.size(), 1u) << "the pipeline bound at the waiting command";
  EXPECT_EQ(d.content.pipelines[0].name, "Blur");
  for (size_t i = 1; i < d.content.submissions.size(); ++i) EXPECT_EQ(d.content.submissions[i].serial, 0u);

  const std::string text = dump::DumpText(d);
  EXPECT_NE(text.find("executing command 7 (vkCmdWaitEvents) of command buffer "), std::string::npos) << text;
  EXPECT_NE(text.find("inside labels Pass, when the device was lost"), std::string::npos) << text;
  EXPECT_NE(text.find("command buffer " + std::to_string(s.commandBuffers[0].id) + " \"Earlier\":\n    done    1"),
            std::string::npos)
      << text;
  if (device_->queues.size() > 1) {
    EXPECT_NE(text.find("queue 1 of family 0 was idle (no submission executing)"), std::string::npos) << text;
  }
}

// A loss while the queue waits on a semaphore nobody signals: the dump says so, and nothing was executing.
TEST_F(DumpLoaderTest, LossWhileWaitingOnASemaphoreSaysSo) {
  Open("{}");
  VkDevice device = device_->device;
  VkSemaphoreCreateInfo semaphoreInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore semaphore = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateSemaphore(device, &semaphoreInfo, nullptr, &semaphore), VK_SUCCESS);
  VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = pool_;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  ASSERT_EQ(vkAllocateCommandBuffers(device, &info, &cb), VK_SUCCESS);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  ASSERT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
  vkCmdFillBuffer(cb, buffer_, 0, 4, 7);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &semaphore;
  submit.pWaitDstStageMask = &stage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  ASSERT_EQ(vkQueueSubmit(device_->queues[0], 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ(inject_(device, R"({"id": "from-host", "effect": "device-lost"})"), VK_ERROR_DEVICE_LOST);
  vkQueueWaitIdle(device_->queues[0]);
  vkDestroySemaphore(device, semaphore, nullptr);

  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(VendorBinary(), &d, &error)) << error;
  ASSERT_FALSE(d.content.submissions.empty());
  const dump::Submission& s = d.content.submissions[0];
  EXPECT_EQ(s.serial, 1u);
  EXPECT_EQ(s.executing, dump::kNoCommand);
  ASSERT_EQ(s.commandBuffers.size(), 1u);
  ASSERT_EQ(s.commandBuffers[0].commands.size(), 1u);
  EXPECT_EQ(s.commandBuffers[0].commands[0].state, dump::CommandState::NotRun);
  const std::string text = dump::DumpText(d);
  EXPECT_NE(text.find("waiting on semaphores before command 1 (vkCmdFillBuffer): no command started, submission 1 "
                      "on queue 0"),
            std::string::npos)
      << text;
}

// Queue 1 loses the device (a dispatch of "Blur") once queue 0 has signalled it from between two commands: queue 0
// completed its first command (its first batch), signalled, and has not started the second (its second batch waits
// on a semaphore nobody signals). The dump says exactly that — between command 1 and command 2, neither executing —
// and lists the submissions queue 0 held queued behind, not started, with their command buffers. Deterministic:
// the signal orders queue 0's progress before the loss, and queue 0 can go no further.
TEST_F(DumpLoaderTest, LossFromAnotherQueueSaysBetweenWhichCommandsAndListsTheQueued) {
  Open("{}", 1);
  ASSERT_GE(device_->queues.size(), 2u) << "builtin:default has two queues in family 1";
  VkDevice device = device_->device;
  ASSERT_EQ(inject_(device, R"({"id": "other-queue", "when": {"dispatch": 1, "pipeline": "Blur"},)"
                            R"( "effect": "device-lost"})"),
            VK_SUCCESS);
  VkSemaphore signalled = device_->Semaphore(false);
  VkSemaphore never = device_->Semaphore(false);
  VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = pool_;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 4;
  VkCommandBuffer cbs[4] = {};  // First, Second, Later (queue 0) and Crash (queue 1)
  ASSERT_EQ(vkAllocateCommandBuffers(device, &info, cbs), VK_SUCCESS);
  const char* names[4] = {"First", "Second", "Later", "Crash"};
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  for (int i = 0; i < 4; ++i) {
    Name(VK_OBJECT_TYPE_COMMAND_BUFFER, reinterpret_cast<uint64_t>(cbs[i]), names[i]);
    ASSERT_EQ(vkBeginCommandBuffer(cbs[i], &begin), VK_SUCCESS);
    if (i == 3) {
      vkCmdBindPipeline(cbs[i], VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
      vkCmdDispatch(cbs[i], 1, 1, 1);
    } else {
      vkCmdFillBuffer(cbs[i], buffer_, 0, 4, 1);
      if (i == 1) vkCmdFillBuffer(cbs[i], buffer_, 4, 4, 2);
    }
    ASSERT_EQ(vkEndCommandBuffer(cbs[i]), VK_SUCCESS);
  }
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  // Queue 0, submission 1: [First (index 0), signal] then [wait `never`, Second (indices 1, 2)].
  VkSubmitInfo first[2] = {{VK_STRUCTURE_TYPE_SUBMIT_INFO}, {VK_STRUCTURE_TYPE_SUBMIT_INFO}};
  first[0].commandBufferCount = 1;
  first[0].pCommandBuffers = &cbs[0];
  first[0].signalSemaphoreCount = 1;
  first[0].pSignalSemaphores = &signalled;
  first[1].waitSemaphoreCount = 1;
  first[1].pWaitSemaphores = &never;
  first[1].pWaitDstStageMask = &stage;
  first[1].commandBufferCount = 1;
  first[1].pCommandBuffers = &cbs[1];
  ASSERT_EQ(vkQueueSubmit(device_->queues[0], 2, first, VK_NULL_HANDLE), VK_SUCCESS);
  // Queued behind it: submission 2 (Later) and submission 3 (no command buffers, a fence only).
  VkSubmitInfo later{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  later.commandBufferCount = 1;
  later.pCommandBuffers = &cbs[2];
  ASSERT_EQ(vkQueueSubmit(device_->queues[0], 1, &later, VK_NULL_HANDLE), VK_SUCCESS);
  VkFence queuedFence = device_->Fence();
  VkSubmitInfo nothing{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  ASSERT_EQ(vkQueueSubmit(device_->queues[0], 1, &nothing, queuedFence), VK_SUCCESS);
  // Queue 1 runs Crash once queue 0 has signalled (inline in vkQueueSubmit when the signal came first).
  VkSubmitInfo crash{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  crash.waitSemaphoreCount = 1;
  crash.pWaitSemaphores = &signalled;
  crash.pWaitDstStageMask = &stage;
  crash.commandBufferCount = 1;
  crash.pCommandBuffers = &cbs[3];
  VkFence fence = device_->Fence();
  const VkResult submitted = vkQueueSubmit(device_->queues[1], 1, &crash, fence);
  ASSERT_TRUE(submitted == VK_SUCCESS || submitted == VK_ERROR_DEVICE_LOST) << submitted;
  EXPECT_EQ(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST);
  for (VkQueue queue : device_->queues) vkQueueWaitIdle(queue);
  vkDestroyFence(device, fence, nullptr);
  vkDestroyFence(device, queuedFence, nullptr);
  vkDestroySemaphore(device, signalled, nullptr);
  vkDestroySemaphore(device, never, nullptr);

  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(VendorBinary(), &d, &error)) << error;
  ASSERT_EQ(d.content.submissions.size(), device_->queues.size());
  const dump::Submission& losing = d.content.submissions[0];
  EXPECT_EQ(losing.queue, 1u);
  EXPECT_EQ(losing.family, 1u);
  EXPECT_EQ(losing.executing, 1u);
  EXPECT_EQ(losing.executingName, "vkCmdDispatch");
  const dump::Submission& between = d.content.submissions[1];
  EXPECT_EQ(between.queue, 0u);
  EXPECT_EQ(between.serial, 1u);
  EXPECT_EQ(between.executing, dump::kNoCommand) << "no command executes between two commands";
  EXPECT_TRUE(between.executingName.empty());
  EXPECT_NE(between.executingDetail.find("between command 1 (vkCmdFillBuffer) and command 2 (vkCmdFillBuffer): the "
                                         "first completed, the second not started"),
            std::string::npos)
      << between.executingDetail;
  ASSERT_EQ(between.commandBuffers.size(), 2u);
  EXPECT_EQ(between.commandBuffers[0].name, "First");
  ASSERT_EQ(between.commandBuffers[0].commands.size(), 1u);
  EXPECT_EQ(between.commandBuffers[0].commands[0].state, dump::CommandState::Completed);
  EXPECT_EQ(between.commandBuffers[1].name, "Second");
  ASSERT_EQ(between.commandBuffers[1].commands.size(), 2u);
  for (const dump::Command& c : between.commandBuffers[1].commands) EXPECT_EQ(c.state, dump::CommandState::NotRun);

  ASSERT_EQ(d.content.queued.size(), 2u) << "submissions 2 and 3 of queue 0 had not started";
  for (const dump::QueuedSubmission& q : d.content.queued) {
    EXPECT_EQ(q.family, 1u);
    EXPECT_EQ(q.queue, 0u);
  }
  EXPECT_EQ(d.content.queued[0].serial, 2u);
  ASSERT_EQ(d.content.queued[0].commandBuffers.size(), 1u);
  EXPECT_EQ(d.content.queued[0].commandBuffers[0].name, "Later");
  ASSERT_EQ(d.content.queued[0].commandBuffers[0].commands.size(), 1u);
  EXPECT_EQ(d.content.queued[0].commandBuffers[0].commands[0].name, "vkCmdFillBuffer");
  EXPECT_EQ(d.content.queued[0].commandBuffers[0].commands[0].state, dump::CommandState::NotRun);
  EXPECT_EQ(d.content.queued[1].serial, 3u);
  EXPECT_TRUE(d.content.queued[1].commandBuffers.empty());

  const std::string text = dump::DumpText(d);
  EXPECT_NE(text.find("between command 1 (vkCmdFillBuffer) and command 2 (vkCmdFillBuffer): the first completed, "
                      "the second not started, submission 1 on queue 0 of family 1"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("queued, not started, on queue 0 of family 1: submission 2 (command buffer " +
                      std::to_string(d.content.queued[0].commandBuffers[0].id) +
                      " \"Later\"), submission 3 (no command buffers)"),
            std::string::npos)
      << text;
  const nlohmann::json json = dump::DumpJson(d);
  ASSERT_EQ(json["queued"].size(), 2u);
  EXPECT_EQ(json["queued"][0]["commandBuffers"][0]["name"], "Later");
  EXPECT_EQ(json["submissions"][1]["executing"], nullptr);
}

// A hang at a submit: the watchdog loses the device on its own thread, and the dump says the queue hung at that
// submission with no command started.
TEST_F(DumpLoaderTest, WatchdogLossAfterAHangAtASubmitSaysWhereTheQueueStopped) {
  Open("{}");
  VkDevice device = device_->device;
  ASSERT_EQ(inject_(device, R"({"id": "stuck", "when": {"submit": 1}, "effect": "hang", "watchdogMs": 20})"),
            VK_SUCCESS);
  VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = pool_;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  ASSERT_EQ(vkAllocateCommandBuffers(device, &info, &cb), VK_SUCCESS);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  ASSERT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
  vkCmdFillBuffer(cb, buffer_, 0, 4, 7);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  VkFence fence = device_->Fence();
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  ASSERT_EQ(vkQueueSubmit(device_->queues[0], 1, &submit, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST);
  vkQueueWaitIdle(device_->queues[0]);
  vkDestroyFence(device, fence, nullptr);

  dump::Decoded d;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(VendorBinary(), &d, &error)) << error;
  ASSERT_FALSE(d.content.submissions.empty());
  const dump::Submission& s = d.content.submissions[0];
  EXPECT_EQ(s.serial, 1u);
  EXPECT_EQ(s.executing, dump::kNoCommand);
  ASSERT_EQ(s.commandBuffers.size(), 1u);
  ASSERT_EQ(s.commandBuffers[0].commands.size(), 1u);
  EXPECT_EQ(s.commandBuffers[0].commands[0].state, dump::CommandState::NotRun);
  const std::string text = dump::DumpText(d);
  EXPECT_NE(text.find("hung at the submission (planned hang): no command started, submission 1 on queue 0"),
            std::string::npos)
      << text;
}

TEST_F(DumpLoaderTest, EnvironmentFolderGetsOneFilePerLoss) {
  const fs::path dir = root_ / "env" / "nested";
  setenv("CRASHTEST_DUMP_DIR", dir.c_str(), 1);
  Open(R"({"dumpDirectory": "/nonexistent-overridden-by-the-environment"})");
  ASSERT_EQ(CrashInKnownStream(0x7f00), VK_ERROR_DEVICE_LOST);
  Close();
  Open("{}");
  ASSERT_EQ(CrashInKnownStream(0x7f00), VK_ERROR_DEVICE_LOST);
  const std::vector<fs::path> files = Dumps(dir);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_NE(files[0], files[1]);
  for (const fs::path& file : files) {
    dump::Decoded d;
    std::string error;
    EXPECT_TRUE(dump::DecodeVendorBinary(ReadFile(file), &d, &error)) << file << ": " << error;
    EXPECT_EQ(dump::AttributeAddress(d.content, 0x7f00), nullptr);
  }
}

TEST_F(DumpLoaderTest, UnwritableFolderIsHarmless) {
  const fs::path file = root_ / "a-file";
  std::ofstream(file) << "x";
  Open(R"({"dumpDirectory": ")" + (file / "dumps").string() + R"("})");
  ASSERT_EQ(CrashInKnownStream(bufferAddress_), VK_ERROR_DEVICE_LOST);
  const std::vector<std::byte> bytes = VendorBinary();
  dump::Decoded d;
  std::string error;
  EXPECT_TRUE(dump::DecodeVendorBinary(bytes, &d, &error)) << error;
}

TEST_F(DumpLoaderTest, BadDumpOptionsFailTheInstance) {
  // The driver fails vkCreateInstance (the loader, left with no driver, may answer INCOMPATIBLE_DRIVER) and says
  // which option is wrong.
  const std::pair<const char*, const char*> cases[] = {
      {R"({"options": {"dumpDirectory": 3}})", "options.dumpDirectory: expected the path of a folder"},
      {R"({"options": {"dumpSizeLimit": 100}})", "options.dumpSizeLimit: expected a number of bytes from 4096"},
  };
  for (const auto& [json, message] : cases) {
    config_.reset();  // before the next one: its destructor unsets CRASHTEST_CONFIG
    config_ = std::make_unique<TempConfig>(json);
    VkResult result = VK_SUCCESS;
    testing::internal::CaptureStderr();
    EXPECT_EQ(MakeInstance(&result), VK_NULL_HANDLE) << json;
    const std::string log = testing::internal::GetCapturedStderr();
    EXPECT_NE(result, VK_SUCCESS);
    EXPECT_NE(log.find(message), std::string::npos) << log;
  }
}

}  // namespace
