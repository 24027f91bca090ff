// VkPipeline: a compute or graphics pipeline. It keeps, per stage, the compiled shader (IR, analyses, optimised
// SPIR-V) shared with the pipeline cache, for the statistics (VK_KHR_pipeline_executable_properties), the
// interpreter and crash dumps; the pipeline layout (referenced); the create flags; and the little fixed-function
// state that execution reads. Immutable after creation (the executables are built once, on first query).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "common/handle.h"
#include "common/object.h"
#include "device/device_description.h"
#include "pipeline/compiler.h"
#include "statistics/executable_properties.h"

namespace crashtest {

namespace execution {
struct Executable;
}

class Device;
class PipelineLayout;
CT_DEFINE_HANDLE(Pipeline, VkPipeline, VK_OBJECT_TYPE_PIPELINE);

struct PipelineStage {
  VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
  std::string entryPoint;
  std::shared_ptr<const pipeline::CompiledShader> shader;
  // VkPipelineShaderStageRequiredSubgroupSizeCreateInfo::requiredSubgroupSize (validated); 0 when none is chained,
  // so the stage runs with the device's default subgroup size. The executable's subgroupSize and the statistics
  // that depend on it (occupancy, subgroups per workgroup) use it.
  uint32_t requiredSubgroupSize = 0;
  // The executable form the interpreter runs (src/execution), built at creation; nullptr when the shader uses
  // something the interpreter does not execute yet, with the reason in executableError (its dispatches are then
  // skipped with a warning).
  std::shared_ptr<const execution::Executable> executable;
  std::string executableError;
  // The subgroup size the stage runs with: requiredSubgroupSize, else the device's subgroupSize.
  uint32_t subgroupSize = 0;
};

// What draws need later; everything else of VkGraphicsPipelineCreateInfo is validated and dropped.
struct GraphicsState {
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool primitiveRestartEnable = false;
  uint32_t patchControlPoints = 0;
  bool rasterizerDiscardEnable = false;
  VkSampleCountFlagBits rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  uint32_t sampleMask = ~0u;
  bool sampleShadingEnable = false, alphaToCoverageEnable = false, alphaToOneEnable = false;
  float minSampleShading = 0;
  std::vector<VkDynamicState> dynamicStates;
  // Render pass and subpass (the handle only identifies it: the pass may be destroyed after creation), or
  // VK_NULL_HANDLE with dynamic rendering, whose formats come from VkPipelineRenderingCreateInfo.
  VkRenderPass renderPass = VK_NULL_HANDLE;
  uint32_t subpass = 0;
  uint32_t viewMask = 0;
  std::vector<VkFormat> colorAttachmentFormats;
  VkFormat depthAttachmentFormat = VK_FORMAT_UNDEFINED;
  VkFormat stencilAttachmentFormat = VK_FORMAT_UNDEFINED;

  // The fixed-function state draws read (src/queue/graphics_draw.cpp), copied from the create info with every
  // pNext and pointer dropped; a member whose state is dynamic is overridden by the command buffer's value.
  struct VertexBinding {
    uint32_t binding = 0, stride = 0;
    VkVertexInputRate inputRate = VK_VERTEX_INPUT_RATE_VERTEX;
    uint32_t divisor = 1;  // VkPipelineVertexInputDivisorStateCreateInfoEXT
  };
  std::vector<VertexBinding> vertexBindings;
  std::vector<VkVertexInputAttributeDescription> vertexAttributes;
  std::vector<VkViewport> viewports;
  std::vector<VkRect2D> scissors;
  VkPipelineRasterizationStateCreateInfo rasterization{};  // pNext nullptr
  VkPipelineDepthStencilStateCreateInfo depthStencil{};    // pNext nullptr; all zero without depth/stencil state
  std::vector<VkPipelineColorBlendAttachmentState> blendAttachments;
  float blendConstants[4] = {0, 0, 0, 0};
  bool logicOpEnable = false;
  VkLogicOp logicOp = VK_LOGIC_OP_COPY;

  bool IsDynamic(VkDynamicState state) const;
};

class Pipeline : public Object {
 public:
  Pipeline(VkPipelineBindPoint bindPoint, VkPipelineCreateFlags flags, PipelineLayout* layout,
           std::vector<PipelineStage> stages);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  VkPipelineBindPoint bindPoint() const { return bindPoint_; }
  // Includes VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR / CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR, which
  // VK_KHR_pipeline_executable_properties reads.
  VkPipelineCreateFlags flags() const { return flags_; }
  const PipelineLayout* layout() const { return layout_; }
  // In the order of the create info's stages (pStages, or the compute stage).
  std::span<const PipelineStage> stages() const { return stages_; }
  const PipelineStage* FindStage(VkShaderStageFlagBits stage) const;
  // Compute: the workgroup size after specialisation (LocalSize, LocalSizeId or the WorkgroupSize built-in).
  const uint32_t* workgroupSize() const { return stages_.front().shader->module.entryPoint.localSize; }
  const GraphicsState& graphics() const { return graphics_; }
  void set_graphics(GraphicsState state) { graphics_ = std::move(state); }
  // Object id of the pipeline it derives from (VK_PIPELINE_CREATE_DERIVATIVE_BIT), 0 if none.
  uint64_t basePipelineId() const { return basePipelineId_; }
  void set_basePipelineId(uint64_t id) { basePipelineId_ = id; }
  // VK_KHR_pipeline_executable_properties: one executable per stage with the statistics and representations its
  // capture flags ask for, computed with the device's machine model on the first query and kept
  // (statistics/pipeline_executables.cpp). Statistics cost nothing for pipelines nobody asks about.
  std::span<const statistics::ExecutableInfo> Executables(const MachineModel& model) const;

 private:
  VkPipelineBindPoint bindPoint_;
  VkPipelineCreateFlags flags_;
  PipelineLayout* layout_;  // referenced
  std::vector<PipelineStage> stages_;
  GraphicsState graphics_;
  uint64_t basePipelineId_ = 0;
  mutable std::once_flag executablesBuilt_;
  mutable std::vector<statistics::ExecutableInfo> executables_;
};

// vkCreateComputePipelines / vkCreateGraphicsPipelines: one call creates every element it can (see
// pipeline_batch.h). `cache` may be VK_NULL_HANDLE.
VkResult CreateComputePipelines(Device& device, VkPipelineCache cache, uint32_t count,
                                const VkComputePipelineCreateInfo* infos, const VkAllocationCallbacks* allocator,
                                VkPipeline* pipelines);
VkResult CreateGraphicsPipelines(Device& device, VkPipelineCache cache, uint32_t count,
                                 const VkGraphicsPipelineCreateInfo* infos, const VkAllocationCallbacks* allocator,
                                 VkPipeline* pipelines);

}  // namespace crashtest
