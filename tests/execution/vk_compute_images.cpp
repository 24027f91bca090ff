#include "vk_compute_images.h"

#include <algorithm>
#include <cstring>

namespace crashtest::test {

namespace {

bool IsTexelBuffer(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}
bool HasSampler(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER || type == VK_DESCRIPTOR_TYPE_SAMPLER;
}
bool IsDepth(VkFormat format) { return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM; }

VkImageType ImageTypeOf(VkImageViewType view) {
  switch (view) {
    case VK_IMAGE_VIEW_TYPE_1D: case VK_IMAGE_VIEW_TYPE_1D_ARRAY: return VK_IMAGE_TYPE_1D;
    case VK_IMAGE_VIEW_TYPE_3D: return VK_IMAGE_TYPE_3D;
    default: return VK_IMAGE_TYPE_2D;
  }
}


std::string Failed(const char* call, VkResult result) {
  return std::string(call) + " returned " + std::to_string(static_cast<int>(result));
}

}  // namespace

VkExtent3D LevelExtent(const ImageSpec& spec, uint32_t level) {
  return {std::max(1u, spec.extent.width >> level), std::max(1u, spec.extent.height >> level),
          std::max(1u, spec.extent.depth >> level)};
}

uint32_t TexelBytes(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM: case VK_FORMAT_R8G8B8A8_SRGB: case VK_FORMAT_R8G8B8A8_SNORM:
    case VK_FORMAT_R8G8B8A8_UINT: case VK_FORMAT_B8G8R8A8_UNORM: case VK_FORMAT_R32_SFLOAT: case VK_FORMAT_R32_UINT:
    case VK_FORMAT_R32_SINT: case VK_FORMAT_R16G16_SFLOAT: case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32: case VK_FORMAT_D32_SFLOAT:
      return 4;
    case VK_FORMAT_R8_UNORM: case VK_FORMAT_R8_UINT: return 1;
    case VK_FORMAT_R16_SFLOAT: case VK_FORMAT_R16_UNORM: case VK_FORMAT_D16_UNORM: case VK_FORMAT_R8G8_UNORM: return 2;
    case VK_FORMAT_R16G16B16A16_SFLOAT: case VK_FORMAT_R16G16B16A16_UNORM: case VK_FORMAT_R32G32_SFLOAT:
    case VK_FORMAT_R32G32_UINT: case VK_FORMAT_R64_UINT: case VK_FORMAT_R64_SINT:
      return 8;
    case VK_FORMAT_R32G32B32A32_SFLOAT: case VK_FORMAT_R32G32B32A32_UINT: case VK_FORMAT_R32G32B32A32_SINT: return 16;
    default: return CompressedBlockBytes(format);
  }
}

uint32_t CompressedBlockBytes(VkFormat format) {
  switch (format) {
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK: case VK_FORMAT_BC1_RGB_SRGB_BLOCK: case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: case VK_FORMAT_BC4_UNORM_BLOCK: case VK_FORMAT_BC4_SNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK: case VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK: case VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK:
    case VK_FORMAT_EAC_R11_UNORM_BLOCK: case VK_FORMAT_EAC_R11_SNORM_BLOCK:
      return 8;
    case VK_FORMAT_BC2_UNORM_BLOCK: case VK_FORMAT_BC2_SRGB_BLOCK: case VK_FORMAT_BC3_UNORM_BLOCK:
    case VK_FORMAT_BC3_SRGB_BLOCK: case VK_FORMAT_BC5_UNORM_BLOCK: case VK_FORMAT_BC5_SNORM_BLOCK:
    case VK_FORMAT_BC6H_UFLOAT_BLOCK: case VK_FORMAT_BC6H_SFLOAT_BLOCK: case VK_FORMAT_BC7_UNORM_BLOCK:
    case VK_FORMAT_BC7_SRGB_BLOCK: case VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK: case VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK:
    case VK_FORMAT_EAC_R11G11_UNORM_BLOCK: case VK_FORMAT_EAC_R11G11_SNORM_BLOCK:
      return 16;
    default:
      return format >= VK_FORMAT_ASTC_4x4_UNORM_BLOCK && format <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK ? 16 : 0;
  }
}

VkExtent2D CompressedBlockExtent(VkFormat format) {
  if (format >= VK_FORMAT_ASTC_4x4_UNORM_BLOCK && format <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK) {
    static constexpr VkExtent2D kAstc[14] = {{4, 4}, {5, 4}, {5, 5}, {6, 5}, {6, 6}, {8, 5}, {8, 6},
                                             {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}};
    return kAstc[(format - VK_FORMAT_ASTC_4x4_UNORM_BLOCK) / 2];
  }
  return CompressedBlockBytes(format) != 0 ? VkExtent2D{4, 4} : VkExtent2D{0, 0};
}

size_t LevelBytes(const ImageSpec& spec, uint32_t level) {
  const VkExtent3D e = LevelExtent(spec, level);
  if (const uint32_t block = CompressedBlockBytes(spec.format); block != 0) {
    const VkExtent2D b = CompressedBlockExtent(spec.format);
    return size_t{(e.width + b.width - 1) / b.width} * ((e.height + b.height - 1) / b.height) * e.depth *
           spec.layers * block;
  }
  return size_t{e.width} * e.height * e.depth * spec.layers * TexelBytes(spec.format);
}

size_t ImageWords(const ImageSpec& spec) {
  if (spec.type == VK_DESCRIPTOR_TYPE_SAMPLER) return 0;
  size_t bytes = 0;
  const uint32_t levels = IsTexelBuffer(spec.type) ? 1 : spec.levels;
  for (uint32_t level = 0; level < levels; ++level) bytes += LevelBytes(spec, level);
  return (bytes + 3) / 4;
}

ImageResources::~ImageResources() {
  for (Resource& r : resources_) {
    if (r.sampler != VK_NULL_HANDLE) vkDestroySampler(device_, r.sampler, nullptr);
    if (r.view != VK_NULL_HANDLE) vkDestroyImageView(device_, r.view, nullptr);
    if (r.image != VK_NULL_HANDLE) vkDestroyImage(device_, r.image, nullptr);
    if (r.bufferView != VK_NULL_HANDLE) vkDestroyBufferView(device_, r.bufferView, nullptr);
    if (r.buffer != VK_NULL_HANDLE) vkDestroyBuffer(device_, r.buffer, nullptr);
    if (r.memory != VK_NULL_HANDLE) vkFreeMemory(device_, r.memory, nullptr);
  }
}

uint32_t ImageResources::MemoryType(uint32_t bits, bool hostVisible) const {
  const VkMemoryPropertyFlags want =
      hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT : 0;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & want) == want) return i;
  return UINT32_MAX;
}

bool ImageResources::CreateBuffer(VkDeviceSize bytes, VkBufferUsageFlags usage, Staging* out, std::string* error) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = std::max<VkDeviceSize>(bytes, 16);
  info.usage = usage;
  VkResult r = vkCreateBuffer(device_, &info, nullptr, &out->buffer);
  if (r != VK_SUCCESS) return *error = Failed("vkCreateBuffer", r), false;
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, out->buffer, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = MemoryType(req.memoryTypeBits, true);
  r = vkAllocateMemory(device_, &alloc, nullptr, &out->memory);
  if (r != VK_SUCCESS) return *error = Failed("vkAllocateMemory", r), false;
  vkBindBufferMemory(device_, out->buffer, out->memory, 0);
  vkMapMemory(device_, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped);
  std::memset(out->mapped, 0, info.size);
  return true;
}

void ImageResources::Destroy(Staging& staging) {
  if (staging.buffer != VK_NULL_HANDLE) vkDestroyBuffer(device_, staging.buffer, nullptr);
  if (staging.memory != VK_NULL_HANDLE) vkFreeMemory(device_, staging.memory, nullptr);
  staging = Staging{};
}

bool ImageResources::Submit(const std::function<void(VkCommandBuffer)>& record, std::string* error) {
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.queueFamilyIndex = family_;
  VkCommandPool pool = VK_NULL_HANDLE;
  vkCreateCommandPool(device_, &poolInfo, nullptr, &pool);
  VkCommandBufferAllocateInfo cbInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cbInfo.commandPool = pool;
  cbInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cbInfo.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  vkAllocateCommandBuffers(device_, &cbInfo, &cb);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cb, &begin);
  record(cb);
  vkEndCommandBuffer(cb);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  VkResult r = vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE);
  if (r == VK_SUCCESS) r = vkQueueWaitIdle(queue_);
  vkDestroyCommandPool(device_, pool, nullptr);
  if (r != VK_SUCCESS) return *error = Failed("image transfer submission", r), false;
  return true;
}

VkDescriptorSetLayoutBinding ImageResources::LayoutBinding(const ImageSpec& spec) {
  return {spec.binding, spec.type, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
}

bool ImageResources::Create(const std::vector<ImageSpec>& specs, std::string* error) {
  resources_.resize(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    const ImageSpec& spec = specs[i];
    Resource& res = resources_[i];
    if (HasSampler(spec.type)) {
      VkSamplerCreateInfo info = spec.sampler;
      info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
      VkResult r = vkCreateSampler(device_, &info, nullptr, &res.sampler);
      if (r != VK_SUCCESS) return *error = Failed("vkCreateSampler", r), false;
    }
    if (spec.type == VK_DESCRIPTOR_TYPE_SAMPLER) continue;
    const size_t words = ImageWords(spec);
    if (TexelBytes(spec.format) == 0) return *error = "the harness does not know the texel size of a format", false;
    if (IsTexelBuffer(spec.type)) {
      Staging buffer;
      const VkBufferUsageFlags usage = spec.type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                                           ? VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT
                                           : VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
      if (!CreateBuffer(words * 4, usage, &buffer, error)) return false;
      res.buffer = buffer.buffer, res.memory = buffer.memory, res.mapped = buffer.mapped;
      if (!spec.contents.empty())
        std::memcpy(res.mapped, spec.contents.data(), std::min(spec.contents.size(), words) * 4);
      VkBufferViewCreateInfo view{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
      view.buffer = res.buffer;
      view.format = spec.format;
      view.range = VK_WHOLE_SIZE;
      VkResult r = vkCreateBufferView(device_, &view, nullptr, &res.bufferView);
      if (r != VK_SUCCESS) return *error = Failed("vkCreateBufferView", r), false;
      continue;
    }
    const bool depth = IsDepth(spec.format);
    const bool cube = spec.viewType == VK_IMAGE_VIEW_TYPE_CUBE || spec.viewType == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    const bool slices = spec.sliceCount > 0;
    info.flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : slices ? VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT : 0;
    info.imageType = slices ? VK_IMAGE_TYPE_3D : ImageTypeOf(spec.viewType);
    info.format = spec.format;
    info.extent = spec.extent;
    info.mipLevels = spec.levels;
    info.arrayLayers = spec.layers;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                 (spec.type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ? VK_IMAGE_USAGE_STORAGE_BIT : 0);
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkResult r = vkCreateImage(device_, &info, nullptr, &res.image);
    if (r != VK_SUCCESS) return *error = Failed("vkCreateImage", r), false;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device_, res.image, &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = MemoryType(req.memoryTypeBits, false);
    r = vkAllocateMemory(device_, &alloc, nullptr, &res.memory);
    if (r != VK_SUCCESS) return *error = Failed("vkAllocateMemory (image)", r), false;
    vkBindImageMemory(device_, res.image, res.memory, 0);
    const VkImageAspectFlags aspect = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = res.image;
    view.viewType = spec.viewType;
    view.format = spec.format;
    view.components = spec.components;
    view.subresourceRange = {aspect, 0, spec.levels, slices ? spec.sliceBase : 0,
                             slices ? spec.sliceCount : spec.layers};
    r = vkCreateImageView(device_, &view, nullptr, &res.view);
    if (r != VK_SUCCESS) return *error = Failed("vkCreateImageView", r), false;
    // Upload every level through a staging buffer, then leave the image in GENERAL for the shader.
    Staging staging;
    if (!CreateBuffer(words * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &staging, error)) return false;
    if (!spec.contents.empty())
      std::memcpy(staging.mapped, spec.contents.data(), std::min(spec.contents.size(), words) * 4);
    const bool ok = Submit(
        [&](VkCommandBuffer cb) {
          VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
          barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
          barrier.image = res.image;
          barrier.subresourceRange = view.subresourceRange;
          barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
          barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
          barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
          vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                               0, nullptr, 1, &barrier);
          VkDeviceSize offset = 0;
          for (uint32_t level = 0; level < spec.levels; ++level) {
            const VkExtent3D e = LevelExtent(spec, level);
            VkBufferImageCopy copy{};
            copy.bufferOffset = offset;
            copy.imageSubresource = {aspect, level, 0, spec.layers};
            copy.imageExtent = e;
            vkCmdCopyBufferToImage(cb, staging.buffer, res.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
            offset += LevelBytes(spec, level);
          }
          barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
          barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
          barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
          barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
          vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0,
                               nullptr, 0, nullptr, 1, &barrier);
        },
        error);
    Destroy(staging);
    if (!ok) return false;
  }
  return true;
}

void ImageResources::WriteDescriptors(const std::vector<ImageSpec>& specs, const std::vector<VkDescriptorSet>& sets) {
  for (size_t i = 0; i < specs.size(); ++i) {
    const ImageSpec& spec = specs[i];
    const Resource& res = resources_[i];
    VkDescriptorImageInfo image{res.sampler, res.view, VK_IMAGE_LAYOUT_GENERAL};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = sets[spec.set];
    write.dstBinding = spec.binding;
    write.descriptorCount = 1;
    write.descriptorType = spec.type;
    if (IsTexelBuffer(spec.type))
      write.pTexelBufferView = &res.bufferView;
    else
      write.pImageInfo = &image;
    vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
  }
}

bool ImageResources::ReadBack(const std::vector<ImageSpec>& specs, std::vector<std::vector<uint32_t>>* out,
                              std::string* error) {
  out->assign(specs.size(), {});
  for (size_t i = 0; i < specs.size(); ++i) {
    const ImageSpec& spec = specs[i];
    const Resource& res = resources_[i];
    const size_t words = ImageWords(spec);
    if (spec.type == VK_DESCRIPTOR_TYPE_SAMPLER) continue;
    if (res.mapped != nullptr) {
      const uint32_t* data = static_cast<const uint32_t*>(res.mapped);
      (*out)[i].assign(data, data + words);
      continue;
    }
    Staging staging;
    if (!CreateBuffer(words * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &staging, error)) return false;
    const VkImageAspectFlags aspect = IsDepth(spec.format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    const bool ok = Submit(
        [&](VkCommandBuffer cb) {
          VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
          barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
          barrier.image = res.image;
          barrier.subresourceRange = {aspect, 0, spec.levels, 0, spec.layers};
          barrier.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
          barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
          barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
          barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
          vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                               0, nullptr, 1, &barrier);
          VkDeviceSize offset = 0;
          for (uint32_t level = 0; level < spec.levels; ++level) {
            const VkExtent3D e = LevelExtent(spec, level);
            VkBufferImageCopy copy{};
            copy.bufferOffset = offset;
            copy.imageSubresource = {aspect, level, 0, spec.layers};
            copy.imageExtent = e;
            vkCmdCopyImageToBuffer(cb, res.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging.buffer, 1, &copy);
            offset += LevelBytes(spec, level);
          }
        },
        error);
    if (ok) {
      const uint32_t* data = static_cast<const uint32_t*>(staging.mapped);
      (*out)[i].assign(data, data + words);
    }
    Destroy(staging);
    if (!ok) return false;
  }
  return true;
}

}  // namespace crashtest::test
