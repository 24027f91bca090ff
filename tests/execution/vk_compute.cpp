#include "vk_compute.h"

#include "vk_compute_images.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>

namespace crashtest::test {

namespace {

std::string Failed(const char* call, VkResult result) {
  return std::string(call) + " returned " + std::to_string(static_cast<int>(result));
}

}  // namespace

VkInstance CreateTestInstance(std::string* error) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "crashtest-execution-tests";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = vkCreateInstance(&info, nullptr, &instance);
  if (r != VK_SUCCESS) {
    *error = Failed("vkCreateInstance", r);
    return VK_NULL_HANDLE;
  }
  return instance;
}

std::vector<uint32_t> ReadSpirv(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), words.size() * 4);  // empty: a missing file
  return words;
}

std::unique_ptr<ComputeDevice> ComputeDevice::Open(VkInstance instance, const std::string& nameFragment,
                                                   std::string* error, bool faults, int crashtest,
                                                   bool nullDescriptor) {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  for (VkPhysicalDevice physical : devices) {
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    vkGetPhysicalDeviceProperties2(physical, &properties);
    std::string name = properties.properties.deviceName;
    if (name.find(nameFragment) == std::string::npos) continue;
    auto d = std::unique_ptr<ComputeDevice>(new ComputeDevice());
    d->physical_ = physical;
    d->name_ = name;
    d->subgroupSize_ = subgroup.subgroupSize;
    vkGetPhysicalDeviceMemoryProperties(physical, &d->memory_);
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
    std::vector<VkQueueFamilyProperties> props(families);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, props.data());
    d->family_ = UINT32_MAX;
    for (uint32_t i = 0; i < families; ++i)
      if (props[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
        d->family_ = i;
        break;
      }
    if (d->family_ == UINT32_MAX) {
      *error = name + ": no compute queue";
      return nullptr;
    }
    uint32_t extensionCount = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &extensionCount, nullptr);
    std::vector<VkExtensionProperties> extensions(extensionCount);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &extensionCount, extensions.data());
    for (const VkExtensionProperties& e : extensions) d->extensions_.push_back(e.extensionName);
    if (crashtest >= 0 && d->hasExtension("VK_KHR_device_fault") != (crashtest == 1)) continue;
    VkPhysicalDeviceFeatures supported{};
    vkGetPhysicalDeviceFeatures(physical, &supported);
    // Only what the tests' shaders need; robust buffer access stays off, so out-of-range accesses fault.
    d->features_.shaderInt64 = supported.shaderInt64;
    d->features_.shaderFloat64 = supported.shaderFloat64;
    d->features_.shaderInt16 = supported.shaderInt16;
    d->features_.imageCubeArray = supported.imageCubeArray;
    d->features_.shaderStorageImageExtendedFormats = supported.shaderStorageImageExtendedFormats;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = d->family_;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.pEnabledFeatures = &d->features_;
    // The shader arithmetic and storage features the corpus uses, where the device offers them; with `faults`,
    // also buffer device addresses and VK_EXT_device_fault.
    VkPhysicalDeviceShaderFloat16Int8Features float16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
    VkPhysicalDevice16BitStorageFeatures storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, &float16};
    VkPhysicalDevice8BitStorageFeatures storage8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES, &storage16};
    VkPhysicalDeviceBufferDeviceAddressFeatures address{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
                                                        &storage8};
    VkPhysicalDeviceFaultFeaturesEXT fault{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT};
    const bool hasFault = faults && d->hasExtension(VK_EXT_DEVICE_FAULT_EXTENSION_NAME);
    VkPhysicalDeviceRobustness2FeaturesEXT robustness2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
    const bool hasNull = nullDescriptor && d->hasExtension(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
    fault.pNext = hasNull ? &robustness2 : nullptr;
    float16.pNext = hasFault ? static_cast<void*>(&fault) : hasNull ? static_cast<void*>(&robustness2) : nullptr;
    // Custom border colours, for the sampler tests.
    const bool hasBorder = d->hasExtension(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
    VkPhysicalDeviceCustomBorderColorFeaturesEXT border{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT,
                                                        &address};
    void* head = hasBorder ? static_cast<void*>(&border) : static_cast<void*>(&address);
    // Non-seamless cube samplers and 2D views of 3D images, for the image tests.
    const bool hasNonSeamless = d->hasExtension(VK_EXT_NON_SEAMLESS_CUBE_MAP_EXTENSION_NAME);
    VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT nonSeamless{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT, head};
    if (hasNonSeamless) head = &nonSeamless;
    const bool has2DViewOf3D = d->hasExtension(VK_EXT_IMAGE_2D_VIEW_OF_3D_EXTENSION_NAME);
    VkPhysicalDeviceImage2DViewOf3DFeaturesEXT view2DOf3D{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT, head};
    if (has2DViewOf3D) head = &view2DOf3D;
    // Variable pointers (core 1.1 struct), storage-buffer and workgroup, for the variable_pointers cases.
    VkPhysicalDeviceVariablePointersFeatures variablePointers{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES, head};
    head = &variablePointers;
    // 64-bit integer texels and their atomics (VK_EXT_shader_image_atomic_int64), for the R64 image tests.
    const bool hasImageInt64 = d->hasExtension(VK_EXT_SHADER_IMAGE_ATOMIC_INT64_EXTENSION_NAME);
    VkPhysicalDeviceShaderImageAtomicInt64FeaturesEXT imageInt64{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_IMAGE_ATOMIC_INT64_FEATURES_EXT, head};
    if (hasImageInt64) head = &imageInt64;
    // The Vulkan memory model with availability and visibility chains, for the memory_model_chains case.
    VkPhysicalDeviceVulkanMemoryModelFeatures memoryModel{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
                                                          head};
    head = &memoryModel;
    VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, head};
    vkGetPhysicalDeviceFeatures2(physical, &query);
    storage16.storageInputOutput16 = VK_FALSE;
    address.bufferDeviceAddressCaptureReplay = VK_FALSE;
    address.bufferDeviceAddressMultiDevice = VK_FALSE;
    if (!faults) address.bufferDeviceAddress = VK_FALSE;
    fault.deviceFaultVendorBinary = VK_FALSE;
    robustness2.robustBufferAccess2 = VK_FALSE;  // it would need robustBufferAccess, which hides faults
    robustness2.robustImageAccess2 = VK_FALSE;
    imageInt64.sparseImageInt64Atomics = VK_FALSE;  // no sparse images here
    d->addresses_ = address.bufferDeviceAddress == VK_TRUE;
    d->memoryModelChains_ = memoryModel.vulkanMemoryModelAvailabilityVisibilityChains == VK_TRUE;
    d->deviceFault_ = hasFault && fault.deviceFault == VK_TRUE;
    std::vector<const char*> enabled;
    if (d->deviceFault_) enabled.push_back(VK_EXT_DEVICE_FAULT_EXTENSION_NAME);
    if (hasNull) enabled.push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
    if (hasBorder) enabled.push_back(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
    if (hasNonSeamless) enabled.push_back(VK_EXT_NON_SEAMLESS_CUBE_MAP_EXTENSION_NAME);
    if (has2DViewOf3D) enabled.push_back(VK_EXT_IMAGE_2D_VIEW_OF_3D_EXTENSION_NAME);
    if (hasImageInt64) enabled.push_back(VK_EXT_SHADER_IMAGE_ATOMIC_INT64_EXTENSION_NAME);
    // The image tests sample with MIRROR_CLAMP_TO_EDGE, which needs the extension (or the 1.2 feature).
    if (d->hasExtension(VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME))
      enabled.push_back(VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME);
    info.pNext = head;
    info.enabledExtensionCount = static_cast<uint32_t>(enabled.size());
    info.ppEnabledExtensionNames = enabled.data();
    VkResult r = vkCreateDevice(physical, &info, nullptr, &d->device_);
    if (r != VK_SUCCESS) {
      *error = name + ": " + Failed("vkCreateDevice", r);
      return nullptr;
    }
    vkGetDeviceQueue(d->device_, d->family_, 0, &d->queue_);
    return d;
  }
  *error = "no physical device named like \"" + nameFragment + "\" (is its driver in VK_ICD_FILENAMES?)";
  return nullptr;
}

ComputeDevice::~ComputeDevice() {
  if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
}

bool ComputeDevice::hasExtension(const char* name) const {
  return std::find(extensions_.begin(), extensions_.end(), name) != extensions_.end();
}

uint32_t ComputeDevice::MemoryType(uint32_t bits) const {
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & want) == want) return i;
  return UINT32_MAX;
}

ComputeResult ComputeDevice::Run(const ComputeJob& job) {
  ComputeResult out;
  struct Allocation {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
    size_t bytes = 0;
  };
  std::vector<std::vector<Allocation>> allocations(job.buffers.size());
  std::map<uint32_t, std::vector<VkDescriptorSetLayoutBinding>> setBindings;
  VkDescriptorSetLayout layouts[8] = {};
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  uint32_t setCount = 0;
  ImageResources images(device_, queue_, family_, memory_);

  auto fail = [&](const char* call, VkResult r) {
    out.error = Failed(call, r);
    out.result = r;
  };
  do {
    // Buffers.
    bool ok = true;
    for (size_t b = 0; b < job.buffers.size() && ok; ++b) {
      const BufferSpec& spec = job.buffers[b];
      const bool inlineBlock = spec.type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
      if (spec.bound) {
        // An inline uniform block's descriptor count is its size in bytes.
        const uint32_t count = inlineBlock ? static_cast<uint32_t>(spec.contents[0].size() * 4) : spec.count;
        setBindings[spec.set].push_back({spec.binding, spec.type, count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
        setCount = std::max(setCount, spec.set + 1);
      }
      if (inlineBlock) {
        allocations[b].push_back(Allocation{});
        out.addresses.push_back(0);
        continue;
      }
      for (uint32_t e = 0; e < spec.count; ++e) {
        Allocation a;
        const std::vector<uint32_t>& contents = spec.contents[e];
        a.bytes = std::max<size_t>(16, contents.size() * 4);
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = a.bytes;
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                     (addresses_ ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0);
        VkResult r = vkCreateBuffer(device_, &info, nullptr, &a.buffer);
        if (r != VK_SUCCESS) { fail("vkCreateBuffer", r); ok = false; break; }
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device_, a.buffer, &req);
        VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        alloc.allocationSize = req.size;
        alloc.memoryTypeIndex = MemoryType(req.memoryTypeBits);
        VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
        flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
        if (addresses_) alloc.pNext = &flags;
        r = vkAllocateMemory(device_, &alloc, nullptr, &a.memory);
        if (r != VK_SUCCESS) { fail("vkAllocateMemory", r); ok = false; break; }
        vkBindBufferMemory(device_, a.buffer, a.memory, 0);
        vkMapMemory(device_, a.memory, 0, VK_WHOLE_SIZE, 0, &a.mapped);
        std::memset(a.mapped, 0, a.bytes);
        std::memcpy(a.mapped, contents.data(), contents.size() * 4);
        allocations[b].push_back(a);
      }
      uint64_t addressValue = 0;
      if (addresses_ && !allocations[b].empty()) {
        VkBufferDeviceAddressInfo where{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
        where.buffer = allocations[b][0].buffer;
        addressValue = vkGetBufferDeviceAddress(device_, &where);
      }
      out.addresses.push_back(addressValue);
    }
    if (!ok) break;
    for (size_t b = 0; b < job.buffers.size(); ++b)
      for (const BufferSpec::Relocation& r : job.buffers[b].relocations) {
        if (allocations[b].empty() || r.target >= out.addresses.size() ||
            allocations[b][0].bytes < (r.word + 2) * 4ull)
          continue;
        const uint64_t address = out.addresses[r.target] + r.offset;
        std::memcpy(static_cast<uint32_t*>(allocations[b][0].mapped) + r.word, &address, 8);
      }
    // Images, texel buffers and samplers.
    if (!job.images.empty() && !images.Create(job.images, &out.error)) {
      out.result = VK_ERROR_UNKNOWN;
      break;
    }
    for (const ImageSpec& spec : job.images) {
      setBindings[spec.set].push_back(ImageResources::LayoutBinding(spec));
      setCount = std::max(setCount, spec.set + 1);
    }
    // Layouts and sets.
    std::vector<VkDescriptorPoolSize> sizes;
    for (auto& [set, bindings] : setBindings) {
      VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      info.bindingCount = static_cast<uint32_t>(bindings.size());
      info.pBindings = bindings.data();
      VkResult r = vkCreateDescriptorSetLayout(device_, &info, nullptr, &layouts[set]);
      if (r != VK_SUCCESS) { fail("vkCreateDescriptorSetLayout", r); ok = false; break; }
      for (auto& b : bindings) sizes.push_back({b.descriptorType, b.descriptorCount});
    }
    if (!ok) break;
    for (uint32_t set = 0; set < setCount; ++set) {
      if (layouts[set] != VK_NULL_HANDLE) continue;
      VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      vkCreateDescriptorSetLayout(device_, &info, nullptr, &layouts[set]);
    }
    std::vector<VkDescriptorSet> sets(setCount, VK_NULL_HANDLE);
    if (setCount > 0) {
      if (sizes.empty()) sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1});
      VkDescriptorPoolInlineUniformBlockCreateInfo inlineInfo{
          VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO};
      inlineInfo.maxInlineUniformBlockBindings = 8;
      VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, &inlineInfo};
      info.maxSets = setCount;
      info.poolSizeCount = static_cast<uint32_t>(sizes.size());
      info.pPoolSizes = sizes.data();
      VkResult r = vkCreateDescriptorPool(device_, &info, nullptr, &pool);
      if (r != VK_SUCCESS) { fail("vkCreateDescriptorPool", r); break; }
      VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      alloc.descriptorPool = pool;
      alloc.descriptorSetCount = setCount;
      alloc.pSetLayouts = layouts;
      r = vkAllocateDescriptorSets(device_, &alloc, sets.data());
      if (r != VK_SUCCESS) { fail("vkAllocateDescriptorSets", r); break; }
      images.WriteDescriptors(job.images, sets);
      for (size_t b = 0; b < job.buffers.size(); ++b) {
        const BufferSpec& spec = job.buffers[b];
        if (spec.type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
          VkWriteDescriptorSetInlineUniformBlock block{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK};
          block.dataSize = static_cast<uint32_t>(spec.contents[0].size() * 4);
          block.pData = spec.contents[0].data();
          VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &block};
          write.dstSet = sets[spec.set];
          write.dstBinding = spec.binding;
          write.descriptorCount = block.dataSize;
          write.descriptorType = spec.type;
          vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
          continue;
        }
        for (uint32_t e = 0; e < spec.count && spec.bound; ++e) {
          VkDescriptorBufferInfo bufferInfo{spec.null ? VK_NULL_HANDLE : allocations[b][e].buffer, 0, VK_WHOLE_SIZE};
          VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
          write.dstSet = sets[spec.set];
          write.dstBinding = spec.binding;
          write.dstArrayElement = e;
          write.descriptorCount = 1;
          write.descriptorType = spec.type;
          write.pBufferInfo = &bufferInfo;
          vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
        }
      }
    }
    // Pipeline.
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = setCount;
    layoutInfo.pSetLayouts = layouts;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    VkResult r = vkCreatePipelineLayout(device_, &layoutInfo, nullptr, &pipelineLayout);
    if (r != VK_SUCCESS) { fail("vkCreatePipelineLayout", r); break; }
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = job.spirv.size() * 4;
    moduleInfo.pCode = job.spirv.data();
    r = vkCreateShaderModule(device_, &moduleInfo, nullptr, &module);
    if (r != VK_SUCCESS) { fail("vkCreateShaderModule", r); break; }
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    required.requiredSubgroupSize = job.requiredSubgroupSize;
    VkComputePipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pipelineInfo.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    pipelineInfo.stage.pNext = job.requiredSubgroupSize != 0 ? &required : nullptr;
    pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipelineInfo.stage.module = module;
    pipelineInfo.stage.pName = "main";
    pipelineInfo.layout = pipelineLayout;
    r = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &pipeline);
    if (r != VK_SUCCESS) { fail("vkCreateComputePipelines", r); break; }
    // Record, submit, wait.
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = family_;
    vkCreateCommandPool(device_, &poolInfo, nullptr, &commandPool);
    VkCommandBufferAllocateInfo cbInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbInfo.commandPool = commandPool;
    cbInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbInfo.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    vkAllocateCommandBuffers(device_, &cbInfo, &cb);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cb, &begin);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    if (setCount > 0)
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout, 0, setCount, sets.data(), 0,
                              nullptr);
    std::vector<uint32_t> push(32, 0);
    std::copy(job.pushConstants.begin(), job.pushConstants.end(), push.begin());
    for (size_t b = 0; b < job.buffers.size(); ++b) {
      const int at = job.buffers[b].pushAddressWord;
      if (at < 0 || at + 1 >= 32) continue;
      push[at] = static_cast<uint32_t>(out.addresses[b]);
      push[at + 1] = static_cast<uint32_t>(out.addresses[b] >> 32);
    }
    vkCmdPushConstants(cb, pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 128, push.data());
    vkCmdDispatch(cb, job.groups[0], job.groups[1], job.groups[2]);
    vkEndCommandBuffer(cb);
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    vkCreateFence(device_, &fenceInfo, nullptr, &fence);
    for (size_t b = 0; b < job.buffers.size(); ++b) {
      if (!job.buffers[b].freeBeforeSubmit) continue;
      for (Allocation& a : allocations[b]) {
        vkDestroyBuffer(device_, a.buffer, nullptr);
        vkFreeMemory(device_, a.memory, nullptr);
        a = Allocation{};
      }
    }
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    r = vkQueueSubmit(queue_, 1, &submit, fence);
    if (r != VK_SUCCESS) { fail("vkQueueSubmit", r); break; }
    r = vkWaitForFences(device_, 1, &fence, VK_TRUE, 60ull * 1000000000ull);
    out.result = r;
    if (r == VK_ERROR_DEVICE_LOST && deviceFault_) {
      auto getFaultInfo =
          reinterpret_cast<PFN_vkGetDeviceFaultInfoEXT>(vkGetDeviceProcAddr(device_, "vkGetDeviceFaultInfoEXT"));
      VkDeviceFaultCountsEXT counts{VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
      if (getFaultInfo != nullptr && getFaultInfo(device_, &counts, nullptr) != VK_ERROR_DEVICE_LOST) {
        out.faultAddresses.resize(counts.addressInfoCount);
        std::vector<VkDeviceFaultVendorInfoEXT> vendor(counts.vendorInfoCount);
        counts.vendorBinarySize = 0;
        VkDeviceFaultInfoEXT info{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT};
        info.pAddressInfos = out.faultAddresses.data();
        info.pVendorInfos = vendor.data();
        getFaultInfo(device_, &counts, &info);
        out.faultDescription = info.description;
      }
    }
    if (r != VK_SUCCESS) break;
    if (!job.images.empty() && !images.ReadBack(job.images, &out.images, &out.error)) {
      out.result = VK_ERROR_UNKNOWN;
      break;
    }
    out.buffers.resize(job.buffers.size());
    for (size_t b = 0; b < job.buffers.size(); ++b)
      for (const Allocation& a : allocations[b]) {
        if (a.mapped == nullptr) {
          out.buffers[b].push_back(job.buffers[b].contents[0]);  // an inline uniform block: read-only
          continue;
        }
        const uint32_t* words = static_cast<const uint32_t*>(a.mapped);
        out.buffers[b].emplace_back(words, words + a.bytes / 4);
      }
  } while (false);
  if (out.result == VK_ERROR_DEVICE_LOST) vkDeviceWaitIdle(device_);
  if (fence != VK_NULL_HANDLE) vkDestroyFence(device_, fence, nullptr);
  if (commandPool != VK_NULL_HANDLE) vkDestroyCommandPool(device_, commandPool, nullptr);
  if (pipeline != VK_NULL_HANDLE) vkDestroyPipeline(device_, pipeline, nullptr);
  if (module != VK_NULL_HANDLE) vkDestroyShaderModule(device_, module, nullptr);
  if (pipelineLayout != VK_NULL_HANDLE) vkDestroyPipelineLayout(device_, pipelineLayout, nullptr);
  if (pool != VK_NULL_HANDLE) vkDestroyDescriptorPool(device_, pool, nullptr);
  for (VkDescriptorSetLayout l : layouts)
    if (l != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device_, l, nullptr);
  for (auto& list : allocations)
    for (Allocation& a : list) {
      if (a.buffer != VK_NULL_HANDLE) vkDestroyBuffer(device_, a.buffer, nullptr);
      if (a.memory != VK_NULL_HANDLE) vkFreeMemory(device_, a.memory, nullptr);
    }
  return out;
}

}  // namespace crashtest::test
