// Input attachments in a render pass of two subpasses, on crashtest and on lavapipe: the first subpass draws
// interpolated triangles into attachment 0, the second reads attachment 0 at each fragment with subpassLoad and
// writes attachment 1, which is read back and compared pixel by pixel (it must match exactly: no filtering, no
// interpolation differences reach the second subpass except through attachment 0, which both draw identically
// away from triangle edges).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vk_render.h"

namespace crashtest::test {
namespace {

constexpr uint32_t kSize = 32;

std::vector<uint32_t> Spirv(const std::string& name) { return RasterShader(name); }

struct Failure {
  std::string what;
};

void Check(VkResult r, const char* call) {
  if (r != VK_SUCCESS) throw Failure{std::string(call) + " returned " + std::to_string(static_cast<int>(r))};
}

// Everything the two-subpass render creates, destroyed in reverse order.
class Scope {
 public:
  ~Scope() {
    for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) (*it)();
  }
  void Add(std::function<void()> step) { steps_.push_back(std::move(step)); }

 private:
  std::vector<std::function<void()>> steps_;
};

// Renders the two subpasses on the first device whose name contains `name` and that is (1) or is not (0)
// crashtest; returns attachment 1's RGBA8 texels, or an error.
std::vector<uint8_t> RenderTwoSubpasses(VkInstance instance, const char* name, int crashtest, std::string* error) {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> physicals(count);
  vkEnumeratePhysicalDevices(instance, &count, physicals.data());
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  for (VkPhysicalDevice p : physicals) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(p, &props);
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(p, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> extensions(n);
    vkEnumerateDeviceExtensionProperties(p, nullptr, &n, extensions.data());
    bool isCrashtest = false;
    for (const VkExtensionProperties& e : extensions)
      if (std::strcmp(e.extensionName, "VK_KHR_device_fault") == 0) isCrashtest = true;
    if (std::string(props.deviceName).find(name) != std::string::npos && isCrashtest == (crashtest == 1)) {
      physical = p;
      break;
    }
  }
  if (physical == VK_NULL_HANDLE) {
    *error = std::string("no device named like \"") + name + "\"";
    return {};
  }
  Scope scope;
  try {
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
    std::vector<VkQueueFamilyProperties> props(families);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, props.data());
    uint32_t family = 0;
    while (family < families && (props[family].queueFlags & VK_QUEUE_GRAPHICS_BIT) == 0) ++family;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = family;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    VkDevice dev;
    Check(vkCreateDevice(physical, &deviceInfo, nullptr, &dev), "vkCreateDevice");
    scope.Add([=] { vkDestroyDevice(dev, nullptr); });
    VkQueue queue;
    vkGetDeviceQueue(dev, family, 0, &queue);
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
    auto allocate = [&](VkMemoryRequirements req, VkMemoryPropertyFlags want) {
      VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      info.allocationSize = req.size;
      info.memoryTypeIndex = UINT32_MAX;
      for (uint32_t i = 0; i < memory.memoryTypeCount && info.memoryTypeIndex == UINT32_MAX; ++i)
        if ((req.memoryTypeBits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & want) == want)
          info.memoryTypeIndex = i;
      VkDeviceMemory m;
      Check(vkAllocateMemory(dev, &info, nullptr, &m), "vkAllocateMemory");
      scope.Add([=] { vkFreeMemory(dev, m, nullptr); });
      return m;
    };
    auto image = [&](VkImageUsageFlags usage, VkImageView* view) {
      VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
      info.imageType = VK_IMAGE_TYPE_2D;
      info.format = VK_FORMAT_R8G8B8A8_UNORM;
      info.extent = {kSize, kSize, 1};
      info.mipLevels = info.arrayLayers = 1;
      info.samples = VK_SAMPLE_COUNT_1_BIT;
      info.usage = usage;
      VkImage img;
      Check(vkCreateImage(dev, &info, nullptr, &img), "vkCreateImage");
      scope.Add([=] { vkDestroyImage(dev, img, nullptr); });
      VkMemoryRequirements req;
      vkGetImageMemoryRequirements(dev, img, &req);
      Check(vkBindImageMemory(dev, img, allocate(req, 0), 0), "vkBindImageMemory");
      VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
      viewInfo.image = img;
      viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D;
      viewInfo.format = VK_FORMAT_R8G8B8A8_UNORM;
      viewInfo.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      Check(vkCreateImageView(dev, &viewInfo, nullptr, view), "vkCreateImageView");
      const VkImageView v = *view;
      scope.Add([=] { vkDestroyImageView(dev, v, nullptr); });
      return img;
    };
    auto buffer = [&](VkDeviceSize size, VkBufferUsageFlags usage, void** mapped) {
      VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
      info.size = size;
      info.usage = usage;
      VkBuffer b;
      Check(vkCreateBuffer(dev, &info, nullptr, &b), "vkCreateBuffer");
      scope.Add([=] { vkDestroyBuffer(dev, b, nullptr); });
      VkMemoryRequirements req;
      vkGetBufferMemoryRequirements(dev, b, &req);
      VkDeviceMemory m =
          allocate(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
      Check(vkBindBufferMemory(dev, b, m, 0), "vkBindBufferMemory");
      Check(vkMapMemory(dev, m, 0, VK_WHOLE_SIZE, 0, mapped), "vkMapMemory");
      return b;
    };

    VkImageView firstView, secondView;
    image(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, &firstView);
    VkImage second = image(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &secondView);
    void* readback;
    VkBuffer readbackBuffer = buffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readback);
    // Three triangles of interpolated colours (position vec4, colour vec4).
    const float vertices[] = {-0.9f, -0.8f, 0.5f, 1, 1, 0, 0, 1,   0.7f, -0.6f, 0.5f, 1, 0, 1, 0, 1,
                              -0.3f, 0.9f, 0.5f, 1, 0, 0, 1, 1,    0.2f, 0.1f, 0.5f, 1, 1, 1, 0, 1,
                              0.95f, 0.3f, 0.5f, 1, 0, 1, 1, 1,    0.5f, 0.95f, 0.5f, 1, 1, 0, 1, 1};
    void* vertexMapped;
    VkBuffer vertexBuffer = buffer(sizeof vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMapped);
    std::memcpy(vertexMapped, vertices, sizeof vertices);

    // The render pass: subpass 0 writes attachment 0; subpass 1 reads it as an input attachment and writes 1.
    VkAttachmentDescription attachments[2]{};
    for (VkAttachmentDescription& a : attachments) {
      a.format = VK_FORMAT_R8G8B8A8_UNORM;
      a.samples = VK_SAMPLE_COUNT_1_BIT;
      a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      a.finalLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    }
    attachments[1].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    const VkAttachmentReference firstColor{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    const VkAttachmentReference input{0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    const VkAttachmentReference secondColor{1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpasses[2]{};
    subpasses[0].pipelineBindPoint = subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpasses[0].colorAttachmentCount = 1;
    subpasses[0].pColorAttachments = &firstColor;
    subpasses[1].inputAttachmentCount = 1;
    subpasses[1].pInputAttachments = &input;
    subpasses[1].colorAttachmentCount = 1;
    subpasses[1].pColorAttachments = &secondColor;
    VkSubpassDependency dependency{0, 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                   VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                   VK_ACCESS_INPUT_ATTACHMENT_READ_BIT, VK_DEPENDENCY_BY_REGION_BIT};
    VkRenderPassCreateInfo passInfo{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    passInfo.attachmentCount = 2;
    passInfo.pAttachments = attachments;
    passInfo.subpassCount = 2;
    passInfo.pSubpasses = subpasses;
    passInfo.dependencyCount = 1;
    passInfo.pDependencies = &dependency;
    VkRenderPass pass;
    Check(vkCreateRenderPass(dev, &passInfo, nullptr, &pass), "vkCreateRenderPass");
    scope.Add([=] { vkDestroyRenderPass(dev, pass, nullptr); });
    const VkImageView views[2] = {firstView, secondView};
    VkFramebufferCreateInfo fbInfo{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fbInfo.renderPass = pass;
    fbInfo.attachmentCount = 2;
    fbInfo.pAttachments = views;
    fbInfo.width = fbInfo.height = kSize;
    fbInfo.layers = 1;
    VkFramebuffer framebuffer;
    Check(vkCreateFramebuffer(dev, &fbInfo, nullptr, &framebuffer), "vkCreateFramebuffer");
    scope.Add([=] { vkDestroyFramebuffer(dev, framebuffer, nullptr); });

    // The input attachment's descriptor.
    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1,
                                               VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo setLayoutInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setLayoutInfo.bindingCount = 1;
    setLayoutInfo.pBindings = &binding;
    VkDescriptorSetLayout setLayout;
    Check(vkCreateDescriptorSetLayout(dev, &setLayoutInfo, nullptr, &setLayout), "vkCreateDescriptorSetLayout");
    scope.Add([=] { vkDestroyDescriptorSetLayout(dev, setLayout, nullptr); });
    const VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = 1;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &poolSize;
    VkDescriptorPool descriptorPool;
    Check(vkCreateDescriptorPool(dev, &poolInfo, nullptr, &descriptorPool), "vkCreateDescriptorPool");
    scope.Add([=] { vkDestroyDescriptorPool(dev, descriptorPool, nullptr); });
    VkDescriptorSetAllocateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    setInfo.descriptorPool = descriptorPool;
    setInfo.descriptorSetCount = 1;
    setInfo.pSetLayouts = &setLayout;
    VkDescriptorSet set;
    Check(vkAllocateDescriptorSets(dev, &setInfo, &set), "vkAllocateDescriptorSets");
    const VkDescriptorImageInfo imageInfo{VK_NULL_HANDLE, firstView, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
    write.pImageInfo = &imageInfo;
    vkUpdateDescriptorSets(dev, 1, &write, 0, nullptr);

    // Pipelines: subpass 0 draws coloured triangles (color.vert with a zero push-constant offset), subpass 1 a
    // full-screen triangle reading the input attachment.
    auto module = [&](const std::vector<uint32_t>& code) {
      VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
      info.codeSize = code.size() * 4;
      info.pCode = code.data();
      VkShaderModule m;
      Check(vkCreateShaderModule(dev, &info, nullptr, &m), "vkCreateShaderModule");
      scope.Add([=] { vkDestroyShaderModule(dev, m, nullptr); });
      return m;
    };
    const VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT, 0, 16};
    VkPipelineLayoutCreateInfo firstLayoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    firstLayoutInfo.pushConstantRangeCount = 1;
    firstLayoutInfo.pPushConstantRanges = &push;
    VkPipelineLayout firstLayout, secondLayout;
    Check(vkCreatePipelineLayout(dev, &firstLayoutInfo, nullptr, &firstLayout), "vkCreatePipelineLayout");
    scope.Add([=] { vkDestroyPipelineLayout(dev, firstLayout, nullptr); });
    VkPipelineLayoutCreateInfo secondLayoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    secondLayoutInfo.setLayoutCount = 1;
    secondLayoutInfo.pSetLayouts = &setLayout;
    Check(vkCreatePipelineLayout(dev, &secondLayoutInfo, nullptr, &secondLayout), "vkCreatePipelineLayout");
    scope.Add([=] { vkDestroyPipelineLayout(dev, secondLayout, nullptr); });
    auto pipeline = [&](const char* vertex, const char* fragment, bool vertexInput, VkPipelineLayout layout,
                        uint32_t subpass) {
      VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                   {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
      stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
      stages[0].module = module(Spirv(vertex));
      stages[0].pName = "main";
      stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
      stages[1].module = module(Spirv(fragment));
      stages[1].pName = "main";
      const VkVertexInputBindingDescription vb{0, 32, VK_VERTEX_INPUT_RATE_VERTEX};
      const VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                                                               {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
      VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
      if (vertexInput) {
        input.vertexBindingDescriptionCount = 1;
        input.pVertexBindingDescriptions = &vb;
        input.vertexAttributeDescriptionCount = 2;
        input.pVertexAttributeDescriptions = attributes;
      }
      VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
      assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
      const VkViewport viewport{0, 0, static_cast<float>(kSize), static_cast<float>(kSize), 0, 1};
      const VkRect2D scissor{{0, 0}, {kSize, kSize}};
      VkPipelineViewportStateCreateInfo viewportState{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
      viewportState.viewportCount = viewportState.scissorCount = 1;
      viewportState.pViewports = &viewport;
      viewportState.pScissors = &scissor;
      VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
      raster.lineWidth = 1.0f;
      VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
      multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
      VkPipelineColorBlendAttachmentState blendAttachment{};
      blendAttachment.colorWriteMask = 0xf;
      VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
      blend.attachmentCount = 1;
      blend.pAttachments = &blendAttachment;
      VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
      info.stageCount = 2;
      info.pStages = stages;
      info.pVertexInputState = &input;
      info.pInputAssemblyState = &assembly;
      info.pViewportState = &viewportState;
      info.pRasterizationState = &raster;
      info.pMultisampleState = &multisample;
      info.pColorBlendState = &blend;
      info.layout = layout;
      info.renderPass = pass;
      info.subpass = subpass;
      VkPipeline p;
      Check(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &info, nullptr, &p), "vkCreateGraphicsPipelines");
      scope.Add([=] { vkDestroyPipeline(dev, p, nullptr); });
      return p;
    };
    VkPipeline draw = pipeline("color.vert", "color.frag", true, firstLayout, 0);
    VkPipeline reader = pipeline("fullscreen.vert", "input_attachment.frag", false, secondLayout, 1);

    // Record, submit, read back.
    VkCommandPoolCreateInfo cpInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpInfo.queueFamilyIndex = family;
    VkCommandPool commandPool;
    Check(vkCreateCommandPool(dev, &cpInfo, nullptr, &commandPool), "vkCreateCommandPool");
    scope.Add([=] { vkDestroyCommandPool(dev, commandPool, nullptr); });
    VkCommandBufferAllocateInfo cbInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbInfo.commandPool = commandPool;
    cbInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbInfo.commandBufferCount = 1;
    VkCommandBuffer cb;
    Check(vkAllocateCommandBuffers(dev, &cbInfo, &cb), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    Check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
    VkClearValue clears[2]{};
    clears[0].color = {{0.1f, 0.2f, 0.3f, 1.0f}};
    clears[1].color = {{1.0f, 0.0f, 1.0f, 1.0f}};
    VkRenderPassBeginInfo rpBegin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    rpBegin.renderPass = pass;
    rpBegin.framebuffer = framebuffer;
    rpBegin.renderArea = {{0, 0}, {kSize, kSize}};
    rpBegin.clearValueCount = 2;
    rpBegin.pClearValues = clears;
    vkCmdBeginRenderPass(cb, &rpBegin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, draw);
    const float offset[4] = {0, 0, 0, 0};
    vkCmdPushConstants(cb, firstLayout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof offset, offset);
    const VkDeviceSize zero = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vertexBuffer, &zero);
    vkCmdDraw(cb, 6, 1, 0, 0);
    vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, reader);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, secondLayout, 0, 1, &set, 0, nullptr);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRenderPass(cb);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {kSize, kSize, 1};
    vkCmdCopyImageToBuffer(cb, second, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readbackBuffer, 1, &copy);
    Check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    Check(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
    Check(vkQueueWaitIdle(queue), "vkQueueWaitIdle");
    const auto* bytes = static_cast<const uint8_t*>(readback);
    return std::vector<uint8_t>(bytes, bytes + kSize * kSize * 4);
  } catch (const Failure& failure) {
    *error = failure.what;
    return {};
  }
}

TEST(InputAttachments, SecondSubpassReadsTheFirstSubpassColour) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_2;  // the shaders are SPIR-V 1.5
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance;
  ASSERT_EQ(vkCreateInstance(&info, nullptr, &instance), VK_SUCCESS);
  std::string error;
  const std::vector<uint8_t> ours = RenderTwoSubpasses(instance, "", 1, &error);
  ASSERT_FALSE(ours.empty()) << "crashtest: " << error;
  const std::vector<uint8_t> oracle = RenderTwoSubpasses(instance, "llvmpipe", 0, &error);
  ASSERT_FALSE(oracle.empty()) << "lavapipe: " << error;
  vkDestroyInstance(instance, nullptr);
  // The second subpass wrote every pixel (its clear colour, magenta, never survives), and the triangles show.
  uint32_t magenta = 0, background = 0, maxDifference = 0, beyondOne = 0;
  for (size_t p = 0; p < kSize * kSize; ++p) {
    const uint8_t* a = &ours[p * 4];
    const uint8_t* b = &oracle[p * 4];
    if (a[0] == 255 && a[1] == 0 && a[2] == 255) ++magenta;
    // 1 - (26, 77) / 255 (the first subpass's clear colour in 8 bits), inverted: about (229, 178).
    if (std::abs(b[0] - 229) <= 1 && std::abs(b[2] - 178) <= 1) ++background;
    uint32_t d = 0;
    for (int c = 0; c < 4; ++c) d = std::max<uint32_t>(d, static_cast<uint32_t>(std::abs(a[c] - b[c])));
    maxDifference = std::max(maxDifference, d);
    beyondOne += d > 1 ? 1 : 0;
  }
  std::printf("  largest difference %u, %u pixels beyond 1\n", maxDifference, beyondOne);
  EXPECT_EQ(magenta, 0u) << "pixels the second subpass did not write";
  EXPECT_GT(background, 0u);
  EXPECT_LT(background, kSize * kSize) << "the first subpass's triangles do not show";
  EXPECT_LE(beyondOne, 8u) << "triangle edges may differ by a pixel; nothing else";
}

}  // namespace
}  // namespace crashtest::test
