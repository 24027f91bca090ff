// What queues execute, byte-exact through the real loader: buffer fills, updates and copies, buffer <-> image
// round trips, image clears, render-pass and dynamic-rendering load-op clears, vkCmdClearAttachments, events and
// queries.
#include <chrono>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>
#include <numeric>
#include <thread>

#include "work_test_env.h"

namespace crashtest::test {
namespace {

using Clock = std::chrono::steady_clock;

class ExecutionTest : public WorkTest {
 protected:
  void TearDown() override {
    if (device_ != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(device_);
      for (VkImageView view : views_) vkDestroyImageView(device_, view, nullptr);
      for (auto& [image, memory] : images_) {
        vkDestroyImage(device_, image, nullptr);
        vkFreeMemory(device_, memory, nullptr);
      }
    }
    WorkTest::TearDown();
  }

  VkImage CreateImage(VkFormat format, VkExtent3D extent, uint32_t layers = 1,
                      VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                      VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = extent;
    info.mipLevels = 1;
    info.arrayLayers = layers;
    info.samples = samples;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    VkImage image = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImage(device_, &info, nullptr, &image), VK_SUCCESS);
    VkMemoryRequirements requirements{};
    vkGetImageMemoryRequirements(device_, image, &requirements);
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = static_cast<uint32_t>(__builtin_ctz(requirements.memoryTypeBits));
    VkDeviceMemory memory = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateMemory(device_, &allocate, nullptr, &memory), VK_SUCCESS);
    EXPECT_EQ(vkBindImageMemory(device_, image, memory, 0), VK_SUCCESS);
    images_.push_back({image, memory});
    return image;
  }

  VkImageView CreateView(VkImage image, VkFormat format, VkImageAspectFlags aspects, uint32_t layers = 1) {
    VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    info.image = image;
    info.viewType = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
    info.format = format;
    info.subresourceRange = {aspects, 0, 1, 0, layers};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImageView(device_, &info, nullptr, &view), VK_SUCCESS);
    views_.push_back(view);
    return view;
  }

  static VkBufferImageCopy WholeLayer(VkExtent3D extent, uint32_t layer = 0, VkDeviceSize offset = 0) {
    VkBufferImageCopy region{};
    region.bufferOffset = offset;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, layer, 1};
    region.imageExtent = extent;
    return region;
  }

  // The RGBA8 texels of layer `layer` of `image`, read back through vkCmdCopyImageToBuffer.
  std::vector<uint32_t> ReadBack(VkImage image, VkExtent3D extent, uint32_t layer = 0) {
    HostBuffer* readback = CreateHostBuffer(4ull * extent.width * extent.height);
    VkBufferImageCopy region = WholeLayer(extent, layer);
    Run([&](VkCommandBuffer cb) {
      vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback->buffer, 1, &region);
    });
    std::vector<uint32_t> texels(extent.width * extent.height);
    std::memcpy(texels.data(), readback->mapped, texels.size() * 4);
    return texels;
  }

  std::vector<std::pair<VkImage, VkDeviceMemory>> images_;
  std::vector<VkImageView> views_;
};

TEST_F(ExecutionTest, FillUpdateAndCopyBufferRoundTrip) {
  HostBuffer* src = CreateHostBuffer(4096);
  HostBuffer* dst = CreateHostBuffer(4096);
  for (size_t i = 0; i < 4096; ++i) src->mapped[i] = static_cast<std::byte>(i * 7 + 3);
  std::memset(dst->mapped, 0xee, 4096);
  const uint32_t update[4] = {0x01234567, 0x89abcdef, 0xdeadbeef, 0xfeedface};
  Run([&](VkCommandBuffer cb) {
    VkBufferCopy regions[2] = {{100, 8, 500}, {3000, 1000, 96}};
    vkCmdCopyBuffer(cb, src->buffer, dst->buffer, 2, regions);
    vkCmdFillBuffer(cb, dst->buffer, 2048, 64, 0xc0ffee00);
    vkCmdUpdateBuffer(cb, dst->buffer, 4000, sizeof(update), update);
  });
  for (size_t i = 0; i < 4096; ++i) {
    std::byte expected{0xee};
    if (i >= 8 && i < 508) expected = src->mapped[i - 8 + 100];
    if (i >= 1000 && i < 1096) expected = src->mapped[i - 1000 + 3000];
    if (i >= 2048 && i < 2112) expected = static_cast<std::byte>((0xc0ffee00u >> (8 * (i % 4))) & 0xff);
    if (i >= 4000 && i < 4016) expected = reinterpret_cast<const std::byte*>(update)[i - 4000];
    ASSERT_EQ(dst->mapped[i], expected) << "byte " << i;
  }
}

TEST_F(ExecutionTest, CopyBuffer2AndWholeSizeFill) {
  auto copy2 = reinterpret_cast<PFN_vkCmdCopyBuffer2>(DeviceCommand("vkCmdCopyBuffer2"));
  HostBuffer* src = CreateHostBuffer(64);
  HostBuffer* dst = CreateHostBuffer(64);
  for (size_t i = 0; i < 64; ++i) src->mapped[i] = static_cast<std::byte>(i);
  Run([&](VkCommandBuffer cb) {
    vkCmdFillBuffer(cb, dst->buffer, 16, VK_WHOLE_SIZE, 0x77777777);
    if (copy2 != nullptr) {
      VkBufferCopy2 region{VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 4, 0, 8};
      VkCopyBufferInfo2 info{VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2};
      info.srcBuffer = src->buffer;
      info.dstBuffer = dst->buffer;
      info.regionCount = 1;
      info.pRegions = &region;
      copy2(cb, &info);
    }
  });
  EXPECT_EQ(dst->At<uint32_t>(60), 0x77777777u);
  if (copy2 != nullptr) {
    EXPECT_EQ(dst->At<uint32_t>(0), 0x07060504u);
  }
}

TEST_F(ExecutionTest, BufferImageRoundTripAndClearColorImage) {
  const VkExtent3D extent{8, 4, 1};
  VkImage image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, extent, 2);
  HostBuffer* upload = CreateHostBuffer(4 * 8 * 4);
  for (uint32_t i = 0; i < 32; ++i) {
    const uint32_t texel = i * 0x01010101u;
    std::memcpy(upload->mapped + 4 * i, &texel, 4);
  }
  Run([&](VkCommandBuffer cb) {
    VkClearColorValue grey{};
    grey.float32[0] = grey.float32[1] = grey.float32[2] = grey.float32[3] = 1.0f;
    VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 2};
    vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &grey, 1, &all);
    VkBufferImageCopy region = WholeLayer(extent, 1);
    vkCmdCopyBufferToImage(cb, upload->buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  });
  std::vector<uint32_t> layer0 = ReadBack(image, extent, 0);
  std::vector<uint32_t> layer1 = ReadBack(image, extent, 1);
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(layer0[i], 0xffffffffu) << i;
    EXPECT_EQ(layer1[i], i * 0x01010101u) << i;
  }
}

TEST_F(ExecutionTest, RenderPassLoadOpClearsTheRenderAreaAndClearAttachments) {
  const VkExtent3D extent{8, 8, 1};
  VkImage image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, extent, 1,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                  VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  VkImageView view = CreateView(image, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
  VkAttachmentDescription attachment{};
  attachment.format = VK_FORMAT_R8G8B8A8_UNORM;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  VkAttachmentReference color{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color;
  VkRenderPassCreateInfo passInfo{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  passInfo.attachmentCount = 1;
  passInfo.pAttachments = &attachment;
  passInfo.subpassCount = 1;
  passInfo.pSubpasses = &subpass;
  VkRenderPass pass = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateRenderPass(device_, &passInfo, nullptr, &pass), VK_SUCCESS);
  VkFramebufferCreateInfo fbInfo{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fbInfo.renderPass = pass;
  fbInfo.attachmentCount = 1;
  fbInfo.pAttachments = &view;
  fbInfo.width = 8;
  fbInfo.height = 8;
  fbInfo.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateFramebuffer(device_, &fbInfo, nullptr, &framebuffer), VK_SUCCESS);

  Run([&](VkCommandBuffer cb) {
    VkClearColorValue zero{};
    VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &all);
    VkClearValue red{};
    red.color.float32[0] = 1.0f;
    red.color.float32[3] = 1.0f;
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{2, 2}, {4, 4}};  // only this area is cleared
    begin.clearValueCount = 1;
    begin.pClearValues = &red;
    vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
    VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
    clear.clearValue.color.float32[2] = 1.0f;  // blue
    clear.clearValue.color.float32[3] = 1.0f;
    VkClearRect rect{{{3, 3}, {1, 1}}, 0, 1};
    vkCmdClearAttachments(cb, 1, &clear, 1, &rect);
    vkCmdEndRenderPass(cb);
  });
  std::vector<uint32_t> texels = ReadBack(image, extent);
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x) {
      uint32_t expected = 0;
      if (x >= 2 && x < 6 && y >= 2 && y < 6) expected = 0xff0000ffu;  // red, RGBA8 little-endian
      if (x == 3 && y == 3) expected = 0xffff0000u;                  // blue
      EXPECT_EQ(texels[y * 8 + x], expected) << x << "," << y;
    }
  vkDestroyFramebuffer(device_, framebuffer, nullptr);
  vkDestroyRenderPass(device_, pass, nullptr);
}

TEST_F(ExecutionTest, DynamicRenderingLoadOpClear) {
  auto begin = reinterpret_cast<PFN_vkCmdBeginRendering>(DeviceCommand("vkCmdBeginRendering"));
  auto end = reinterpret_cast<PFN_vkCmdEndRendering>(DeviceCommand("vkCmdEndRendering"));
  // The default device offers dynamic rendering (Vulkan 1.3).
  ASSERT_NE(begin, nullptr);
  ASSERT_NE(end, nullptr);
  ASSERT_EQ(dynamicRendering_.dynamicRendering, VK_TRUE);
  const VkExtent3D extent{4, 4, 1};
  VkImage image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, extent, 1,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  VkImageView view = CreateView(image, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
  Run([&](VkCommandBuffer cb) {
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = view;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color.float32[1] = 1.0f;  // green
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = {{0, 0}, {4, 4}};
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &color;
    begin(cb, &info);
    end(cb);
  });
  for (uint32_t texel : ReadBack(image, extent)) EXPECT_EQ(texel, 0x0000ff00u);
}

// "values in imageView will be resolved to resolveImageView at the end of rendering" (VkRenderingAttachmentInfo):
// a cleared 4x multisampled attachment resolves to its clear colour.
TEST_F(ExecutionTest, DynamicRenderingResolvesAtTheEnd) {
  auto begin = reinterpret_cast<PFN_vkCmdBeginRendering>(DeviceCommand("vkCmdBeginRendering"));
  auto end = reinterpret_cast<PFN_vkCmdEndRendering>(DeviceCommand("vkCmdEndRendering"));
  ASSERT_NE(begin, nullptr);
  ASSERT_NE(end, nullptr);
  const VkExtent3D extent{4, 4, 1};
  VkImage multisampled = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, extent, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                                     VK_SAMPLE_COUNT_4_BIT);
  VkImage resolved = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, extent, 1,
                                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  VkImageView msView = CreateView(multisampled, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
  VkImageView resolvedView = CreateView(resolved, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
  Run([&](VkCommandBuffer cb) {
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = msView;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
    color.resolveImageView = resolvedView;
    color.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    color.clearValue.color.float32[2] = 1.0f;  // blue
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = {{0, 0}, {4, 4}};
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &color;
    begin(cb, &info);
    end(cb);
  });
  for (uint32_t texel : ReadBack(resolved, extent)) EXPECT_EQ(texel, 0x00ff0000u);
}

// "...at the end of each subpass, multisample resolve operations are executed" (render pass 1, pResolveAttachments),
// limited to the render area.
TEST_F(ExecutionTest, SubpassResolveAttachmentsResolveWithinTheRenderArea) {
  const VkExtent3D extent{4, 4, 1};
  VkImage multisampled = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, extent, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                                     VK_SAMPLE_COUNT_4_BIT);
  VkImage resolved = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, extent, 1,
                                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  VkImageView views[2] = {CreateView(multisampled, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT),
                          CreateView(resolved, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT)};
  VkAttachmentDescription attachments[2] = {};
  attachments[0].format = VK_FORMAT_R8G8B8A8_UNORM;
  attachments[0].samples = VK_SAMPLE_COUNT_4_BIT;
  attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[0].finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachments[1] = attachments[0];
  attachments[1].samples = VK_SAMPLE_COUNT_1_BIT;
  attachments[1].loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachments[1].initialLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  VkAttachmentReference color{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference resolve{1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color;
  subpass.pResolveAttachments = &resolve;
  VkRenderPassCreateInfo passInfo{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  passInfo.attachmentCount = 2;
  passInfo.pAttachments = attachments;
  passInfo.subpassCount = 1;
  passInfo.pSubpasses = &subpass;
  VkRenderPass pass = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateRenderPass(device_, &passInfo, nullptr, &pass), VK_SUCCESS);
  VkFramebufferCreateInfo fbInfo{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fbInfo.renderPass = pass;
  fbInfo.attachmentCount = 2;
  fbInfo.pAttachments = views;
  fbInfo.width = 4;
  fbInfo.height = 4;
  fbInfo.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateFramebuffer(device_, &fbInfo, nullptr, &framebuffer), VK_SUCCESS);
  Run([&](VkCommandBuffer cb) {
    VkClearColorValue black{};
    VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cb, resolved, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &black, 1, &range);
    VkClearValue clear{};
    clear.color.float32[0] = 1.0f;  // red
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, {2, 4}};  // the left half only
    begin.clearValueCount = 1;
    begin.pClearValues = &clear;
    vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdEndRenderPass(cb);
  });
  std::vector<uint32_t> texels = ReadBack(resolved, extent);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) EXPECT_EQ(texels[y * 4 + x], x < 2 ? 0x000000ffu : 0u) << x << ',' << y;
  vkDestroyFramebuffer(device_, framebuffer, nullptr);
  vkDestroyRenderPass(device_, pass, nullptr);
}

// A queue waiting in vkCmdWaitEvents blocks until the host sets the event; commands after it then run.
TEST_F(ExecutionTest, QueueWaitsForAnEventSetByTheHost) {
  HostBuffer* target = CreateHostBuffer(16);
  VkEventCreateInfo eventInfo{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  VkEvent hostEvent = VK_NULL_HANDLE, deviceEvent = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateEvent(device_, &eventInfo, nullptr, &hostEvent), VK_SUCCESS);
  ASSERT_EQ(vkCreateEvent(device_, &eventInfo, nullptr, &deviceEvent), VK_SUCCESS);
  EXPECT_EQ(vkGetEventStatus(device_, hostEvent), VK_EVENT_RESET);
  VkCommandBuffer cb = AllocateCommandBuffer();
  Begin(cb);
  vkCmdWaitEvents(cb, 1, &hostEvent, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0,
                  nullptr, 0, nullptr);
  vkCmdFillBuffer(cb, target->buffer, 0, 16, 0x12345678);
  vkCmdSetEvent(cb, deviceEvent, VK_PIPELINE_STAGE_TRANSFER_BIT);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  vkCreateFence(device_, &fenceInfo, nullptr, &fence);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  ASSERT_EQ(vkQueueSubmit(queues_[0].queue, 1, &submit, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, 30'000'000), VK_TIMEOUT);
  EXPECT_EQ(target->At<uint32_t>(0), 0u);
  EXPECT_EQ(vkGetEventStatus(device_, deviceEvent), VK_EVENT_RESET);
  ASSERT_EQ(vkSetEvent(device_, hostEvent), VK_SUCCESS);
  ASSERT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, 5'000'000'000ull), VK_SUCCESS);
  EXPECT_EQ(target->At<uint32_t>(0), 0x12345678u);
  EXPECT_EQ(vkGetEventStatus(device_, deviceEvent), VK_EVENT_SET);
  ASSERT_EQ(vkResetEvent(device_, deviceEvent), VK_SUCCESS);
  EXPECT_EQ(vkGetEventStatus(device_, deviceEvent), VK_EVENT_RESET);
  vkDestroyFence(device_, fence, nullptr);
  vkDestroyEvent(device_, hostEvent, nullptr);
  vkDestroyEvent(device_, deviceEvent, nullptr);
}

VkQueryPool CreateQueryPool(VkDevice device, VkQueryType type, uint32_t count, VkQueryPipelineStatisticFlags stats = 0) {
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = type;
  info.queryCount = count;
  info.pipelineStatistics = stats;
  VkQueryPool pool = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateQueryPool(device, &info, nullptr, &pool), VK_SUCCESS);
  return pool;
}

TEST_F(ExecutionTest, TimestampsAreMonotonicAndScaled) {
  VkQueryPool pool = CreateQueryPool(device_, VK_QUERY_TYPE_TIMESTAMP, 2);
  HostBuffer* copy = CreateHostBuffer(64);
  // Unavailable before anything ran: NOT_READY and, with availability, a zero availability word.
  uint64_t values[4] = {7, 7, 7, 7};
  EXPECT_EQ(vkGetQueryPoolResults(device_, pool, 0, 2, sizeof(values), values, 16,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
            VK_NOT_READY);
  EXPECT_EQ(values[0], 7u);  // no value written without PARTIAL
  EXPECT_EQ(values[1], 0u);
  Run([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 2);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
    vkCmdFillBuffer(cb, copy->buffer, 0, 64, 0);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
    vkCmdCopyQueryPoolResults(cb, pool, 0, 2, copy->buffer, 0, 16,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  });
  ASSERT_EQ(vkGetQueryPoolResults(device_, pool, 0, 2, sizeof(values), values, 16,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
                                      VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);
  EXPECT_EQ(values[1], 1u);
  EXPECT_EQ(values[3], 1u);
  EXPECT_GT(values[0], 0u);
  EXPECT_GE(values[2], values[0]);
  EXPECT_EQ(copy->At<uint64_t>(0), values[0]);
  EXPECT_EQ(copy->At<uint64_t>(16), values[2]);
  EXPECT_EQ(copy->At<uint64_t>(24), 1u);
  // 32-bit results hold the low bits.
  uint32_t narrow[2] = {};
  ASSERT_EQ(vkGetQueryPoolResults(device_, pool, 0, 1, sizeof(narrow), narrow, 8, 0), VK_SUCCESS);
  EXPECT_EQ(narrow[0], static_cast<uint32_t>(values[0]));
  vkDestroyQueryPool(device_, pool, nullptr);
}

// A compute pipeline of the corpus's saxpy.comp (64 invocations per workgroup). With no push constants it touches no
// buffer (its element count is 0), so it needs no descriptor set bound.
struct SaxpyPipeline {
  VkDevice device;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  explicit SaxpyPipeline(VkDevice d) : device(d) {
    std::ifstream file(std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/saxpy.comp.spv", std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = 2;
    setInfo.pBindings = bindings;
    EXPECT_EQ(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout), VK_SUCCESS);
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    EXPECT_EQ(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout), VK_SUCCESS);
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = bytes.size();
    moduleInfo.pCode = reinterpret_cast<const uint32_t*>(bytes.data());
    EXPECT_EQ(vkCreateShaderModule(device, &moduleInfo, nullptr, &module), VK_SUCCESS);
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.layout = layout;
    EXPECT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_SUCCESS);
  }
  ~SaxpyPipeline() {
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyShaderModule(device, module, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  }
};

TEST_F(ExecutionTest, PipelineStatisticsCountWhatWasRecorded) {
  if (!features_.pipelineStatisticsQuery) FAIL() << "pipelineStatisticsQuery is not advertised (the default device must offer it)";
  const VkQueryPipelineStatisticFlags stats = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |
                                              VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
                                              VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT |
                                              VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;
  VkQueryPool pool = CreateQueryPool(device_, VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, stats);
  VkQueryPool occlusion = CreateQueryPool(device_, VK_QUERY_TYPE_OCCLUSION, 1);
  HostBuffer* indirect = CreateHostBuffer(64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  const VkDrawIndirectCommand draw{6, 2, 0, 0};  // 12 vertices, 4 triangles
  std::memcpy(indirect->mapped, &draw, sizeof(draw));
  SaxpyPipeline saxpy(device_);
  Run([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 1);
    vkCmdResetQueryPool(cb, occlusion, 0, 1);
    vkCmdBeginQuery(cb, pool, 0, 0);
    vkCmdBeginQuery(cb, occlusion, 0, 0);
    vkCmdDraw(cb, 3, 1, 0, 0);          // 3 vertices, 1 triangle
    vkCmdDrawIndexed(cb, 9, 1, 0, 0, 0);  // 9 vertices, 3 triangles
    vkCmdDrawIndirect(cb, indirect->buffer, 0, 1, sizeof(draw));
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, saxpy.pipeline);
    vkCmdDispatch(cb, 2, 3, 4);
    vkCmdEndQuery(cb, occlusion, 0);
    vkCmdEndQuery(cb, pool, 0);
    vkCmdDraw(cb, 300, 1, 0, 0);  // after the query: not counted
  });
  uint64_t values[4] = {};
  ASSERT_EQ(vkGetQueryPoolResults(device_, pool, 0, 1, sizeof(values), values, sizeof(values), VK_QUERY_RESULT_64_BIT),
            VK_SUCCESS);
  EXPECT_EQ(values[0], 24u);  // vertices
  EXPECT_EQ(values[1], 8u);   // triangles
  EXPECT_EQ(values[2], 0u);   // nothing is rasterised
  EXPECT_EQ(values[3], 24u * 64u);  // every invocation: 24 workgroups of 64
  uint64_t samples = 99;
  ASSERT_EQ(vkGetQueryPoolResults(device_, occlusion, 0, 1, sizeof(samples), &samples, 8, VK_QUERY_RESULT_64_BIT),
            VK_SUCCESS);
  EXPECT_EQ(samples, 0u);
  // PARTIAL on an unavailable query writes an intermediate value and returns NOT_READY.
  auto hostReset = reinterpret_cast<PFN_vkResetQueryPool>(DeviceCommand("vkResetQueryPool"));
  if (hostReset != nullptr && hostReset_.hostQueryReset) {
    hostReset(device_, occlusion, 0, 1);
    uint64_t partial[2] = {99, 99};
    EXPECT_EQ(vkGetQueryPoolResults(device_, occlusion, 0, 1, sizeof(partial), partial, 16,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_PARTIAL_BIT |
                                        VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
              VK_NOT_READY);
    EXPECT_EQ(partial[0], 0u);
    EXPECT_EQ(partial[1], 0u);
  }
  vkDestroyQueryPool(device_, pool, nullptr);
  vkDestroyQueryPool(device_, occlusion, nullptr);
}

}  // namespace
}  // namespace crashtest::test
