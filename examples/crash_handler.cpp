// crash_handler: what an engine does when the GPU crashes, written against plain Vulkan so it runs unchanged on
// crashtest or on a real driver that offers VK_KHR_device_fault.
//
// It renders "frames" (a small transfer and a fence wait each) until a call returns VK_ERROR_DEVICE_LOST, then:
//   1. collects every fault report with vkGetDeviceFaultReportsKHR (blocking briefly, VK_INCOMPLETE handled),
//   2. fetches the vendor binary crash dump with vkGetDeviceFaultDebugInfoKHR (size query, then the bytes),
//   3. writes DUMP_DIR/reports.txt and DUMP_DIR/vendor.bin, prints a summary and exits 0. Under crashtest,
//      `crashtest decode DUMP_DIR/vendor.bin` prints the dump (and CRASHTEST_DUMP_DIR makes the driver write its own
//      copy of it, as a real driver's crash handler does).
// It exits 1 when the device never got lost within --frames, and 2 on any other failure.
//
// With crashtest (from the source tree, after building):
//   CRASHTEST_CONFIG=examples/crash_handler.json VK_ICD_FILENAMES=build/crashtest_icd.json
//   build/examples/crash_handler --dump-dir /tmp/crash
#include <vulkan/vulkan.h>

#include <crashtest/vulkan_compat.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string dumpDir = "crash-dump";
  int frames = 100;
};

void Usage(FILE* out) {
  std::fprintf(out,
               "usage: crash_handler [--dump-dir DIR] [--frames N]\n"
               "Renders up to N frames (default 100) on the first Vulkan device with VK_KHR_device_fault until the\n"
               "device is lost, then collects the fault reports and the vendor binary and writes DIR/reports.txt\n"
               "and DIR/vendor.bin (default DIR: crash-dump). Exit status: 0 crash handled, 1 no crash, 2 error.\n"
               "Under crashtest, a fault plan in CRASHTEST_CONFIG decides when the device is lost.\n");
}

bool ParseOptions(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      Usage(stdout);
      std::exit(0);
    } else if (arg == "--dump-dir" && i + 1 < argc) {
      options->dumpDir = argv[++i];
    } else if (arg == "--frames" && i + 1 < argc) {
      options->frames = std::atoi(argv[++i]);
      if (options->frames <= 0) {
        std::fprintf(stderr, "crash_handler: --frames wants a positive number, got \"%s\"\n", argv[i]);
        return false;
      }
    } else {
      std::fprintf(stderr, "crash_handler: unknown argument \"%s\"\n", arg.c_str());
      Usage(stderr);
      return false;
    }
  }
  return true;
}

#define CHECK(call)                                                                     \
  do {                                                                                  \
    VkResult check_result_ = (call);                                                    \
    if (check_result_ != VK_SUCCESS) {                                                  \
      std::fprintf(stderr, "crash_handler: %s failed: %d\n", #call, check_result_);     \
      return 2;                                                                         \
    }                                                                                   \
  } while (0)

bool HasExtension(VkPhysicalDevice gpu, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(gpu, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(gpu, nullptr, &count, extensions.data());
  for (const VkExtensionProperties& e : extensions)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

std::string FlagNames(VkDeviceFaultFlagsKHR flags) {
  static const std::pair<VkDeviceFaultFlagsKHR, const char*> kNames[] = {
      {VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR, "DEVICE_LOST"},
      {VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR, "MEMORY_ADDRESS"},
      {VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR, "INSTRUCTION_ADDRESS"},
      {VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR, "VENDOR"},
      {VK_DEVICE_FAULT_FLAG_WATCHDOG_TIMEOUT_BIT_KHR, "WATCHDOG_TIMEOUT"},
      {VK_DEVICE_FAULT_FLAG_OVERFLOW_BIT_KHR, "OVERFLOW"},
  };
  std::string names;
  for (const auto& [bit, name] : kNames)
    if (flags & bit) names += (names.empty() ? "" : "|") + std::string(name);
  return names.empty() ? "0" : names;
}

// Step 1: every report queued so far. Waits up to 100 ms for the first (the loss's reports are queued by the time
// any call returns VK_ERROR_DEVICE_LOST, so this normally returns at once).
std::vector<VkDeviceFaultInfoKHR> CollectReports(VkDevice device, PFN_vkGetDeviceFaultReportsKHR getReports) {
  std::vector<VkDeviceFaultInfoKHR> all;
  uint64_t timeout = 100'000'000;
  for (;;) {
    std::vector<VkDeviceFaultInfoKHR> batch(8, VkDeviceFaultInfoKHR{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR});
    uint32_t count = static_cast<uint32_t>(batch.size());
    VkResult result = getReports(device, timeout, &count, batch.data());
    if (result != VK_SUCCESS && result != VK_INCOMPLETE) break;  // VK_TIMEOUT: nothing more
    all.insert(all.end(), batch.begin(), batch.begin() + count);
    if (result == VK_SUCCESS) break;
    timeout = 0;  // VK_INCOMPLETE: the rest is already queued
  }
  return all;
}

// Step 2: the vendor binary (empty when the driver has none for this loss).
std::vector<uint8_t> FetchVendorBinary(VkDevice device, PFN_vkGetDeviceFaultDebugInfoKHR getDebugInfo) {
  VkDeviceFaultDebugInfoKHR info{VK_STRUCTURE_TYPE_DEVICE_FAULT_DEBUG_INFO_KHR};
  if (getDebugInfo(device, &info) != VK_SUCCESS || info.vendorBinarySize == 0) return {};
  std::vector<uint8_t> bytes(info.vendorBinarySize);
  info.pVendorBinaryData = bytes.data();
  if (getDebugInfo(device, &info) != VK_SUCCESS) return {};
  bytes.resize(info.vendorBinarySize);
  return bytes;
}

// Step 3: the dump on disk, in a form a person (and a bug tracker) can read.
bool WriteDump(const std::string& dir, const std::vector<VkDeviceFaultInfoKHR>& reports,
               const std::vector<uint8_t>& binary) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  std::ofstream text(dir + "/reports.txt");
  text << "reports: " << reports.size() << "\n";
  for (size_t i = 0; i < reports.size(); ++i) {
    const VkDeviceFaultInfoKHR& r = reports[i];
    char line[640];
    std::snprintf(line, sizeof(line), "[%zu] group %" PRIu64 " flags %s: %s\n", i, r.groupId,
                  FlagNames(r.flags).c_str(), r.description);
    text << line;
    if (r.flags & VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR) {
      std::snprintf(line, sizeof(line), "    address 0x%" PRIx64 " (precision %" PRIu64 ", type %d)\n",
                    r.faultAddressInfo.reportedAddress, r.faultAddressInfo.addressPrecision,
                    static_cast<int>(r.faultAddressInfo.addressType));
      text << line;
    }
    if (r.flags & VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR) {
      std::snprintf(line, sizeof(line), "    vendor: %s (code 0x%" PRIx64 ", data 0x%" PRIx64 ")\n",
                    r.vendorInfo.description, r.vendorInfo.vendorFaultCode, r.vendorInfo.vendorFaultData);
      text << line;
    }
  }
  text << "vendor binary: " << binary.size() << " bytes\n";
  std::ofstream(dir + "/vendor.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
  return static_cast<bool>(text);
}

int Run(const Options& options) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "crash_handler";
  app.applicationVersion = 1;
  app.pEngineName = "crashtest-example";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instanceInfo.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  CHECK(vkCreateInstance(&instanceInfo, nullptr, &instance));

  uint32_t gpuCount = 0;
  vkEnumeratePhysicalDevices(instance, &gpuCount, nullptr);
  std::vector<VkPhysicalDevice> gpus(gpuCount);
  vkEnumeratePhysicalDevices(instance, &gpuCount, gpus.data());
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  for (VkPhysicalDevice candidate : gpus)
    if (HasExtension(candidate, VK_KHR_DEVICE_FAULT_EXTENSION_NAME)) gpu = candidate;
  if (gpu == VK_NULL_HANDLE) {
    std::fprintf(stderr, "crash_handler: no device offers %s\n", VK_KHR_DEVICE_FAULT_EXTENSION_NAME);
    vkDestroyInstance(instance, nullptr);
    return 2;
  }
  VkPhysicalDeviceProperties properties{};
  vkGetPhysicalDeviceProperties(gpu, &properties);

  // The engine asks for fault reports and the vendor binary up front: they must be enabled at device creation.
  VkPhysicalDeviceFaultFeaturesKHR faultFeatures{};
  faultFeatures.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_KHR;
  faultFeatures.deviceFault = VK_TRUE;
  faultFeatures.deviceFaultVendorBinary = VK_TRUE;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = 0;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  const char* extension = VK_KHR_DEVICE_FAULT_EXTENSION_NAME;
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &faultFeatures};
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = 1;
  deviceInfo.ppEnabledExtensionNames = &extension;
  VkDevice device = VK_NULL_HANDLE;
  CHECK(vkCreateDevice(gpu, &deviceInfo, nullptr, &device));
  auto getReports =
      reinterpret_cast<PFN_vkGetDeviceFaultReportsKHR>(vkGetDeviceProcAddr(device, "vkGetDeviceFaultReportsKHR"));
  auto getDebugInfo =
      reinterpret_cast<PFN_vkGetDeviceFaultDebugInfoKHR>(vkGetDeviceProcAddr(device, "vkGetDeviceFaultDebugInfoKHR"));
  if (getReports == nullptr || getDebugInfo == nullptr) {
    std::fprintf(stderr, "crash_handler: the device does not return the VK_KHR_device_fault commands\n");
    return 2;
  }
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device, 0, 0, &queue);

  // A "frame": clear a small buffer and wait for it.
  VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bufferInfo.size = 4096;
  bufferInfo.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  CHECK(vkCreateBuffer(device, &bufferInfo, nullptr, &buffer));
  VkMemoryRequirements requirements{};
  vkGetBufferMemoryRequirements(device, buffer, &requirements);
  VkMemoryAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocateInfo.allocationSize = requirements.size;
  allocateInfo.memoryTypeIndex = static_cast<uint32_t>(__builtin_ctz(requirements.memoryTypeBits));
  VkDeviceMemory memory = VK_NULL_HANDLE;
  CHECK(vkAllocateMemory(device, &allocateInfo, nullptr, &memory));
  CHECK(vkBindBufferMemory(device, buffer, memory, 0));
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool = VK_NULL_HANDLE;
  CHECK(vkCreateCommandPool(device, &poolInfo, nullptr, &pool));
  VkCommandBufferAllocateInfo commandInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  commandInfo.commandPool = pool;
  commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  commandInfo.commandBufferCount = 1;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  CHECK(vkAllocateCommandBuffers(device, &commandInfo, &commands));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  CHECK(vkBeginCommandBuffer(commands, &begin));
  vkCmdFillBuffer(commands, buffer, 0, VK_WHOLE_SIZE, 0x2a);
  CHECK(vkEndCommandBuffer(commands));
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  CHECK(vkCreateFence(device, &fenceInfo, nullptr, &fence));

  VkResult lost = VK_SUCCESS;
  int frame = 0;
  for (; frame < options.frames && lost == VK_SUCCESS; ++frame) {
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    lost = vkQueueSubmit(queue, 1, &submit, fence);
    if (lost == VK_SUCCESS) lost = vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX);
    if (lost == VK_SUCCESS) lost = vkResetFences(device, 1, &fence);
  }

  int status = 1;
  if (lost == VK_ERROR_DEVICE_LOST) {
    std::printf("crash_handler: VK_ERROR_DEVICE_LOST at frame %d on \"%s\"\n", frame, properties.deviceName);
    const std::vector<VkDeviceFaultInfoKHR> reports = CollectReports(device, getReports);
    const std::vector<uint8_t> binary = FetchVendorBinary(device, getDebugInfo);
    for (const VkDeviceFaultInfoKHR& r : reports)
      std::printf("  report (group %" PRIu64 ", %s): %s\n", r.groupId, FlagNames(r.flags).c_str(), r.description);
    std::printf("  vendor binary: %zu bytes\n", binary.size());
    if (reports.empty()) {
      std::fprintf(stderr, "crash_handler: the device was lost but reported no fault\n");
      status = 2;
    } else if (!WriteDump(options.dumpDir, reports, binary)) {
      std::fprintf(stderr, "crash_handler: cannot write the dump to %s\n", options.dumpDir.c_str());
      status = 2;
    } else {
      std::printf("crash_handler: dump written to %s/reports.txt and %s/vendor.bin\n", options.dumpDir.c_str(),
                  options.dumpDir.c_str());
      // Under crashtest the vendor binary is documented (docs/faults.md) and has a decoder; on another driver it
      // goes to that vendor's tools (Aftermath, Radeon GPU Detective, ...).
      std::printf("crash_handler: read the vendor binary with `crashtest decode %s/vendor.bin` (crashtest's dumps)\n",
                  options.dumpDir.c_str());
      status = 0;
    }
  } else if (lost != VK_SUCCESS) {
    std::fprintf(stderr, "crash_handler: frame %d failed with %d\n", frame, lost);
    status = 2;
  } else {
    std::printf("crash_handler: %d frames, no crash\n", frame);
  }

  // Teardown works on a lost device too.
  vkDestroyFence(device, fence, nullptr);
  vkDestroyCommandPool(device, pool, nullptr);
  vkDestroyBuffer(device, buffer, nullptr);
  vkFreeMemory(device, memory, nullptr);
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, &options)) return 2;
  return Run(options);
}
