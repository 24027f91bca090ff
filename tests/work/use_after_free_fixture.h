// The shared setup of the use-after-free tests through the loader (issue 18): a compute job (one corpus shader, one
// descriptor set), a draw job, images with views, and a fixture that records and submits work (pending behind an
// event when asked) and expects the use-after-free device fault.
#pragma once

#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "work_test_env.h"

namespace crashtest::test {

constexpr uint64_t kTenSeconds = 10'000'000'000ull;
constexpr VkDeviceSize kLarge = 1 << 20;  // a freed allocation this large is unmapped: reading it crashes

inline std::vector<uint32_t> ReadSpirv(const std::string& path) {
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
  ComputeJob(VkDevice d, const std::string& shader, std::vector<VkDescriptorType> bindingTypes,
             VkDescriptorPoolCreateFlags poolFlags = 0)
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
    poolInfo.flags = poolFlags;
    poolInfo.maxSets = 1;
    poolInfo.poolSizeCount = static_cast<uint32_t>(sizes.size());
    poolInfo.pPoolSizes = sizes.data();
    EXPECT_EQ(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool), VK_SUCCESS);
    EXPECT_EQ(AllocateSet(&set), VK_SUCCESS);
  }
  VkResult AllocateSet(VkDescriptorSet* out) const {
    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &setLayout};
    return vkAllocateDescriptorSets(device, &allocate, out);
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

  // The event a pending submission waits on (Release sets it).
  VkEvent PendingEvent() {
    if (event_ == VK_NULL_HANDLE) {
      VkEventCreateInfo eventInfo{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
      EXPECT_EQ(vkCreateEvent(device_, &eventInfo, nullptr, &event_), VK_SUCCESS);
    }
    return event_;
  }
  // Records a wait on PendingEvent(): what follows in the command buffer stays pending until Release().
  void WaitForRelease(VkCommandBuffer cb) {
    VkEvent event = PendingEvent();
    vkCmdWaitEvents(cb, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, nullptr, 0,
                    nullptr, 0, nullptr);
  }
  // Records `record` into a new command buffer, after a wait for Release() when `pending`.
  template <typename Record>
  VkCommandBuffer RecordCommands(Record&& record, bool pending = false) {
    VkCommandBuffer cb = AllocateCommandBuffer();
    Begin(cb);
    if (pending) WaitForRelease(cb);
    record(cb);
    EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    return cb;
  }
  // Submits `cb` with fence_ (made here) to signal.
  VkResult SubmitRecorded(VkCommandBuffer cb) {
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    EXPECT_EQ(vkCreateFence(device_, &fenceInfo, nullptr, &fence_), VK_SUCCESS);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    return vkQueueSubmit(queues_[0].queue, 1, &submit, fence_);
  }
  // Records `record` (after a wait for Release() when `pending`) and submits it.
  template <typename Record>
  VkResult Submit(Record&& record, bool pending = false) {
    return SubmitRecorded(RecordCommands(std::forward<Record>(record), pending));
  }
  // The misuse every pending-work test makes: submits `record` pending, runs `destroy` while it waits (the stderr
  // captured from there), releases it, and expects the use-after-free fault with every one of `expected` logged.
  template <typename Record, typename Destroy>
  void ExpectFaultWhenDestroyedWhilePending(Record&& record, Destroy&& destroy,
                                            std::initializer_list<const char*> expected) {
    ASSERT_EQ(Submit(std::forward<Record>(record), true), VK_SUCCESS);
    ::testing::internal::CaptureStderr();
    destroy();
    Release();
    ExpectUseAfterFree(expected);
  }
  // Destroys a host buffer's buffer (and frees its memory when `memoryToo`), or frees its memory alone.
  void DestroyBuffer(HostBuffer* buffer, bool memoryToo = false) {
    vkDestroyBuffer(device_, buffer->buffer, nullptr);
    buffer->buffer = VK_NULL_HANDLE;
    if (memoryToo) FreeMemory(buffer);
  }
  void FreeMemory(HostBuffer* buffer) {
    vkFreeMemory(device_, buffer->memory, nullptr);
    buffer->memory = VK_NULL_HANDLE;
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

}  // namespace crashtest::test
