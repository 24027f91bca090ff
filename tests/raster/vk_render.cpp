#include "vk_render.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>

namespace crashtest::test {

namespace {

struct Failure {
  std::string what;
  VkResult result;
};

void Check(VkResult r, const char* call) {
  if (r != VK_SUCCESS) throw Failure{std::string(call) + " returned " + std::to_string(static_cast<int>(r)), r};
}

// Destroys what a render created, in reverse order, whatever happened.
class Cleanup {
 public:
  ~Cleanup() {
    for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) (*it)();
  }
  void Add(std::function<void()> step) { steps_.push_back(std::move(step)); }

 private:
  std::vector<std::function<void()>> steps_;
};

bool HasStencil(VkFormat f) { return f == VK_FORMAT_D24_UNORM_S8_UINT || f == VK_FORMAT_D32_SFLOAT_S8_UINT; }

}  // namespace

std::vector<uint32_t> RasterShader(const std::string& name) {
  const std::string path = std::string(CRASHTEST_RASTER_SHADER_DIR) + "/" + name + ".spv";
  std::vector<uint32_t> words;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    uint32_t w;
    while (std::fread(&w, 4, 1, f) == 1) words.push_back(w);
    std::fclose(f);
  }
  return words;
}

uint32_t FormatBytes(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM: case VK_FORMAT_R8G8B8A8_SRGB: case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_UINT: case VK_FORMAT_A2B10G10R10_UNORM_PACK32: case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_R32_UINT: case VK_FORMAT_D32_SFLOAT: case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_X8_D24_UNORM_PACK32: case VK_FORMAT_R16G16_SFLOAT:
      return 4;
    case VK_FORMAT_R16G16B16A16_SFLOAT: case VK_FORMAT_R32G32_SFLOAT: return 8;
    case VK_FORMAT_R32G32B32A32_SFLOAT: return 16;
    case VK_FORMAT_R5G6B5_UNORM_PACK16: case VK_FORMAT_D16_UNORM: case VK_FORMAT_R16_SFLOAT: return 2;
    case VK_FORMAT_R8_UNORM: return 1;
    default: return 0;
  }
}

std::unique_ptr<RenderDevice> RenderDevice::Open(VkInstance instance, const std::string& nameFragment, int crashtest,
                                                 std::string* error, bool faults) {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  for (VkPhysicalDevice physical : devices) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(physical, &properties);
    std::string name = properties.deviceName;
    if (name.find(nameFragment) == std::string::npos) continue;
    uint32_t extensionCount = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &extensionCount, nullptr);
    std::vector<VkExtensionProperties> extensions(extensionCount);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &extensionCount, extensions.data());
    bool isCrashtest = false, hasFault = false;
    for (const VkExtensionProperties& e : extensions) {
      if (std::strcmp(e.extensionName, "VK_KHR_device_fault") == 0) isCrashtest = true;
      if (std::strcmp(e.extensionName, VK_EXT_DEVICE_FAULT_EXTENSION_NAME) == 0) hasFault = true;
    }
    if (crashtest >= 0 && isCrashtest != (crashtest == 1)) continue;
    auto d = std::unique_ptr<RenderDevice>(new RenderDevice());
    d->physical_ = physical;
    d->name_ = name;
    vkGetPhysicalDeviceMemoryProperties(physical, &d->memory_);
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
    std::vector<VkQueueFamilyProperties> props(families);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, props.data());
    d->family_ = UINT32_MAX;
    for (uint32_t i = 0; i < families && d->family_ == UINT32_MAX; ++i)
      if (props[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) d->family_ = i;
    if (d->family_ == UINT32_MAX) {
      *error = name + ": no graphics queue";
      return nullptr;
    }
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = d->family_;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    // Multiview where the device offers it (the multiview scene needs it).
    VkPhysicalDeviceVulkan11Features offered11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceFeatures2 offered{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &offered11};
    vkGetPhysicalDeviceFeatures2(physical, &offered);
    VkPhysicalDeviceVulkan11Features features11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    features11.multiview = offered11.multiview;
    VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &features11};
    features13.dynamicRendering = VK_TRUE;
    VkPhysicalDeviceFaultFeaturesEXT fault{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT};
    fault.deviceFault = VK_TRUE;
    const char* faultExtension = VK_EXT_DEVICE_FAULT_EXTENSION_NAME;
    d->deviceFault_ = faults && hasFault;
    if (d->deviceFault_) features13.pNext = &fault;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features13};
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    // Large points and wide lines where offered (the point and line scenes use them).
    VkPhysicalDeviceFeatures enabled{};
    enabled.largePoints = offered.features.largePoints;
    enabled.wideLines = offered.features.wideLines;
    enabled.fragmentStoresAndAtomics = offered.features.fragmentStoresAndAtomics;
    enabled.pipelineStatisticsQuery = offered.features.pipelineStatisticsQuery;
    enabled.shaderClipDistance = offered.features.shaderClipDistance;
    enabled.fillModeNonSolid = offered.features.fillModeNonSolid;
    enabled.shaderCullDistance = offered.features.shaderCullDistance;
    // Per-fragment and rasterisation state the state scenes use (tests/raster/render_state_test.cpp).
    enabled.logicOp = offered.features.logicOp;
    enabled.dualSrcBlend = offered.features.dualSrcBlend;
    enabled.independentBlend = offered.features.independentBlend;
    enabled.depthClamp = offered.features.depthClamp;
    enabled.depthBounds = offered.features.depthBounds;
    enabled.depthBiasClamp = offered.features.depthBiasClamp;
    enabled.sampleRateShading = offered.features.sampleRateShading;
    enabled.multiViewport = offered.features.multiViewport;
    info.pEnabledFeatures = &enabled;
    d->features_ = enabled;
    info.enabledExtensionCount = d->deviceFault_ ? 1 : 0;
    info.ppEnabledExtensionNames = &faultExtension;
    VkResult r = vkCreateDevice(physical, &info, nullptr, &d->device_);
    if (r != VK_SUCCESS) {
      *error = name + ": vkCreateDevice returned " + std::to_string(static_cast<int>(r));
      return nullptr;
    }
    vkGetDeviceQueue(d->device_, d->family_, 0, &d->queue_);
    return d;
  }
  *error = "no physical device named like \"" + nameFragment + "\" (is its driver in VK_ICD_FILENAMES?)";
  return nullptr;
}

RenderDevice::~RenderDevice() {
  if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
}

void RenderDevice::ReadFault(RenderResult* out) const {
  auto getFaultInfo =
      reinterpret_cast<PFN_vkGetDeviceFaultInfoEXT>(vkGetDeviceProcAddr(device_, "vkGetDeviceFaultInfoEXT"));
  VkDeviceFaultCountsEXT counts{VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
  if (getFaultInfo == nullptr || getFaultInfo(device_, &counts, nullptr) == VK_ERROR_DEVICE_LOST) return;
  out->faultAddresses.resize(counts.addressInfoCount);
  std::vector<VkDeviceFaultVendorInfoEXT> vendor(counts.vendorInfoCount);
  counts.vendorBinarySize = 0;
  VkDeviceFaultInfoEXT info{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT};
  info.pAddressInfos = out->faultAddresses.data();
  info.pVendorInfos = vendor.data();
  getFaultInfo(device_, &counts, &info);
  out->faultDescription = info.description;
}

uint32_t RenderDevice::MemoryType(uint32_t bits, VkMemoryPropertyFlags want) const {
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & want) == want) return i;
  return UINT32_MAX;
}

RenderResult RenderDevice::Render(const RenderJob& job) {
  RenderResult out;
  Cleanup cleanup;
  VkDevice dev = device_;
  try {
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    auto bindMemory = [&](VkMemoryRequirements req, VkMemoryPropertyFlags want) {
      VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      alloc.allocationSize = req.size;
      alloc.memoryTypeIndex = MemoryType(req.memoryTypeBits, want);
      if (alloc.memoryTypeIndex == UINT32_MAX) alloc.memoryTypeIndex = MemoryType(req.memoryTypeBits, 0);
      VkDeviceMemory memory;
      Check(vkAllocateMemory(dev, &alloc, nullptr, &memory), "vkAllocateMemory");
      cleanup.Add([=] { vkFreeMemory(dev, memory, nullptr); });
      return memory;
    };
    // A host-visible buffer with `bytes` (copied from data when given); returns the buffer and its mapping.
    auto makeBuffer = [&](VkDeviceSize bytes, VkBufferUsageFlags usage, const void* data, void** mapped) {
      VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
      info.size = std::max<VkDeviceSize>(bytes, 4);
      info.usage = usage;
      VkBuffer buffer;
      Check(vkCreateBuffer(dev, &info, nullptr, &buffer), "vkCreateBuffer");
      cleanup.Add([=] { vkDestroyBuffer(dev, buffer, nullptr); });
      VkMemoryRequirements req;
      vkGetBufferMemoryRequirements(dev, buffer, &req);
      VkDeviceMemory memory = bindMemory(req, host);
      Check(vkBindBufferMemory(dev, buffer, memory, 0), "vkBindBufferMemory");
      void* map;
      Check(vkMapMemory(dev, memory, 0, VK_WHOLE_SIZE, 0, &map), "vkMapMemory");
      if (data != nullptr) std::memcpy(map, data, bytes);
      if (mapped != nullptr) *mapped = map;
      return buffer;
    };
    // Multiview renders view i into layer i of every attachment: as many layers as the view mask's highest view.
    const uint32_t layers = job.viewMask == 0 ? 1 : 32 - static_cast<uint32_t>(__builtin_clz(job.viewMask));
    auto makeImage = [&](VkFormat format, uint32_t w, uint32_t h, uint32_t levels, VkImageUsageFlags usage,
                         VkImageAspectFlags aspect, VkImageView* view, uint32_t imageLayers = 1,
                         VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
      VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
      info.imageType = VK_IMAGE_TYPE_2D;
      info.format = format;
      info.extent = {w, h, 1};
      info.mipLevels = levels;
      info.arrayLayers = imageLayers;
      info.samples = samples;
      info.tiling = VK_IMAGE_TILING_OPTIMAL;
      info.usage = usage;
      VkImage image;
      Check(vkCreateImage(dev, &info, nullptr, &image), "vkCreateImage");
      cleanup.Add([=] { vkDestroyImage(dev, image, nullptr); });
      VkMemoryRequirements req;
      vkGetImageMemoryRequirements(dev, image, &req);
      Check(vkBindImageMemory(dev, image, bindMemory(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT), 0),
            "vkBindImageMemory");
      VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
      viewInfo.image = image;
      viewInfo.viewType = imageLayers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
      viewInfo.format = format;
      viewInfo.subresourceRange = {aspect, 0, levels, 0, imageLayers};
      Check(vkCreateImageView(dev, &viewInfo, nullptr, view), "vkCreateImageView");
      VkImageView created = *view;
      cleanup.Add([=] { vkDestroyImageView(dev, created, nullptr); });
      return image;
    };

    // Attachments.
    VkImageView colorView, depthView = VK_NULL_HANDLE, msaaView = VK_NULL_HANDLE;
    VkImage color = makeImage(job.colorFormat, job.width, job.height, 1,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                              VK_IMAGE_ASPECT_COLOR_BIT, &colorView, layers);
    const bool msaa = job.samples != VK_SAMPLE_COUNT_1_BIT;
    VkImage msaaColor = msaa ? makeImage(job.colorFormat, job.width, job.height, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                                         VK_IMAGE_ASPECT_COLOR_BIT, &msaaView, layers, job.samples)
                             : VK_NULL_HANDLE;
    VkImage depth = VK_NULL_HANDLE;
    const bool hasDepth = job.depthFormat != VK_FORMAT_UNDEFINED;
    const bool readDepth = hasDepth && !msaa;
    const VkImageAspectFlags depthAspects =
        hasDepth ? (VK_IMAGE_ASPECT_DEPTH_BIT | (HasStencil(job.depthFormat) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0)) : 0;
    if (hasDepth)
      depth = makeImage(job.depthFormat, job.width, job.height, 1,
                        VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | (msaa ? 0 : VK_IMAGE_USAGE_TRANSFER_SRC_BIT),
                        depthAspects, &depthView, layers, job.samples);
    const bool second = job.secondColorFormat != VK_FORMAT_UNDEFINED;
    VkImageView secondView = VK_NULL_HANDLE;
    VkImage secondColor = second ? makeImage(job.secondColorFormat, job.width, job.height, 1,
                                             VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                             VK_IMAGE_ASPECT_COLOR_BIT, &secondView, layers)
                                 : VK_NULL_HANDLE;
    const uint32_t secondBytes = second ? FormatBytes(job.secondColorFormat) * job.width * job.height * layers : 0;
    void* secondMapped = nullptr;
    VkBuffer secondReadback =
        second ? makeBuffer(secondBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, nullptr, &secondMapped) : VK_NULL_HANDLE;
    const uint32_t colorBytes = FormatBytes(job.colorFormat) * job.width * job.height * layers;
    void* colorMapped;
    VkBuffer colorReadback = makeBuffer(colorBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, nullptr, &colorMapped);
    const uint32_t depthBytes = (job.depthFormat == VK_FORMAT_D16_UNORM ? 2 : 4) * job.width * job.height * layers;
    void* depthMapped = nullptr;
    VkBuffer depthReadback =
        readDepth ? makeBuffer(depthBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, nullptr, &depthMapped) : VK_NULL_HANDLE;

    // Vertex and index buffers.
    std::vector<VkBuffer> vertexBuffers;
    for (const VertexStream& s : job.streams)
      vertexBuffers.push_back(makeBuffer(s.data.size() * 4, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, s.data.data(), nullptr));
    VkBuffer indexBuffer = VK_NULL_HANDLE;
    if (!job.indices.empty()) {
      std::vector<uint8_t> bytes;
      if (job.indexType == VK_INDEX_TYPE_UINT16) {
        for (uint32_t i : job.indices) {
          const uint16_t v = static_cast<uint16_t>(i);
          bytes.insert(bytes.end(), reinterpret_cast<const uint8_t*>(&v), reinterpret_cast<const uint8_t*>(&v) + 2);
        }
      } else {
        bytes.resize(job.indices.size() * 4);
        std::memcpy(bytes.data(), job.indices.data(), bytes.size());
      }
      indexBuffer = makeBuffer(bytes.size(), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, bytes.data(), nullptr);
    }

    // Command buffer.
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = family_;
    VkCommandPool pool;
    Check(vkCreateCommandPool(dev, &poolInfo, nullptr, &pool), "vkCreateCommandPool");
    cleanup.Add([=] { vkDestroyCommandPool(dev, pool, nullptr); });
    VkCommandBufferAllocateInfo cbInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbInfo.commandPool = pool;
    cbInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbInfo.commandBufferCount = 1;
    VkCommandBuffer cb;
    Check(vkAllocateCommandBuffers(dev, &cbInfo, &cb), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    Check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
    auto barrier = [&](VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                       uint32_t levels, uint32_t barrierLayers = 1) {
      VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
      b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
      b.oldLayout = from;
      b.newLayout = to;
      b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.image = image;
      b.subresourceRange = {aspect, 0, levels, 0, barrierLayers};
      vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr,
                           0, nullptr, 1, &b);
    };

    // Texture (uploaded in this command buffer, before rendering) and storage buffer, in one descriptor set.
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;
    std::vector<VkDescriptorSetLayoutBinding> setBindings;
    std::vector<VkDescriptorPoolSize> poolSizes;
    VkDescriptorImageInfo imageInfo{};
    if (!job.textures.empty()) {
      const Texture& t = job.textures[0];
      VkImageView textureView;
      VkImage texture = makeImage(VK_FORMAT_R8G8B8A8_UNORM, t.width, t.height, t.levels,
                                  VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                  VK_IMAGE_ASPECT_COLOR_BIT, &textureView);
      VkBuffer staging = makeBuffer(t.texels.size() * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, t.texels.data(), nullptr);
      barrier(texture, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
              t.levels);
      VkDeviceSize offset = 0;
      for (uint32_t level = 0; level < t.levels; ++level) {
        const uint32_t w = std::max(1u, t.width >> level), h = std::max(1u, t.height >> level);
        VkBufferImageCopy copy{};
        copy.bufferOffset = offset;
        copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
        copy.imageExtent = {w, h, 1};
        vkCmdCopyBufferToImage(cb, staging, texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
        offset += VkDeviceSize{w} * h * 4;
      }
      barrier(texture, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, t.levels);
      VkSampler sampler;
      Check(vkCreateSampler(dev, &t.sampler, nullptr, &sampler), "vkCreateSampler");
      cleanup.Add([=] { vkDestroySampler(dev, sampler, nullptr); });
      setBindings.push_back({0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
      poolSizes.push_back({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1});
      imageInfo = {sampler, textureView, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    }
    void* storageMapped = nullptr;
    VkDescriptorBufferInfo storageInfo{};
    if (!job.storage.empty()) {
      storageInfo.buffer = makeBuffer(job.storage.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, job.storage.data(),
                                      &storageMapped);
      storageInfo.range = job.storage.size() * 4;
      setBindings.push_back({1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
      poolSizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1});
    }
    if (!setBindings.empty()) {
      VkDescriptorSetLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      layoutInfo.bindingCount = static_cast<uint32_t>(setBindings.size());
      layoutInfo.pBindings = setBindings.data();
      Check(vkCreateDescriptorSetLayout(dev, &layoutInfo, nullptr, &setLayout), "vkCreateDescriptorSetLayout");
      cleanup.Add([=] { vkDestroyDescriptorSetLayout(dev, setLayout, nullptr); });
      VkDescriptorPoolCreateInfo dpInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      dpInfo.maxSets = 1;
      dpInfo.poolSizeCount = static_cast<uint32_t>(poolSizes.size());
      dpInfo.pPoolSizes = poolSizes.data();
      VkDescriptorPool descriptorPool;
      Check(vkCreateDescriptorPool(dev, &dpInfo, nullptr, &descriptorPool), "vkCreateDescriptorPool");
      cleanup.Add([=] { vkDestroyDescriptorPool(dev, descriptorPool, nullptr); });
      VkDescriptorSetAllocateInfo allocInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      allocInfo.descriptorPool = descriptorPool;
      allocInfo.descriptorSetCount = 1;
      allocInfo.pSetLayouts = &setLayout;
      Check(vkAllocateDescriptorSets(dev, &allocInfo, &set), "vkAllocateDescriptorSets");
      std::vector<VkWriteDescriptorSet> writes;
      for (const VkDescriptorSetLayoutBinding& b : setBindings) {
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = set;
        write.dstBinding = b.binding;
        write.descriptorCount = 1;
        write.descriptorType = b.descriptorType;
        write.pImageInfo = &imageInfo;
        write.pBufferInfo = &storageInfo;
        writes.push_back(write);
      }
      vkUpdateDescriptorSets(dev, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
    }

    // Pipeline.
    VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 64};
    VkPipelineLayoutCreateInfo plInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plInfo.setLayoutCount = setLayout != VK_NULL_HANDLE ? 1 : 0;
    plInfo.pSetLayouts = &setLayout;
    plInfo.pushConstantRangeCount = 1;
    plInfo.pPushConstantRanges = &push;
    VkPipelineLayout layout;
    Check(vkCreatePipelineLayout(dev, &plInfo, nullptr, &layout), "vkCreatePipelineLayout");
    cleanup.Add([=] { vkDestroyPipelineLayout(dev, layout, nullptr); });
    auto module = [&](const std::vector<uint32_t>& code) {
      VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
      info.codeSize = code.size() * 4;
      info.pCode = code.data();
      VkShaderModule m;
      Check(vkCreateShaderModule(dev, &info, nullptr, &m), "vkCreateShaderModule");
      cleanup.Add([=] { vkDestroyShaderModule(dev, m, nullptr); });
      return m;
    };
    VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                 {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = module(job.vertexSpirv);
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = module(job.fragmentSpirv);
    stages[1].pName = "main";
    std::vector<VkVertexInputBindingDescription> bindings;
    for (uint32_t i = 0; i < job.streams.size(); ++i) bindings.push_back({i, job.streams[i].stride, job.streams[i].rate});
    std::vector<VkVertexInputAttributeDescription> attributes;
    for (const VertexAttribute& a : job.attributes) attributes.push_back({a.location, a.binding, a.format, a.offset});
    VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vertexInput.vertexBindingDescriptionCount = static_cast<uint32_t>(bindings.size());
    vertexInput.pVertexBindingDescriptions = bindings.data();
    vertexInput.vertexAttributeDescriptionCount = static_cast<uint32_t>(attributes.size());
    vertexInput.pVertexAttributeDescriptions = attributes.data();
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = job.topology;
    assembly.primitiveRestartEnable = job.primitiveRestart;
    VkViewport viewport = job.viewport;
    if (viewport.width == 0) viewport = {0, 0, static_cast<float>(job.width), static_cast<float>(job.height), 0, 1};
    VkRect2D scissor = job.scissor;
    if (scissor.extent.width == 0) scissor = {{0, 0}, {job.width, job.height}};
    std::vector<VkViewport> viewports = {viewport};
    viewports.insert(viewports.end(), job.moreViewports.begin(), job.moreViewports.end());
    std::vector<VkRect2D> scissors = {scissor};
    scissors.insert(scissors.end(), job.moreScissors.begin(), job.moreScissors.end());
    VkPipelineViewportStateCreateInfo viewportState{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewportState.viewportCount = static_cast<uint32_t>(viewports.size());
    viewportState.pViewports = viewports.data();
    viewportState.scissorCount = static_cast<uint32_t>(scissors.size());
    viewportState.pScissors = scissors.data();
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = job.polygonMode;
    raster.cullMode = job.cullMode;
    raster.frontFace = job.frontFace;
    raster.lineWidth = job.lineWidth;
    raster.depthBiasEnable = job.depthBias;
    raster.depthBiasConstantFactor = job.depthBiasConstant;
    raster.depthBiasSlopeFactor = job.depthBiasSlope;
    raster.depthBiasClamp = job.depthBiasClamp;
    raster.depthClampEnable = job.depthClamp;
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = job.samples;
    multisample.pSampleMask = &job.sampleMask;
    multisample.alphaToCoverageEnable = job.alphaToCoverage;
    multisample.sampleShadingEnable = job.sampleShading;
    multisample.minSampleShading = job.minSampleShading;
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    const VkPipelineColorBlendAttachmentState blendAttachments[2] = {job.blend, job.secondBlend};
    const VkFormat colorFormats[2] = {job.colorFormat, job.secondColorFormat};
    blend.attachmentCount = second ? 2 : 1;
    blend.pAttachments = blendAttachments;
    blend.logicOpEnable = job.logicOpEnable;
    blend.logicOp = job.logicOp;
    std::copy(job.blendConstants, job.blendConstants + 4, blend.blendConstants);
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = second ? 2 : 1;
    rendering.viewMask = job.viewMask;
    rendering.pColorAttachmentFormats = colorFormats;
    rendering.depthAttachmentFormat = hasDepth ? job.depthFormat : VK_FORMAT_UNDEFINED;
    rendering.stencilAttachmentFormat = hasDepth && HasStencil(job.depthFormat) ? job.depthFormat : VK_FORMAT_UNDEFINED;
    VkGraphicsPipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    pipelineInfo.stageCount = 2;
    pipelineInfo.pStages = stages;
    pipelineInfo.pVertexInputState = &vertexInput;
    pipelineInfo.pInputAssemblyState = &assembly;
    pipelineInfo.pViewportState = &viewportState;
    pipelineInfo.pRasterizationState = &raster;
    pipelineInfo.pMultisampleState = &multisample;
    pipelineInfo.pDepthStencilState = hasDepth ? &job.depthStencil : nullptr;
    pipelineInfo.pColorBlendState = &blend;
    pipelineInfo.layout = layout;
    VkPipeline pipeline;
    Check(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &pipeline),
          "vkCreateGraphicsPipelines");
    cleanup.Add([=] { vkDestroyPipeline(dev, pipeline, nullptr); });

    VkQueryPool statisticsPool = VK_NULL_HANDLE;
    if (job.statistics != 0) {
      VkQueryPoolCreateInfo qInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      qInfo.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
      qInfo.queryCount = 1;
      qInfo.pipelineStatistics = job.statistics;
      Check(vkCreateQueryPool(dev, &qInfo, nullptr, &statisticsPool), "vkCreateQueryPool");
      cleanup.Add([=] { vkDestroyQueryPool(dev, statisticsPool, nullptr); });
      vkCmdResetQueryPool(cb, statisticsPool, 0, 1);
    }
    VkQueryPool queryPool = VK_NULL_HANDLE;
    if (job.occlusionQuery) {
      VkQueryPoolCreateInfo qInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      qInfo.queryType = VK_QUERY_TYPE_OCCLUSION;
      qInfo.queryCount = 1;
      Check(vkCreateQueryPool(dev, &qInfo, nullptr, &queryPool), "vkCreateQueryPool");
      cleanup.Add([=] { vkDestroyQueryPool(dev, queryPool, nullptr); });
      vkCmdResetQueryPool(cb, queryPool, 0, 1);
    }

    // Render.
    barrier(color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 1, layers);
    if (msaa)
      barrier(msaaColor, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
              1, layers);
    if (hasDepth)
      barrier(depth, depthAspects, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, 1, layers);
    if (second)
      barrier(secondColor, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 1, layers);
    VkRenderingAttachmentInfo colorAttachments[2] = {{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO},
                                                     {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO}};
    VkRenderingAttachmentInfo& colorAttachment = colorAttachments[0];
    colorAttachment.imageView = colorView;
    colorAttachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    colorAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    colorAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    colorAttachment.clearValue.color = job.clearColor;
    if (msaa) {
      // Rendered into the multisampled image, averaged into the one read back at the end of rendering.
      colorAttachment.imageView = msaaView;
      colorAttachment.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
      colorAttachment.resolveImageView = colorView;
      colorAttachment.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    colorAttachments[1].imageView = secondView;
    colorAttachments[1].imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    colorAttachments[1].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    colorAttachments[1].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    colorAttachments[1].clearValue.color = job.secondClearColor;
    VkRenderingAttachmentInfo depthAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depthAttachment.imageView = depthView;
    depthAttachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    depthAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depthAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depthAttachment.clearValue.depthStencil = {job.clearDepth, job.clearStencil};
    VkRenderingInfo renderingInfo{VK_STRUCTURE_TYPE_RENDERING_INFO};
    renderingInfo.renderArea = {{0, 0}, {job.width, job.height}};
    renderingInfo.layerCount = 1;
    renderingInfo.viewMask = job.viewMask;
    renderingInfo.colorAttachmentCount = second ? 2 : 1;
    renderingInfo.pColorAttachments = colorAttachments;
    renderingInfo.pDepthAttachment = hasDepth ? &depthAttachment : nullptr;
    renderingInfo.pStencilAttachment = hasDepth && HasStencil(job.depthFormat) ? &depthAttachment : nullptr;
    vkCmdBeginRendering(cb, &renderingInfo);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    if (set != VK_NULL_HANDLE)
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
    std::vector<VkDeviceSize> offsets(vertexBuffers.size(), 0);
    if (!vertexBuffers.empty())
      vkCmdBindVertexBuffers(cb, 0, static_cast<uint32_t>(vertexBuffers.size()), vertexBuffers.data(), offsets.data());
    if (indexBuffer != VK_NULL_HANDLE) vkCmdBindIndexBuffer(cb, indexBuffer, 0, job.indexType);
    if (queryPool != VK_NULL_HANDLE) vkCmdBeginQuery(cb, queryPool, 0, 0);
    if (statisticsPool != VK_NULL_HANDLE) vkCmdBeginQuery(cb, statisticsPool, 0, 0);
    for (const DrawCommand& d : job.draws) {
      if (!d.pushConstants.empty())
        vkCmdPushConstants(cb, layout, push.stageFlags, 0, static_cast<uint32_t>(d.pushConstants.size() * 4),
                           d.pushConstants.data());
      if (d.indexed)
        vkCmdDrawIndexed(cb, d.count, d.instances, d.first, d.vertexOffset, d.firstInstance);
      else
        vkCmdDraw(cb, d.count, d.instances, d.first, d.firstInstance);
    }
    if (queryPool != VK_NULL_HANDLE) vkCmdEndQuery(cb, queryPool, 0);
    if (statisticsPool != VK_NULL_HANDLE) vkCmdEndQuery(cb, statisticsPool, 0);
    vkCmdEndRendering(cb);

    // Read back.
    barrier(color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 1, layers);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, layers};
    copy.imageExtent = {job.width, job.height, 1};
    vkCmdCopyImageToBuffer(cb, color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, colorReadback, 1, &copy);
    if (second) {
      barrier(secondColor, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 1, layers);
      vkCmdCopyImageToBuffer(cb, secondColor, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, secondReadback, 1, &copy);
    }
    if (readDepth) {
      barrier(depth, depthAspects, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 1, layers);
      copy.imageSubresource.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
      vkCmdCopyImageToBuffer(cb, depth, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, depthReadback, 1, &copy);
    }
    Check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    Check(vkCreateFence(dev, &fenceInfo, nullptr, &fence), "vkCreateFence");
    cleanup.Add([=] { vkDestroyFence(dev, fence, nullptr); });
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    Check(vkQueueSubmit(queue_, 1, &submit, fence), "vkQueueSubmit");
    const VkResult waited = vkWaitForFences(dev, 1, &fence, VK_TRUE, 60'000'000'000ull);
    if (waited == VK_ERROR_DEVICE_LOST && deviceFault_) ReadFault(&out);
    Check(waited, "vkWaitForFences");
    if (storageMapped != nullptr)
      out.storage.assign(static_cast<uint32_t*>(storageMapped), static_cast<uint32_t*>(storageMapped) + job.storage.size());
    out.color.assign(static_cast<uint8_t*>(colorMapped), static_cast<uint8_t*>(colorMapped) + colorBytes);
    if (second)
      out.secondColor.assign(static_cast<uint8_t*>(secondMapped), static_cast<uint8_t*>(secondMapped) + secondBytes);
    if (readDepth)
      out.depth.assign(static_cast<uint8_t*>(depthMapped), static_cast<uint8_t*>(depthMapped) + depthBytes);
    if (statisticsPool != VK_NULL_HANDLE) {
      out.statistics.resize(static_cast<size_t>(__builtin_popcount(job.statistics)));
      Check(vkGetQueryPoolResults(dev, statisticsPool, 0, 1, out.statistics.size() * sizeof(uint64_t),
                                  out.statistics.data(), out.statistics.size() * sizeof(uint64_t),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            "vkGetQueryPoolResults");
    }
    if (queryPool != VK_NULL_HANDLE)
      Check(vkGetQueryPoolResults(dev, queryPool, 0, 1, sizeof(uint64_t), &out.samplesPassed, sizeof(uint64_t),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            "vkGetQueryPoolResults");
  } catch (const Failure& failure) {
    out.error = failure.what;
    out.result = failure.result;
    vkDeviceWaitIdle(dev);
  }
  return out;
}

}  // namespace crashtest::test
