// Destroying images, views, samplers and buffers that draws and dispatches use (issue 18), through the real loader.
// A GPU answers a use after free with a page fault, not a crashed process: the queue raises a device fault
// (READ_INVALID / WRITE_INVALID at the resource's address, described as a use after free) when a command — a
// copy, blit or clear of an image, a dispatch or draw whose descriptors name it, a draw's vertex, index or
// indirect buffer, a render pass instance's attachments — reaches a destroyed resource or one whose memory was
// freed, and never reads freed host memory. Before, each of these read freed memory (ASan: heap-use-after-free;
// plain builds: a crash or a silently successful submission).
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "work_test_env.h"

namespace crashtest::test {
namespace {

constexpr uint64_t kTenSeconds = 10'000'000'000ull;
constexpr VkDeviceSize kLarge = 1 << 20;  // a freed allocation this large is unmapped: reading it crashes

std::vector<uint32_t> ReadSpirv(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

struct ImageResource {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};

// A compute pipeline of one corpus shader with one descriptor set of the given types (bindings 0, 1, ...), and
// an 8-byte push-constant range.
struct ComputeJob {
  VkDevice device;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  std::vector<VkDescriptorType> types;
  ComputeJob(VkDevice d, const std::string& shader, std::vector<VkDescriptorType> bindingTypes)
      : device(d), types(std::move(bindingTypes)) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    std::vector<VkDescriptorPoolSize> sizes;
    for (uint32_t i = 0; i < types.size(); ++i) {
      bindings.push_back({i, types[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
      sizes.push_back({types[i], 1});
    }
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = static_cast<uint32_t>(bindings.size());
    setInfo.pBindings = bindings.data();
    EXPECT_EQ(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout), VK_SUCCESS);
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    EXPECT_EQ(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout), VK_SUCCESS);
    const std::vector<uint32_t> words = ReadSpirv(std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/" + shader + ".spv");
    EXPECT_FALSE(words.empty()) << shader;
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = words.size() * 4;
    moduleInfo.pCode = words.data();
    EXPECT_EQ(vkCreateShaderModule(device, &moduleInfo, nullptr, &module), VK_SUCCESS);
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.layout = layout;
    EXPECT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_SUCCESS);
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = 1;
    poolInfo.poolSizeCount = static_cast<uint32_t>(sizes.size());
    poolInfo.pPoolSizes = sizes.data();
    EXPECT_EQ(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool), VK_SUCCESS);
    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &setLayout};
    EXPECT_EQ(vkAllocateDescriptorSets(device, &allocate, &set), VK_SUCCESS);
  }
  void Write(uint32_t binding, const VkDescriptorBufferInfo* buffer, const VkDescriptorImageInfo* image,
             const VkBufferView* texel) const {
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.dstBinding = binding;
    write.descriptorCount = 1;
    write.descriptorType = types[binding];
    write.pBufferInfo = buffer;
    write.pImageInfo = image;
    write.pTexelBufferView = texel;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
  }
  void WriteBuffer(uint32_t binding, VkBuffer buffer) const {
    VkDescriptorBufferInfo info{buffer, 0, VK_WHOLE_SIZE};
    Write(binding, &info, nullptr, nullptr);
  }
  void WriteImage(uint32_t binding, VkImageView view, VkSampler sampler, VkImageLayout layout) const {
    VkDescriptorImageInfo info{sampler, view, layout};
    Write(binding, nullptr, &info, nullptr);
  }
  void WriteTexelBuffer(uint32_t binding, VkBufferView view) const { Write(binding, nullptr, nullptr, &view); }
  // Binds the pipeline and the set and pushes `n` (saxpy's element count, after its factor 1.0).
  void Bind(VkCommandBuffer cb, uint32_t n) const {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    const struct {
      float a;
      uint32_t n;
    } push{1.0f, n};
    vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  }
  ~ComputeJob() {
    vkDestroyDescriptorPool(device, pool, nullptr);
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyShaderModule(device, module, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  }
};

// A graphics pipeline of tests/raster/shaders/color.vert alone (no fragment shader: the draw only rasterises),
// with position and colour interleaved in vertex binding 0, drawing into one RGBA8 colour attachment with dynamic
// rendering.
struct DrawJob {
  VkDevice device;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  explicit DrawJob(VkDevice d) : device(d) {
    VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT, 0, 16};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    EXPECT_EQ(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout), VK_SUCCESS);
    const std::vector<uint32_t> words = ReadSpirv(std::string(CRASHTEST_WORK_SHADER_DIR) + "/color.vert.spv");
    EXPECT_FALSE(words.empty());
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = words.size() * 4;
    moduleInfo.pCode = words.data();
    EXPECT_EQ(vkCreateShaderModule(device, &moduleInfo, nullptr, &module), VK_SUCCESS);
    VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    stage.stage = VK_SHADER_STAGE_VERTEX_BIT;
    stage.module = module;
    stage.pName = "main";
    VkVertexInputBindingDescription binding{0, 32, VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                                                       {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
    VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vertexInput.vertexBindingDescriptionCount = 1;
    vertexInput.pVertexBindingDescriptions = &binding;
    vertexInput.vertexAttributeDescriptionCount = 2;
    vertexInput.pVertexAttributeDescriptions = attributes;
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkViewport viewport{0, 0, 16, 16, 0, 1};
    VkRect2D scissor{{0, 0}, {16, 16}};
    VkPipelineViewportStateCreateInfo viewportState{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewportState.viewportCount = 1;
    viewportState.pViewports = &viewport;
    viewportState.scissorCount = 1;
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
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &format;
    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    info.stageCount = 1;
    info.pStages = &stage;
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewportState;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pColorBlendState = &blend;
    info.layout = layout;
    EXPECT_EQ(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_SUCCESS);
  }
  ~DrawJob() {
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyShaderModule(device, module, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
  }
};

class UseAfterFreeResourcesTest : public WorkTest {
 protected:
  void TearDown() override {
    if (device_ != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(device_);
      for (ImageResource& r : images_) {
        if (r.view != VK_NULL_HANDLE) vkDestroyImageView(device_, r.view, nullptr);
        if (r.image != VK_NULL_HANDLE) vkDestroyImage(device_, r.image, nullptr);
        if (r.memory != VK_NULL_HANDLE) vkFreeMemory(device_, r.memory, nullptr);
      }
      if (fence_ != VK_NULL_HANDLE) vkDestroyFence(device_, fence_, nullptr);
      if (event_ != VK_NULL_HANDLE) vkDestroyEvent(device_, event_, nullptr);
    }
    WorkTest::TearDown();
  }

  // A 2D image bound to its own memory, with a view of it.
  ImageResource* CreateImage(VkFormat format, uint32_t width, uint32_t height, VkImageUsageFlags usage) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {width, height, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    ImageResource r;
    EXPECT_EQ(vkCreateImage(device_, &info, nullptr, &r.image), VK_SUCCESS);
    VkMemoryRequirements requirements{};
    vkGetImageMemoryRequirements(device_, r.image, &requirements);
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = static_cast<uint32_t>(__builtin_ctz(requirements.memoryTypeBits));
    EXPECT_EQ(vkAllocateMemory(device_, &allocate, nullptr, &r.memory), VK_SUCCESS);
    EXPECT_EQ(vkBindImageMemory(device_, r.image, r.memory, 0), VK_SUCCESS);
    VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    viewInfo.image = r.image;
    viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D;
    viewInfo.format = format;
    viewInfo.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    EXPECT_EQ(vkCreateImageView(device_, &viewInfo, nullptr, &r.view), VK_SUCCESS);
    images_.push_back(r);
    return &images_.back();
  }

  VkSampler CreateSampler() {
    VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    VkSampler sampler = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSampler(device_, &info, nullptr, &sampler), VK_SUCCESS);
    return sampler;
  }

  VkBufferView CreateBufferView(VkBuffer buffer) {
    VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    info.buffer = buffer;
    info.format = VK_FORMAT_R32G32B32A32_SFLOAT;
    info.range = VK_WHOLE_SIZE;
    VkBufferView view = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateBufferView(device_, &info, nullptr, &view), VK_SUCCESS);
    return view;
  }

  // Records `record` into a command buffer, after a wait on an event when `pending` (the submission then stays
  // pending until Release()).
  template <typename Record>
  VkResult Submit(Record&& record, bool pending = false) {
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    EXPECT_EQ(vkCreateFence(device_, &fenceInfo, nullptr, &fence_), VK_SUCCESS);
    VkCommandBuffer cb = AllocateCommandBuffer();
    Begin(cb);
    if (pending) {
      VkEventCreateInfo eventInfo{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
      EXPECT_EQ(vkCreateEvent(device_, &eventInfo, nullptr, &event_), VK_SUCCESS);
      vkCmdWaitEvents(cb, 1, &event_, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, nullptr, 0,
                      nullptr, 0, nullptr);
    }
    record(cb);
    EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    return vkQueueSubmit(queues_[0].queue, 1, &submit, fence_);
  }
  void Release() { ASSERT_EQ(vkSetEvent(device_, event_), VK_SUCCESS); }

  // Waits for the submission: the device must be lost with a use-after-free report whose log names every one of
  // `expected`.
  void ExpectUseAfterFree(std::initializer_list<const char*> expected) {
    EXPECT_EQ(vkWaitForFences(device_, 1, &fence_, VK_TRUE, kTenSeconds), VK_ERROR_DEVICE_LOST);
    vkDeviceWaitIdle(device_);
    const std::string log = ::testing::internal::GetCapturedStderr();
    for (const char* text : expected) EXPECT_NE(log.find(text), std::string::npos) << text << "\n" << log;
  }

  void BeginRendering(VkCommandBuffer cb, VkImageView view) {
    auto begin = reinterpret_cast<PFN_vkCmdBeginRendering>(DeviceCommand("vkCmdBeginRendering"));
    ASSERT_NE(begin, nullptr);
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = view;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = {{0, 0}, {16, 16}};
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &color;
    begin(cb, &info);
  }
  void EndRendering(VkCommandBuffer cb) {
    auto end = reinterpret_cast<PFN_vkCmdEndRendering>(DeviceCommand("vkCmdEndRendering"));
    ASSERT_NE(end, nullptr);
    end(cb);
  }
  // One triangle's vertices (position, colour) in a vertex buffer of `size` bytes.
  HostBuffer* Triangle(VkDeviceSize size = 96) {
    HostBuffer* vertices = CreateHostBuffer(size, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    const float data[24] = {-1, -1, 0, 1, 1, 0, 0, 1, 1, -1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
    std::memcpy(vertices->mapped, data, sizeof data);
    return vertices;
  }
  // Records a draw of `job` into a 16x16 attachment, with the vertex buffer bound and `draw` recording the draw.
  template <typename Draw>
  void RecordDraw(VkCommandBuffer cb, const DrawJob& job, VkBuffer vertices, Draw&& draw) {
    ImageResource* target = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    BeginRendering(cb, target->view);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, job.pipeline);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vertices, &offset);
    draw(cb);
    EndRendering(cb);
  }

  std::vector<ImageResource> images_;  // reserved: the tests hand out pointers into it
  VkFence fence_ = VK_NULL_HANDLE;
  VkEvent event_ = VK_NULL_HANDLE;

 public:
  UseAfterFreeResourcesTest() { images_.reserve(8); }
};

// --- Transfers of images ---

// The source image of a copy was destroyed before the submission (its object freed at once before).
TEST_F(UseAfterFreeResourcesTest, CopyingFromADestroyedImageRaisesAReadFault) {
  ImageResource* image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  HostBuffer* readback = CreateHostBuffer(256);
  VkCommandBuffer cb = AllocateCommandBuffer();
  Begin(cb);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {8, 8, 1};
  vkCmdCopyImageToBuffer(cb, image->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback->buffer, 1, &region);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  vkDestroyImageView(device_, image->view, nullptr);
  vkDestroyImage(device_, image->image, nullptr);
  image->view = VK_NULL_HANDLE;
  image->image = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  ASSERT_EQ(vkCreateFence(device_, &fenceInfo, nullptr, &fence_), VK_SUCCESS);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  ASSERT_EQ(vkQueueSubmit(queues_[0].queue, 1, &submit, fence_), VK_SUCCESS);
  ExpectUseAfterFree({"use after free: read of image", "VUID-vkDestroyImage-image-01000"});
}

// The memory under a cleared image was freed before the submission (unmapped: the clear crashed before).
TEST_F(UseAfterFreeResourcesTest, ClearingAnImageWhoseMemoryWasFreedRaisesAWriteFault) {
  ImageResource* image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 512, 512, VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  vkFreeMemory(device_, image->memory, nullptr);
  image->memory = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(Submit([&](VkCommandBuffer cb) {
              VkClearColorValue white{{1, 1, 1, 1}};
              VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
              vkCmdClearColorImage(cb, image->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &white, 1, &all);
            }),
            VK_SUCCESS);
  ExpectUseAfterFree({"use after free: write of image", "VUID-vkFreeMemory-memory-00677"});
}

// The destination of a pending blit is destroyed while the submission waits (freed under the worker before).
TEST_F(UseAfterFreeResourcesTest, DestroyingTheDestinationOfAPendingBlitRaisesAWriteFault) {
  ImageResource* src = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  ImageResource* dst = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  ASSERT_EQ(Submit(
                [&](VkCommandBuffer cb) {
                  VkImageBlit blit{};
                  blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
                  blit.srcOffsets[1] = blit.dstOffsets[1] = {8, 8, 1};
                  vkCmdBlitImage(cb, src->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst->image,
                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
                },
                true),
            VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  vkDestroyImageView(device_, dst->view, nullptr);
  vkDestroyImage(device_, dst->image, nullptr);
  vkFreeMemory(device_, dst->memory, nullptr);
  *dst = ImageResource{};
  Release();
  ExpectUseAfterFree({"use after free: write of image", "VUID-vkDestroyImage-image-01000"});
}

// --- Descriptors of dispatches ---

// A storage buffer a dispatch's descriptor names was destroyed before the submission.
TEST_F(UseAfterFreeResourcesTest, DispatchingWithADestroyedStorageBufferRaisesAFault) {
  ComputeJob saxpy(device_, "saxpy.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  HostBuffer* x = CreateHostBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  HostBuffer* y = CreateHostBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  saxpy.WriteBuffer(0, x->buffer);
  saxpy.WriteBuffer(1, y->buffer);
  VkCommandBuffer cb = AllocateCommandBuffer();
  Begin(cb);
  saxpy.Bind(cb, 64);
  vkCmdDispatch(cb, 1, 1, 1);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  vkDestroyBuffer(device_, y->buffer, nullptr);
  y->buffer = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  ASSERT_EQ(vkCreateFence(device_, &fenceInfo, nullptr, &fence_), VK_SUCCESS);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  ASSERT_EQ(vkQueueSubmit(queues_[0].queue, 1, &submit, fence_), VK_SUCCESS);
  ExpectUseAfterFree({"use after free: read of buffer", "VUID-vkDestroyBuffer-buffer-00922", "(vkCmdDispatch)"});
}

// The memory under a dispatch's storage buffer was freed (unmapped: the shader's reads crashed before).
TEST_F(UseAfterFreeResourcesTest, DispatchingWithADescriptorWhoseMemoryWasFreedRaisesAFault) {
  ComputeJob saxpy(device_, "saxpy.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  HostBuffer* x = CreateHostBuffer(kLarge, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  HostBuffer* y = CreateHostBuffer(kLarge, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  saxpy.WriteBuffer(0, x->buffer);
  saxpy.WriteBuffer(1, y->buffer);
  vkFreeMemory(device_, x->memory, nullptr);
  x->memory = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(Submit([&](VkCommandBuffer cb) {
              saxpy.Bind(cb, static_cast<uint32_t>(kLarge / 4));
              vkCmdDispatch(cb, static_cast<uint32_t>(kLarge / 4 / 64), 1, 1);
            }),
            VK_SUCCESS);
  ExpectUseAfterFree({"use after free: read of buffer", "VUID-vkFreeMemory-memory-00677"});
}

// The sampled image view, the image under a live view, and the sampler of a combined image sampler, each destroyed
// before the submission.
class SampledDescriptorTest : public UseAfterFreeResourcesTest {
 protected:
  enum class Destroy { kView, kImage, kSampler };
  void RunBlur(Destroy what, std::initializer_list<const char*> expected) {
    ComputeJob blur(device_, "image_blur_sampled.comp",
                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE});
    ImageResource* src = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_USAGE_SAMPLED_BIT);
    ImageResource* dst = CreateImage(VK_FORMAT_R32G32B32A32_SFLOAT, 8, 8, VK_IMAGE_USAGE_STORAGE_BIT);
    VkSampler sampler = CreateSampler();
    blur.WriteImage(0, src->view, sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    blur.WriteImage(1, dst->view, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL);
    VkCommandBuffer cb = AllocateCommandBuffer();
    Begin(cb);
    blur.Bind(cb, 0);
    vkCmdDispatch(cb, 1, 1, 1);
    ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    if (what == Destroy::kView) {
      vkDestroyImageView(device_, src->view, nullptr);
      src->view = VK_NULL_HANDLE;
    } else if (what == Destroy::kImage) {
      vkDestroyImage(device_, src->image, nullptr);
      src->image = VK_NULL_HANDLE;
    } else {
      vkDestroySampler(device_, sampler, nullptr);
      sampler = VK_NULL_HANDLE;
    }
    ::testing::internal::CaptureStderr();
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    ASSERT_EQ(vkCreateFence(device_, &fenceInfo, nullptr, &fence_), VK_SUCCESS);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    ASSERT_EQ(vkQueueSubmit(queues_[0].queue, 1, &submit, fence_), VK_SUCCESS);
    ExpectUseAfterFree(expected);
    if (sampler != VK_NULL_HANDLE) vkDestroySampler(device_, sampler, nullptr);
  }
};

TEST_F(SampledDescriptorTest, SamplingADestroyedImageViewRaisesAFault) {
  RunBlur(Destroy::kView, {"use after free: read of image view", "VUID-vkDestroyImageView-imageView-01026"});
}

TEST_F(SampledDescriptorTest, SamplingThroughAViewWhoseImageWasDestroyedRaisesAFault) {
  RunBlur(Destroy::kImage, {"use after free: read of image", "(through image view", "VUID-vkDestroyImage-image-01000"});
}

TEST_F(SampledDescriptorTest, SamplingWithADestroyedSamplerRaisesAFault) {
  RunBlur(Destroy::kSampler, {"use after free: read of sampler", "VUID-vkDestroySampler-sampler-01082"});
}

// A storage texel buffer's view destroyed while the dispatch is pending (freed under the worker before).
TEST_F(UseAfterFreeResourcesTest, DestroyingAPendingTexelBufferViewRaisesAFault) {
  ComputeJob texels(device_, "texel_buffers.comp",
                    {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER});
  HostBuffer* lut = CreateHostBuffer(256, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  HostBuffer* values = CreateHostBuffer(1024, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
  VkBufferView lutView = CreateBufferView(lut->buffer);
  VkBufferView valuesView = CreateBufferView(values->buffer);
  texels.WriteTexelBuffer(0, lutView);
  texels.WriteTexelBuffer(1, valuesView);
  ASSERT_EQ(Submit(
                [&](VkCommandBuffer cb) {
                  texels.Bind(cb, 0);
                  vkCmdDispatch(cb, 1, 1, 1);
                },
                true),
            VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  vkDestroyBufferView(device_, valuesView, nullptr);
  Release();
  ExpectUseAfterFree({"use after free: read of buffer view", "VUID-vkDestroyBufferView-bufferView-00936"});
  vkDestroyBufferView(device_, lutView, nullptr);
}

// --- Vertex, index and indirect buffers, attachments ---

TEST_F(UseAfterFreeResourcesTest, DrawingFromADestroyedVertexBufferRaisesAFault) {
  DrawJob job(device_);
  HostBuffer* vertices = Triangle();
  ASSERT_EQ(Submit(
                [&](VkCommandBuffer cb) {
                  RecordDraw(cb, job, vertices->buffer, [](VkCommandBuffer c) { vkCmdDraw(c, 3, 1, 0, 0); });
                },
                true),
            VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  vkDestroyBuffer(device_, vertices->buffer, nullptr);
  vertices->buffer = VK_NULL_HANDLE;
  Release();
  ExpectUseAfterFree({"use after free: read of buffer", "VUID-vkDestroyBuffer-buffer-00922", "(vkCmdDraw)"});
}

// The index buffer's memory is freed while the draw is pending. (Freed before the recording, a later allocation
// may reuse the memory object's address, and the stale handle is then not recognisable: live_objects.h.)
TEST_F(UseAfterFreeResourcesTest, DrawingWithAnIndexBufferWhoseMemoryWasFreedRaisesAFault) {
  DrawJob job(device_);
  HostBuffer* vertices = Triangle();
  HostBuffer* indices = CreateHostBuffer(kLarge, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  ASSERT_EQ(Submit(
                [&](VkCommandBuffer cb) {
                  RecordDraw(cb, job, vertices->buffer, [&](VkCommandBuffer c) {
                    vkCmdBindIndexBuffer(c, indices->buffer, 0, VK_INDEX_TYPE_UINT32);
                    vkCmdDrawIndexed(c, 3 * 1000, 1, 0, 0, 0);
                  });
                },
                true),
            VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  vkFreeMemory(device_, indices->memory, nullptr);
  indices->memory = VK_NULL_HANDLE;
  Release();
  ExpectUseAfterFree({"use after free: read of buffer", "VUID-vkFreeMemory-memory-00677", "(vkCmdDrawIndexed)"});
}

TEST_F(UseAfterFreeResourcesTest, DrawingWithADestroyedIndirectBufferRaisesAFault) {
  DrawJob job(device_);
  HostBuffer* vertices = Triangle();
  HostBuffer* indirect = CreateHostBuffer(64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  const VkDrawIndirectCommand command{3, 1, 0, 0};
  std::memcpy(indirect->mapped, &command, sizeof command);
  ASSERT_EQ(Submit(
                [&](VkCommandBuffer cb) {
                  RecordDraw(cb, job, vertices->buffer,
                             [&](VkCommandBuffer c) { vkCmdDrawIndirect(c, indirect->buffer, 0, 1, 16); });
                },
                true),
            VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  vkDestroyBuffer(device_, indirect->buffer, nullptr);
  indirect->buffer = VK_NULL_HANDLE;
  Release();
  ExpectUseAfterFree({"use after free: read of buffer", "VUID-vkDestroyBuffer-buffer-00922", "(vkCmdDrawIndirect)"});
}

TEST_F(UseAfterFreeResourcesTest, DispatchingWithADestroyedIndirectBufferRaisesAFault) {
  ComputeJob saxpy(device_, "saxpy.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  HostBuffer* x = CreateHostBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  HostBuffer* y = CreateHostBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  HostBuffer* indirect = CreateHostBuffer(64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  const VkDispatchIndirectCommand groups{1, 1, 1};
  std::memcpy(indirect->mapped, &groups, sizeof groups);
  saxpy.WriteBuffer(0, x->buffer);
  saxpy.WriteBuffer(1, y->buffer);
  ASSERT_EQ(Submit(
                [&](VkCommandBuffer cb) {
                  saxpy.Bind(cb, 64);
                  vkCmdDispatchIndirect(cb, indirect->buffer, 0);
                },
                true),
            VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  vkDestroyBuffer(device_, indirect->buffer, nullptr);
  indirect->buffer = VK_NULL_HANDLE;
  Release();
  ExpectUseAfterFree({"use after free: read of buffer", "(vkCmdDispatchIndirect)"});
}

// The colour attachment's view was destroyed before the submission: the render pass instance faults as it begins.
TEST_F(UseAfterFreeResourcesTest, RenderingIntoADestroyedAttachmentRaisesAWriteFault) {
  ImageResource* target = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
  VkCommandBuffer cb = AllocateCommandBuffer();
  Begin(cb);
  BeginRendering(cb, target->view);
  EndRendering(cb);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  vkDestroyImageView(device_, target->view, nullptr);
  target->view = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  ASSERT_EQ(vkCreateFence(device_, &fenceInfo, nullptr, &fence_), VK_SUCCESS);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  ASSERT_EQ(vkQueueSubmit(queues_[0].queue, 1, &submit, fence_), VK_SUCCESS);
  ExpectUseAfterFree({"use after free: write of image view", "VUID-vkDestroyImageView-imageView-01026"});
}

// Destroying an image, an image view, a buffer view or a sampler twice (a double free before).
TEST_F(UseAfterFreeResourcesTest, DoubleDestructionOfImagesViewsAndSamplersIsLoggedAndIgnored) {
  ImageResource* image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_USAGE_SAMPLED_BIT);
  HostBuffer* texels = CreateHostBuffer(256, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  VkBufferView bufferView = CreateBufferView(texels->buffer);
  VkSampler sampler = CreateSampler();
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 2; ++i) {
    vkDestroyImageView(device_, image->view, nullptr);
    vkDestroyImage(device_, image->image, nullptr);
    vkDestroyBufferView(device_, bufferView, nullptr);
    vkDestroySampler(device_, sampler, nullptr);
  }
  image->view = VK_NULL_HANDLE;
  image->image = VK_NULL_HANDLE;
  const std::string log = ::testing::internal::GetCapturedStderr();
  for (const char* vuid : {"VUID-vkDestroyImageView-imageView-parameter", "VUID-vkDestroyImage-image-parameter",
                           "VUID-vkDestroyBufferView-bufferView-parameter", "VUID-vkDestroySampler-sampler-parameter"})
    EXPECT_NE(log.find(vuid), std::string::npos) << vuid << "\n" << log;
  // The device still works.
  HostBuffer* a = CreateHostBuffer(256);
  HostBuffer* b = CreateHostBuffer(256);
  std::memset(a->mapped, 0x5a, 256);
  Run([&](VkCommandBuffer cb) {
    VkBufferCopy region{0, 0, 256};
    vkCmdCopyBuffer(cb, a->buffer, b->buffer, 1, &region);
  });
  EXPECT_EQ(b->At<uint8_t>(255), 0x5a);
}

}  // namespace
}  // namespace crashtest::test
