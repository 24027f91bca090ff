// compute_squares: a plain Vulkan compute program, run against crashtest with no GPU.
//   1. values[i] = i * i + 7 for 1000 elements: the buffer comes back computed, as on a GPU.
//   2. the same kernel with an off-by-one bug ("<=" instead of "<"): the write past the end is a GPU page fault;
//      the device is lost, and VK_EXT_device_fault says where (address, instruction, source line).
// Usage: compute_squares SHADER_DIR   (the directory holding squares.comp.spv and squares_off_by_one.comp.spv)
#include <vulkan/vulkan.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kCount = 1000;

struct Context {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  bool deviceFault = false;
};

bool Check(VkResult r, const char* call) {
  if (r == VK_SUCCESS) return true;
  std::printf("%s returned %d\n", call, static_cast<int>(r));
  return false;
}

bool CreateDevice(Context& c) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "compute_squares";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  if (!Check(vkCreateInstance(&info, nullptr, &c.instance), "vkCreateInstance")) return false;
  uint32_t count = 1;
  VkResult r = vkEnumeratePhysicalDevices(c.instance, &count, &c.physical);
  if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) return Check(VK_ERROR_INITIALIZATION_FAILED, "vkEnumeratePhysicalDevices");
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(c.physical, &properties);
  std::printf("device: %s\n", properties.deviceName);
  uint32_t extensionCount = 0;
  vkEnumerateDeviceExtensionProperties(c.physical, nullptr, &extensionCount, nullptr);
  std::vector<VkExtensionProperties> extensions(extensionCount);
  vkEnumerateDeviceExtensionProperties(c.physical, nullptr, &extensionCount, extensions.data());
  for (const auto& e : extensions) c.deviceFault |= std::strcmp(e.extensionName, VK_EXT_DEVICE_FAULT_EXTENSION_NAME) == 0;
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkPhysicalDeviceFaultFeaturesEXT fault{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT};
  fault.deviceFault = VK_TRUE;
  const char* names[] = {VK_EXT_DEVICE_FAULT_EXTENSION_NAME};
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  deviceInfo.pNext = c.deviceFault ? &fault : nullptr;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queue;
  deviceInfo.enabledExtensionCount = c.deviceFault ? 1 : 0;
  deviceInfo.ppEnabledExtensionNames = names;
  if (!Check(vkCreateDevice(c.physical, &deviceInfo, nullptr, &c.device), "vkCreateDevice")) return false;
  vkGetDeviceQueue(c.device, 0, 0, &c.queue);
  return true;
}

// Runs `spirv` over a buffer of kCount words (zeroed first); returns the fence wait's result and the contents.
VkResult Run(Context& c, const std::vector<char>& spirv, std::vector<uint32_t>* values) {
  VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bufferInfo.size = kCount * 4;
  bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer;
  vkCreateBuffer(c.device, &bufferInfo, nullptr, &buffer);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(c.device, buffer, &req);
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(c.physical, &memory);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if ((req.memoryTypeBits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
        (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) {
      alloc.memoryTypeIndex = i;
      break;
    }
  VkDeviceMemory deviceMemory;
  vkAllocateMemory(c.device, &alloc, nullptr, &deviceMemory);
  vkBindBufferMemory(c.device, buffer, deviceMemory, 0);
  void* mapped = nullptr;
  vkMapMemory(c.device, deviceMemory, 0, VK_WHOLE_SIZE, 0, &mapped);
  std::memset(mapped, 0, kCount * 4);

  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.bindingCount = 1;
  setInfo.pBindings = &binding;
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(c.device, &setInfo, nullptr, &setLayout);
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &setLayout;
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  vkCreatePipelineLayout(c.device, &layoutInfo, nullptr, &layout);
  VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  moduleInfo.codeSize = spirv.size();
  moduleInfo.pCode = reinterpret_cast<const uint32_t*>(spirv.data());
  VkShaderModule module;
  vkCreateShaderModule(c.device, &moduleInfo, nullptr, &module);
  VkComputePipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipelineInfo.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = module;
  pipelineInfo.stage.pName = "main";
  pipelineInfo.layout = layout;
  VkPipeline pipeline;
  vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &pipeline);
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.maxSets = 1;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &size;
  VkDescriptorPool pool;
  vkCreateDescriptorPool(c.device, &poolInfo, nullptr, &pool);
  VkDescriptorSetAllocateInfo setAlloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  setAlloc.descriptorPool = pool;
  setAlloc.descriptorSetCount = 1;
  setAlloc.pSetLayouts = &setLayout;
  VkDescriptorSet set;
  vkAllocateDescriptorSets(c.device, &setAlloc, &set);
  VkDescriptorBufferInfo descriptor{buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &descriptor;
  vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);

  VkCommandPoolCreateInfo commandPoolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool commandPool;
  vkCreateCommandPool(c.device, &commandPoolInfo, nullptr, &commandPool);
  VkCommandBufferAllocateInfo cbInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cbInfo.commandPool = commandPool;
  cbInfo.commandBufferCount = 1;
  VkCommandBuffer cb;
  vkAllocateCommandBuffers(c.device, &cbInfo, &cb);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cb, &begin);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
  const uint32_t count = kCount;
  vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &count);
  vkCmdDispatch(cb, (kCount + 63) / 64, 1, 1);
  vkEndCommandBuffer(cb);
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  vkCreateFence(c.device, &fenceInfo, nullptr, &fence);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  VkResult result = vkQueueSubmit(c.queue, 1, &submit, fence);
  if (result == VK_SUCCESS) result = vkWaitForFences(c.device, 1, &fence, VK_TRUE, UINT64_MAX);
  const uint32_t* words = static_cast<const uint32_t*>(mapped);
  values->assign(words, words + kCount);
  // After a loss the objects may be destroyed once the queue is idle (docs/faults.md).
  vkDeviceWaitIdle(c.device);
  vkDestroyFence(c.device, fence, nullptr);
  vkDestroyCommandPool(c.device, commandPool, nullptr);
  vkDestroyDescriptorPool(c.device, pool, nullptr);
  vkDestroyPipeline(c.device, pipeline, nullptr);
  vkDestroyShaderModule(c.device, module, nullptr);
  vkDestroyPipelineLayout(c.device, layout, nullptr);
  vkDestroyDescriptorSetLayout(c.device, setLayout, nullptr);
  vkDestroyBuffer(c.device, buffer, nullptr);
  vkFreeMemory(c.device, deviceMemory, nullptr);
  return result;
}

void PrintFault(Context& c) {
  if (!c.deviceFault) return;
  auto getFaultInfo = reinterpret_cast<PFN_vkGetDeviceFaultInfoEXT>(vkGetDeviceProcAddr(c.device, "vkGetDeviceFaultInfoEXT"));
  VkDeviceFaultCountsEXT counts{VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
  if (getFaultInfo == nullptr || getFaultInfo(c.device, &counts, nullptr) != VK_SUCCESS) return;
  std::vector<VkDeviceFaultAddressInfoEXT> addresses(counts.addressInfoCount);
  std::vector<VkDeviceFaultVendorInfoEXT> vendor(counts.vendorInfoCount);
  counts.vendorBinarySize = 0;
  VkDeviceFaultInfoEXT info{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT};
  info.pAddressInfos = addresses.data();
  info.pVendorInfos = vendor.data();
  getFaultInfo(c.device, &counts, &info);
  std::printf("fault: %s\n", info.description);
  for (const auto& a : addresses) {
    const char* type = a.addressType == VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT ? "WRITE_INVALID"
                       : a.addressType == VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT ? "READ_INVALID"
                       : a.addressType == VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_EXT ? "INSTRUCTION_POINTER_FAULT"
                                                                                                   : "other";
    std::printf("  address %s 0x%" PRIx64 " (precision %" PRIu64 ")\n", type, a.reportedAddress, a.addressPrecision);
  }
}

std::vector<char> ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  const std::vector<char> good = ReadFile(dir + "/squares.comp.spv"), buggy = ReadFile(dir + "/squares_off_by_one.comp.spv");
  if (good.empty() || buggy.empty()) {
    std::printf("usage: compute_squares SHADER_DIR (with squares.comp.spv and squares_off_by_one.comp.spv)\n");
    return 2;
  }
  Context c;
  if (!CreateDevice(c)) return 1;
  std::vector<uint32_t> values;
  VkResult r = Run(c, good, &values);
  uint32_t correct = 0;
  for (uint32_t i = 0; i < kCount; ++i) correct += values[i] == i * i + 7 ? 1 : 0;
  std::printf("squares.comp: %s; values[0..7] = %u %u %u %u %u %u %u %u; %u of %u correct\n",
              r == VK_SUCCESS ? "VK_SUCCESS" : "failed", values[0], values[1], values[2], values[3], values[4],
              values[5], values[6], values[7], correct, kCount);
  if (r != VK_SUCCESS || correct != kCount) return 1;
  r = Run(c, buggy, &values);
  std::printf("squares_off_by_one.comp: %s\n", r == VK_ERROR_DEVICE_LOST ? "VK_ERROR_DEVICE_LOST" : "no device loss");
  if (r == VK_ERROR_DEVICE_LOST) PrintFault(c);
  vkDestroyDevice(c.device, nullptr);
  vkDestroyInstance(c.instance, nullptr);
  return r == VK_ERROR_DEVICE_LOST ? 0 : 1;
}
