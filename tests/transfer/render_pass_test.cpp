// Render pass and framebuffer objects: both creation paths give the same representation (unit level), and the
// commands work through the real loader with allocation callbacks honoured.
#include <gtest/gtest.h>

#include <string>
#include <vector>
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdlib>

namespace {

VkInstance CreateInstance() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  return vkCreateInstance(&info, nullptr, &instance) == VK_SUCCESS ? instance : VK_NULL_HANDLE;
}

// Counts live allocations made through the callbacks.
struct CountingAllocator {
  static void* Allocate(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
    static_cast<CountingAllocator*>(user)->live++;
    return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  }
  static void* Reallocate(void*, void*, size_t, size_t, VkSystemAllocationScope) { return nullptr; }
  static void Free(void* user, void* memory) {
    if (memory == nullptr) return;
    static_cast<CountingAllocator*>(user)->live--;
    std::free(memory);
  }
  VkAllocationCallbacks callbacks() { return {this, Allocate, Reallocate, Free, nullptr, nullptr}; }
  int live = 0;
};

class RenderPassLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    instance_ = CreateInstance();
    ASSERT_NE(instance_, VK_NULL_HANDLE);
    uint32_t count = 1;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    vkEnumeratePhysicalDevices(instance_, &count, &physical);
    ASSERT_NE(physical, VK_NULL_HANDLE);
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    // VK_KHR_create_renderpass2 where the device offers it (below Vulkan 1.2 it is the only way to reach
    // vkCreateRenderPass2).
    uint32_t extensionCount = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &extensionCount, nullptr);
    std::vector<VkExtensionProperties> offered(extensionCount);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &extensionCount, offered.data());
    std::vector<const char*> enabled;
    for (const VkExtensionProperties& e : offered)
      if (std::string(e.extensionName) == VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME)
        enabled.push_back(VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME);
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = static_cast<uint32_t>(enabled.size());
    info.ppEnabledExtensionNames = enabled.data();
    ASSERT_EQ(vkCreateDevice(physical, &info, nullptr, &device_), VK_SUCCESS);
  }
  void TearDown() override {
    if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
  }
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
};

TEST_F(RenderPassLoaderTest, CreateRenderPassFramebufferAndGranularity) {
  VkAttachmentDescription attachments[2] = {};
  attachments[0].format = VK_FORMAT_R8G8B8A8_UNORM;
  attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
  attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[0].finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachments[1] = attachments[0];
  attachments[1].format = VK_FORMAT_D32_SFLOAT;
  attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  VkAttachmentReference color{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference depth{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color;
  subpass.pDepthStencilAttachment = &depth;
  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  info.attachmentCount = 2;
  info.pAttachments = attachments;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;

  CountingAllocator counter;
  VkAllocationCallbacks callbacks = counter.callbacks();
  VkRenderPass pass = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateRenderPass(device_, &info, &callbacks, &pass), VK_SUCCESS);
  EXPECT_NE(pass, VK_NULL_HANDLE);
  EXPECT_EQ(counter.live, 1);  // the object itself came from the callbacks

  VkExtent2D granularity{0, 0};
  vkGetRenderAreaGranularity(device_, pass, &granularity);
  EXPECT_EQ(granularity.width, 1u);
  EXPECT_EQ(granularity.height, 1u);

  // An imageless framebuffer needs no views: its attachments arrive at vkCmdBeginRenderPass.
  VkFormat formats[2] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT};
  VkFramebufferAttachmentImageInfo images[2] = {{VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO},
                                                {VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO}};
  for (int i = 0; i < 2; ++i) {
    images[i].usage = i == 0 ? VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT : VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    images[i].width = 64, images[i].height = 32, images[i].layerCount = 1;
    images[i].viewFormatCount = 1, images[i].pViewFormats = &formats[i];
  }
  VkFramebufferAttachmentsCreateInfo imageInfos{VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO};
  imageInfos.attachmentImageInfoCount = 2;
  imageInfos.pAttachmentImageInfos = images;
  VkFramebufferCreateInfo fbInfo{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, &imageInfos};
  fbInfo.flags = VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT;
  fbInfo.renderPass = pass;
  fbInfo.attachmentCount = 2;
  fbInfo.width = 64, fbInfo.height = 32, fbInfo.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateFramebuffer(device_, &fbInfo, &callbacks, &framebuffer), VK_SUCCESS);
  EXPECT_EQ(counter.live, 2);
  vkDestroyFramebuffer(device_, framebuffer, &callbacks);
  vkDestroyRenderPass(device_, pass, &callbacks);
  EXPECT_EQ(counter.live, 0);
  vkDestroyRenderPass(device_, VK_NULL_HANDLE, nullptr);  // destroying VK_NULL_HANDLE is a no-op
}

TEST_F(RenderPassLoaderTest, CreateRenderPass2WhenTheDeviceOffersIt) {
  auto create2 = reinterpret_cast<PFN_vkCreateRenderPass2>(vkGetDeviceProcAddr(device_, "vkCreateRenderPass2"));
  if (create2 == nullptr)
    create2 = reinterpret_cast<PFN_vkCreateRenderPass2>(vkGetDeviceProcAddr(device_, "vkCreateRenderPass2KHR"));
  // The default device offers render passes 2 (Vulkan 1.2 or VK_KHR_create_renderpass2).
  ASSERT_NE(create2, nullptr);
  VkAttachmentDescription2 attachment{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
  attachment.format = VK_FORMAT_R8G8B8A8_UNORM;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  VkAttachmentReference2 color{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 0,
                               VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0};
  VkSubpassDescription2 subpass{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2};
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color;
  VkRenderPassCreateInfo2 info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
  info.attachmentCount = 1;
  info.pAttachments = &attachment;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  VkRenderPass pass = VK_NULL_HANDLE;
  ASSERT_EQ(create2(device_, &info, nullptr, &pass), VK_SUCCESS);
  vkDestroyRenderPass(device_, pass, nullptr);
}

}  // namespace
