#include "draw_rig.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace crashtest::bench {
namespace {

// Creates `info`'s image in device-local memory (any memory type if none is device-local) with a view of all
// its levels. "" on success.
std::string create_image(const VkContext& ctx, const VkImageCreateInfo& info, VkImageAspectFlags aspect,
                         DeviceImage* out) {
  const DeviceCommands& vk = ctx.vk();
  VkResult result = vk.vkCreateImage(ctx.device(), &info, nullptr, &out->image);
  if (result != VK_SUCCESS) {
    out->image = VK_NULL_HANDLE;
    return call_failed("vkCreateImage", result);
  }
  VkMemoryRequirements requirements{};
  vk.vkGetImageMemoryRequirements(ctx.device(), out->image, &requirements);
  std::optional<uint32_t> type = ctx.find_memory_type(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (!type) type = ctx.find_memory_type(requirements.memoryTypeBits, 0);
  if (!type) return "error: no memory type for an image";
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = *type;
  result = vk.vkAllocateMemory(ctx.device(), &allocate, nullptr, &out->memory);
  if (result != VK_SUCCESS) {
    out->memory = VK_NULL_HANDLE;
    return call_failed("vkAllocateMemory", result);
  }
  result = vk.vkBindImageMemory(ctx.device(), out->image, out->memory, 0);
  if (result != VK_SUCCESS) return call_failed("vkBindImageMemory", result);
  VkImageViewCreateInfo view{};
  view.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
  view.image = out->image;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = info.format;
  view.subresourceRange = {aspect, 0, info.mipLevels, 0, 1};
  result = vk.vkCreateImageView(ctx.device(), &view, nullptr, &out->view);
  if (result != VK_SUCCESS) {
    out->view = VK_NULL_HANDLE;
    return call_failed("vkCreateImageView", result);
  }
  return {};
}

void destroy_image(const VkContext& ctx, DeviceImage& image) {
  const DeviceCommands& vk = ctx.vk();
  if (image.view != VK_NULL_HANDLE) vk.vkDestroyImageView(ctx.device(), image.view, nullptr);
  if (image.image != VK_NULL_HANDLE) vk.vkDestroyImage(ctx.device(), image.image, nullptr);
  if (image.memory != VK_NULL_HANDLE) vk.vkFreeMemory(ctx.device(), image.memory, nullptr);
  image = DeviceImage{};
}

VkImageCreateInfo image_info(VkFormat format, uint32_t width, uint32_t height, uint32_t levels,
                             VkImageUsageFlags usage) {
  VkImageCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {width, height, 1};
  info.mipLevels = levels;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  return info;
}

VkShaderModule create_module(const VkContext& ctx, const std::vector<uint32_t>& words, VkResult* result) {
  VkShaderModuleCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  info.codeSize = words.size() * sizeof(uint32_t);
  info.pCode = words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  *result = ctx.vk().vkCreateShaderModule(ctx.device(), &info, nullptr, &module);
  return *result == VK_SUCCESS ? module : VK_NULL_HANDLE;
}

}  // namespace

std::string missing_draw_commands(const VkContext& ctx) {
  return ctx.missing({"vkCreateImage", "vkGetImageMemoryRequirements", "vkBindImageMemory", "vkCreateImageView",
                      "vkCreateRenderPass", "vkCreateFramebuffer", "vkCreateSampler", "vkCreateGraphicsPipelines",
                      "vkCmdBeginRenderPass", "vkCmdEndRenderPass", "vkCmdDraw", "vkCmdDrawIndexed",
                      "vkCmdBindVertexBuffers", "vkCmdBindIndexBuffer", "vkCmdCopyBufferToImage",
                      "vkCmdPipelineBarrier", "vkCmdPushConstants", "vkCreateDescriptorPool"});
}

// ---- RenderTarget ----

std::unique_ptr<RenderTarget> RenderTarget::Create(const VkContext& ctx, uint32_t width, uint32_t height,
                                                   bool depth, std::string* error) {
  std::unique_ptr<RenderTarget> target(new RenderTarget(ctx));
  target->width_ = width;
  target->height_ = height;
  const DeviceCommands& vk = ctx.vk();
  *error = create_image(ctx,
                        image_info(VK_FORMAT_R8G8B8A8_UNORM, width, height, 1,
                                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT),
                        VK_IMAGE_ASPECT_COLOR_BIT, &target->color_);
  if (!error->empty()) return nullptr;
  if (depth) {
    *error = create_image(ctx,
                          image_info(VK_FORMAT_D32_SFLOAT, width, height, 1,
                                     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT),
                          VK_IMAGE_ASPECT_DEPTH_BIT, &target->depth_);
    if (!error->empty()) return nullptr;
  }
  VkAttachmentDescription attachments[2]{};
  attachments[0].format = VK_FORMAT_R8G8B8A8_UNORM;
  attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
  attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachments[0].finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachments[1] = attachments[0];
  attachments[1].format = VK_FORMAT_D32_SFLOAT;
  attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color_ref;
  subpass.pDepthStencilAttachment = depth ? &depth_ref : nullptr;
  VkRenderPassCreateInfo pass{};
  pass.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  pass.attachmentCount = depth ? 2 : 1;
  pass.pAttachments = attachments;
  pass.subpassCount = 1;
  pass.pSubpasses = &subpass;
  VkResult result = vk.vkCreateRenderPass(ctx.device(), &pass, nullptr, &target->render_pass_);
  if (result != VK_SUCCESS) {
    target->render_pass_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreateRenderPass", result);
    return nullptr;
  }
  VkImageView views[2] = {target->color_.view, target->depth_.view};
  VkFramebufferCreateInfo framebuffer{};
  framebuffer.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
  framebuffer.renderPass = target->render_pass_;
  framebuffer.attachmentCount = depth ? 2 : 1;
  framebuffer.pAttachments = views;
  framebuffer.width = width;
  framebuffer.height = height;
  framebuffer.layers = 1;
  result = vk.vkCreateFramebuffer(ctx.device(), &framebuffer, nullptr, &target->framebuffer_);
  if (result != VK_SUCCESS) {
    target->framebuffer_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreateFramebuffer", result);
    return nullptr;
  }
  return target;
}

RenderTarget::~RenderTarget() {
  const DeviceCommands& vk = ctx_.vk();
  if (framebuffer_ != VK_NULL_HANDLE) vk.vkDestroyFramebuffer(ctx_.device(), framebuffer_, nullptr);
  if (render_pass_ != VK_NULL_HANDLE) vk.vkDestroyRenderPass(ctx_.device(), render_pass_, nullptr);
  destroy_image(ctx_, depth_);
  destroy_image(ctx_, color_);
}

void RenderTarget::begin(VkCommandBuffer cmd) const {
  VkClearValue clears[2]{};
  clears[0].color = {{0.1f, 0.1f, 0.1f, 1.0f}};
  clears[1].depthStencil = {1.0f, 0};
  VkRenderPassBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  begin.renderPass = render_pass_;
  begin.framebuffer = framebuffer_;
  begin.renderArea = {{0, 0}, {width_, height_}};
  begin.clearValueCount = has_depth() ? 2 : 1;
  begin.pClearValues = clears;
  ctx_.vk().vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
}

// ---- Texture ----

std::unique_ptr<Texture> Texture::Create(const VkContext& ctx, uint32_t size, std::string* error) {
  std::unique_ptr<Texture> texture(new Texture(ctx));
  const DeviceCommands& vk = ctx.vk();
  uint32_t levels = 1;
  while ((size >> levels) != 0) ++levels;
  *error = create_image(ctx,
                        image_info(VK_FORMAT_R8G8B8A8_UNORM, size, size, levels,
                                   VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT),
                        VK_IMAGE_ASPECT_COLOR_BIT, &texture->image_);
  if (!error->empty()) return nullptr;

  // Every level of a checker-and-gradient pattern in one staging buffer, copied with one region per level.
  std::vector<VkBufferImageCopy> regions;
  VkDeviceSize bytes = 0;
  for (uint32_t level = 0; level < levels; ++level) {
    const uint32_t s = std::max(1u, size >> level);
    VkBufferImageCopy region{};
    region.bufferOffset = bytes;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
    region.imageExtent = {s, s, 1};
    regions.push_back(region);
    bytes += VkDeviceSize{s} * s * 4;
  }
  auto staging = HostBuffer::Create(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, error);
  if (!staging) return nullptr;
  auto* texels = static_cast<uint8_t*>(staging->mapped());
  for (uint32_t level = 0; level < levels; ++level) {
    const uint32_t s = std::max(1u, size >> level);
    uint8_t* p = texels + regions[level].bufferOffset;
    for (uint32_t y = 0; y < s; ++y) {
      for (uint32_t x = 0; x < s; ++x, p += 4) {
        const bool checker = (((x << level) / 16) + ((y << level) / 16)) % 2 == 0;
        p[0] = static_cast<uint8_t>(checker ? 230 : 40);
        p[1] = static_cast<uint8_t>((x * 255) / s);
        p[2] = static_cast<uint8_t>((y * 255) / s);
        p[3] = 255;
      }
    }
  }
  auto commands = CommandRig::Create(ctx, error);
  if (!commands) return nullptr;
  VkCommandBuffer cmd = commands->command_buffer();
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  vk.vkBeginCommandBuffer(cmd, &begin);
  VkImageMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = texture->image_.image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                          nullptr, 1, &barrier);
  vk.vkCmdCopyBufferToImage(cmd, staging->buffer(), texture->image_.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            static_cast<uint32_t>(regions.size()), regions.data());
  barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  barrier.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr,
                          0, nullptr, 1, &barrier);
  vk.vkEndCommandBuffer(cmd);
  VkResult result = commands->submit_and_wait();
  if (result != VK_SUCCESS) {
    *error = call_failed("vkQueueSubmit (texture upload)", result);
    return nullptr;
  }

  VkSamplerCreateInfo sampler{};

  sampler.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  sampler.magFilter = sampler.minFilter = VK_FILTER_LINEAR;
  sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sampler.maxLod = static_cast<float>(levels);
  result = vk.vkCreateSampler(ctx.device(), &sampler, nullptr, &texture->sampler_);
  if (result != VK_SUCCESS) {
    texture->sampler_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreateSampler", result);
    return nullptr;
  }
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                                       nullptr};
  VkDescriptorSetLayoutCreateInfo set_layout{};
  set_layout.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set_layout.bindingCount = 1;
  set_layout.pBindings = &binding;
  result = vk.vkCreateDescriptorSetLayout(ctx.device(), &set_layout, nullptr, &texture->set_layout_);
  if (result != VK_SUCCESS) {
    texture->set_layout_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreateDescriptorSetLayout", result);
    return nullptr;
  }
  VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
  VkDescriptorPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool.maxSets = 1;
  pool.poolSizeCount = 1;
  pool.pPoolSizes = &pool_size;
  result = vk.vkCreateDescriptorPool(ctx.device(), &pool, nullptr, &texture->pool_);
  if (result != VK_SUCCESS) {
    texture->pool_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreateDescriptorPool", result);
    return nullptr;
  }
  VkDescriptorSetAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  allocate.descriptorPool = texture->pool_;
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &texture->set_layout_;
  result = vk.vkAllocateDescriptorSets(ctx.device(), &allocate, &texture->set_);
  if (result != VK_SUCCESS) {
    *error = call_failed("vkAllocateDescriptorSets", result);
    return nullptr;
  }
  VkDescriptorImageInfo image{texture->sampler_, texture->image_.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet write{};
  write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
  write.dstSet = texture->set_;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = &image;
  vk.vkUpdateDescriptorSets(ctx.device(), 1, &write, 0, nullptr);
  return texture;
}

Texture::~Texture() {
  const DeviceCommands& vk = ctx_.vk();
  if (pool_ != VK_NULL_HANDLE) vk.vkDestroyDescriptorPool(ctx_.device(), pool_, nullptr);
  if (set_layout_ != VK_NULL_HANDLE) vk.vkDestroyDescriptorSetLayout(ctx_.device(), set_layout_, nullptr);
  if (sampler_ != VK_NULL_HANDLE) vk.vkDestroySampler(ctx_.device(), sampler_, nullptr);
  destroy_image(ctx_, image_);
}

// ---- GraphicsPipeline ----

std::unique_ptr<GraphicsPipeline> GraphicsPipeline::Create(const VkContext& ctx, const RenderTarget& target,
                                                           const std::vector<uint32_t>& vertex,
                                                           const std::vector<uint32_t>& fragment,
                                                           const VertexLayout& input,
                                                           VkDescriptorSetLayout set_layout, uint32_t push_bytes,
                                                           std::string* error) {
  std::unique_ptr<GraphicsPipeline> p(new GraphicsPipeline(ctx));
  const DeviceCommands& vk = ctx.vk();
  VkResult result = VK_SUCCESS;
  p->modules_[0] = create_module(ctx, vertex, &result);
  if (result == VK_SUCCESS) p->modules_[1] = create_module(ctx, fragment, &result);
  if (result != VK_SUCCESS) {
    *error = call_failed("vkCreateShaderModule", result);
    return nullptr;
  }
  VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo layout{};
  layout.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout.setLayoutCount = set_layout != VK_NULL_HANDLE ? 1 : 0;
  layout.pSetLayouts = &set_layout;
  layout.pushConstantRangeCount = push_bytes != 0 ? 1 : 0;
  layout.pPushConstantRanges = &push;
  result = vk.vkCreatePipelineLayout(ctx.device(), &layout, nullptr, &p->layout_);
  if (result != VK_SUCCESS) {
    p->layout_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreatePipelineLayout", result);
    return nullptr;
  }
  VkPipelineShaderStageCreateInfo stages[2]{};
  for (int i = 0; i < 2; ++i) {
    stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[i].stage = i == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[i].module = p->modules_[i];
    stages[i].pName = "main";
  }
  VkVertexInputBindingDescription binding{0, input.stride, VK_VERTEX_INPUT_RATE_VERTEX};
  std::vector<VkVertexInputAttributeDescription> attributes;
  uint32_t offset = 0;
  for (uint32_t location = 0; location < input.float_counts.size(); ++location) {
    const uint32_t n = input.float_counts[location];
    const VkFormat format = n == 2 ? VK_FORMAT_R32G32_SFLOAT
                            : n == 3 ? VK_FORMAT_R32G32B32_SFLOAT
                                     : VK_FORMAT_R32G32B32A32_SFLOAT;
    attributes.push_back({location, 0, format, offset});
    offset += n * 4;
  }
  VkPipelineVertexInputStateCreateInfo vertex_input{};
  vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  vertex_input.vertexBindingDescriptionCount = input.stride != 0 ? 1 : 0;
  vertex_input.pVertexBindingDescriptions = &binding;
  vertex_input.vertexAttributeDescriptionCount = static_cast<uint32_t>(attributes.size());
  vertex_input.pVertexAttributeDescriptions = attributes.data();
  VkPipelineInputAssemblyStateCreateInfo assembly{};
  assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, static_cast<float>(target.width()), static_cast<float>(target.height()), 0, 1};
  VkRect2D scissor{{0, 0}, {target.width(), target.height()}};
  VkPipelineViewportStateCreateInfo viewport_state{};
  viewport_state.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport_state.viewportCount = 1;
  viewport_state.pViewports = &viewport;
  viewport_state.scissorCount = 1;
  viewport_state.pScissors = &scissor;
  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{};
  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth{};
  depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  depth.depthTestEnable = depth.depthWriteEnable = target.has_depth() ? VK_TRUE : VK_FALSE;
  depth.depthCompareOp = VK_COMPARE_OP_LESS;
  depth.maxDepthBounds = 1.0f;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask = 0xf;
  VkPipelineColorBlendStateCreateInfo blend{};
  blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;
  VkGraphicsPipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport_state;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.layout = p->layout_;
  info.renderPass = target.render_pass();
  result = vk.vkCreateGraphicsPipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr, &p->pipeline_);
  if (result != VK_SUCCESS) {
    p->pipeline_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreateGraphicsPipelines", result);
    return nullptr;
  }
  return p;
}

GraphicsPipeline::~GraphicsPipeline() {
  const DeviceCommands& vk = ctx_.vk();
  if (pipeline_ != VK_NULL_HANDLE) vk.vkDestroyPipeline(ctx_.device(), pipeline_, nullptr);
  if (layout_ != VK_NULL_HANDLE) vk.vkDestroyPipelineLayout(ctx_.device(), layout_, nullptr);
  for (VkShaderModule module : modules_)
    if (module != VK_NULL_HANDLE) vk.vkDestroyShaderModule(ctx_.device(), module, nullptr);
}

}  // namespace crashtest::bench
