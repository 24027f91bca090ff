// vkCreateGraphicsPipelines: the classic stages (vertex, tessellation control/evaluation, geometry, fragment),
// each compiled (or taken from the cache) and checked against the layout, plus the fixed-function state that
// draws read later. Checked here: what the spec leaves to the driver and cheap valid-usage rules (stage set,
// tessellation/topology pairing, render pass subpass, dynamic states, derivatives).
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "common/allocation.h"
#include "common/pnext.h"
#include "common/struct_types.h"
#include "descriptor/pipeline_layout.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "pipeline/creation_feedback.h"
#include "pipeline/pipeline.h"
#include "pipeline/pipeline_batch.h"
#include "pipeline/pipeline_cache.h"
#include "pipeline/pipeline_creation.h"
#include "pipeline/pipeline_stage.h"
#include "transfer/render_pass.h"

namespace crashtest {

namespace {

constexpr VkShaderStageFlags kClassicGraphicsStages = VK_SHADER_STAGE_VERTEX_BIT |
    VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT | VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT |
    VK_SHADER_STAGE_GEOMETRY_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

bool DynamicRenderingEnabled(const Device& device) {
  if (const StructBlob* blob = device.FindEnabledFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES))
    if (static_cast<const VkPhysicalDeviceVulkan13Features*>(blob->data())->dynamicRendering) return true;
  if (const StructBlob* blob = device.FindEnabledFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES))
    if (static_cast<const VkPhysicalDeviceDynamicRenderingFeatures*>(blob->data())->dynamicRendering) return true;
  return false;
}

// The stage set and the state that goes with it. Returns VK_SUCCESS or a logged misuse.
VkResult CheckStages(const Device& device, const std::string& where, const VkGraphicsPipelineCreateInfo& info,
                     VkShaderStageFlags* present) {
  *present = 0;
  if (info.stageCount == 0 || info.pStages == nullptr)
    return PipelineMisuse(where, "no shader stages", "VUID-VkGraphicsPipelineCreateInfo-stage-02096");
  for (uint32_t s = 0; s < info.stageCount; ++s) {
    VkShaderStageFlagBits stage = info.pStages[s].stage;
    if ((stage & kClassicGraphicsStages) == 0 || (stage & (stage - 1)) != 0)
      return PipelineMisuse(where, "pStages[" + std::to_string(s) + "].stage " + std::to_string(stage) +
                                       " is not a vertex, tessellation, geometry or fragment stage",
                            "VUID-VkGraphicsPipelineCreateInfo-stage-06896");
    if (*present & stage)
      return PipelineMisuse(where, std::string("two ") + StageName(stage) + " stages",
                            "VUID-VkGraphicsPipelineCreateInfo-stage-06897");
    *present |= stage;
  }
  if ((*present & VK_SHADER_STAGE_VERTEX_BIT) == 0)
    return PipelineMisuse(where, "no vertex stage", "VUID-VkGraphicsPipelineCreateInfo-stage-02096");
  bool control = *present & VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
  bool evaluation = *present & VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
  if (control && !evaluation)
    return PipelineMisuse(where, "a tessellation control stage without a tessellation evaluation stage",
                          "VUID-VkGraphicsPipelineCreateInfo-pStages-00729");
  if (evaluation && !control)
    return PipelineMisuse(where, "a tessellation evaluation stage without a tessellation control stage",
                          "VUID-VkGraphicsPipelineCreateInfo-pStages-00730");
  (void)device;
  return VK_SUCCESS;
}

VkResult ReadFixedFunctionState(const Device& device, const std::string& where,
                                const VkGraphicsPipelineCreateInfo& info, VkShaderStageFlags present,
                                GraphicsState* state) {
  if (const VkPipelineDynamicStateCreateInfo* dynamic = info.pDynamicState) {
    for (uint32_t d = 0; d < dynamic->dynamicStateCount; ++d) {
      VkDynamicState value = dynamic->pDynamicStates[d];
      if (state->IsDynamic(value))
        return PipelineMisuse(where, "dynamic state " + std::to_string(value) + " listed twice",
                              "VUID-VkPipelineDynamicStateCreateInfo-pDynamicStates-01442");
      state->dynamicStates.push_back(value);
    }
  }
  bool tessellation = present & VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
  if (info.pInputAssemblyState != nullptr) {
    state->topology = info.pInputAssemblyState->topology;
    state->primitiveRestartEnable = info.pInputAssemblyState->primitiveRestartEnable;
  } else if (!state->IsDynamic(VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY) ||
             !state->IsDynamic(VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE)) {
    return PipelineMisuse(where, "pInputAssemblyState is NULL", "VUID-VkGraphicsPipelineCreateInfo-pStages-02098");
  }
  if (!state->IsDynamic(VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY)) {
    bool patches = state->topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    if (tessellation && !patches)
      return PipelineMisuse(where, "tessellation stages with a topology other than PATCH_LIST",
                            "VUID-VkGraphicsPipelineCreateInfo-pStages-00736");
    if (!tessellation && patches)
      return PipelineMisuse(where, "topology PATCH_LIST without tessellation stages",
                            "VUID-VkGraphicsPipelineCreateInfo-topology-00737");
  }
  if (tessellation) {
    if (info.pTessellationState == nullptr)
      return PipelineMisuse(where, "tessellation stages and pTessellationState is NULL",
                            "VUID-VkGraphicsPipelineCreateInfo-pStages-00731");
    uint32_t points = info.pTessellationState->patchControlPoints;
    uint32_t limit = device.physicalDevice().description().properties.limits.maxTessellationPatchSize;
    if (points == 0 || points > limit)
      return PipelineMisuse(where, "patchControlPoints " + std::to_string(points) + " is not in 1.." +
                                       std::to_string(limit),
                            "VUID-VkPipelineTessellationStateCreateInfo-patchControlPoints-01214");
    state->patchControlPoints = points;
  }
  if (info.pRasterizationState != nullptr) {
    state->rasterizerDiscardEnable = info.pRasterizationState->rasterizerDiscardEnable;
    state->rasterization = *info.pRasterizationState;
    state->rasterization.pNext = nullptr;
  }
  if (const VkPipelineMultisampleStateCreateInfo* ms = info.pMultisampleState) {
    state->rasterizationSamples = ms->rasterizationSamples;
    // "pSampleMask is ... NULL: all bits set" (the mask has ceil(samples / 32) words; at most 32 samples here).
    state->sampleMask = ms->pSampleMask != nullptr ? ms->pSampleMask[0] : ~0u;
    state->sampleShadingEnable = ms->sampleShadingEnable == VK_TRUE;
    state->minSampleShading = ms->minSampleShading;
    state->alphaToCoverageEnable = ms->alphaToCoverageEnable == VK_TRUE;
    state->alphaToOneEnable = ms->alphaToOneEnable == VK_TRUE;
  }
  if (const VkPipelineVertexInputStateCreateInfo* input = info.pVertexInputState) {
    for (uint32_t i = 0; i < input->vertexBindingDescriptionCount && input->pVertexBindingDescriptions; ++i) {
      const VkVertexInputBindingDescription& b = input->pVertexBindingDescriptions[i];
      state->vertexBindings.push_back({b.binding, b.stride, b.inputRate, 1});
    }
    if (input->pVertexAttributeDescriptions != nullptr)
      state->vertexAttributes.assign(input->pVertexAttributeDescriptions,
                                     input->pVertexAttributeDescriptions + input->vertexAttributeDescriptionCount);
    if (const auto* divisors = FindInChain<VkPipelineVertexInputDivisorStateCreateInfoEXT>(input->pNext))
      for (uint32_t i = 0; i < divisors->vertexBindingDivisorCount && divisors->pVertexBindingDivisors; ++i)
        for (GraphicsState::VertexBinding& b : state->vertexBindings)
          if (b.binding == divisors->pVertexBindingDivisors[i].binding) b.divisor = divisors->pVertexBindingDivisors[i].divisor;
  }
  if (const VkPipelineViewportStateCreateInfo* viewport = info.pViewportState) {
    if (viewport->pViewports != nullptr)
      state->viewports.assign(viewport->pViewports, viewport->pViewports + viewport->viewportCount);
    if (viewport->pScissors != nullptr)
      state->scissors.assign(viewport->pScissors, viewport->pScissors + viewport->scissorCount);
  }
  if (info.pDepthStencilState != nullptr) {
    state->depthStencil = *info.pDepthStencilState;
    state->depthStencil.pNext = nullptr;
  }
  if (const VkPipelineColorBlendStateCreateInfo* blend = info.pColorBlendState) {
    if (blend->pAttachments != nullptr)
      state->blendAttachments.assign(blend->pAttachments, blend->pAttachments + blend->attachmentCount);
    std::copy(blend->blendConstants, blend->blendConstants + 4, state->blendConstants);
    state->logicOpEnable = blend->logicOpEnable;
    state->logicOp = blend->logicOp;
  }

  if (info.renderPass != VK_NULL_HANDLE) {
    const RenderPass& pass = *FromHandle(info.renderPass);
    if (info.subpass >= pass.subpassCount())
      return PipelineMisuse(where, "subpass " + std::to_string(info.subpass) + " of a render pass with " +
                                       std::to_string(pass.subpassCount()) + " subpasses",
                            "VUID-VkGraphicsPipelineCreateInfo-renderPass-06046");
    state->renderPass = info.renderPass;
    state->subpass = info.subpass;
    state->viewMask = pass.viewMask(info.subpass);
    auto formatOf = [&](uint32_t attachment) {
      return attachment == VK_ATTACHMENT_UNUSED ? VK_FORMAT_UNDEFINED : pass.attachments()[attachment].format;
    };
    for (const VkAttachmentReference2& colour : pass.colorAttachments(info.subpass))
      state->colorAttachmentFormats.push_back(formatOf(colour.attachment));
    VkFormat depthStencil = formatOf(pass.depthStencilAttachment(info.subpass).attachment);
    state->depthAttachmentFormat = depthStencil;
    state->stencilAttachmentFormat = depthStencil;
  } else {
    // "If renderPass is VK_NULL_HANDLE ... the dynamicRendering feature must be enabled"; the formats then come from
    // VkPipelineRenderingCreateInfo, none when it is absent.
    if (!DynamicRenderingEnabled(device))
      return PipelineMisuse(where, "renderPass is VK_NULL_HANDLE and the dynamicRendering feature is not enabled",
                            "VUID-VkGraphicsPipelineCreateInfo-dynamicRendering-06576");
    if (const auto* rendering = FindInChain<VkPipelineRenderingCreateInfo>(info.pNext)) {
      state->viewMask = rendering->viewMask;
      if (rendering->pColorAttachmentFormats != nullptr)
        state->colorAttachmentFormats.assign(rendering->pColorAttachmentFormats,
                                             rendering->pColorAttachmentFormats + rendering->colorAttachmentCount);
      state->depthAttachmentFormat = rendering->depthAttachmentFormat;
      state->stencilAttachmentFormat = rendering->stencilAttachmentFormat;
    }
  }
  return VK_SUCCESS;
}

VkResult CreateGraphicsPipeline(Device& device, PipelineCache* cache, const VkGraphicsPipelineCreateInfo* infos,
                                uint32_t index, const VkPipeline* created, const VkAllocationCallbacks* allocator,
                                VkPipeline* out) {
  auto start = std::chrono::steady_clock::now();
  const VkGraphicsPipelineCreateInfo& info = infos[index];
  std::string where = "vkCreateGraphicsPipelines: pCreateInfos[" + std::to_string(index) + "]";
  std::vector<StageCreation> creations(info.pStages != nullptr ? info.stageCount : 0);
  auto fail = [&](VkResult result) {
    WriteCreationFeedback(info.pNext, creations, 0, /*created=*/false);
    return result;
  };
  if (info.layout == VK_NULL_HANDLE)
    return fail(PipelineMisuse(where, "layout is VK_NULL_HANDLE", "VUID-VkGraphicsPipelineCreateInfo-layout-06602"));
  VkShaderStageFlags present = 0;
  if (VkResult r = CheckStages(device, where, info, &present); r != VK_SUCCESS) return fail(r);
  GraphicsState state;
  if (VkResult r = ReadFixedFunctionState(device, where, info, present, &state); r != VK_SUCCESS) return fail(r);
  uint64_t baseId = 0;
  if (VkResult r = CheckDerivative(where, infos, index, created, "VkGraphicsPipelineCreateInfo", &baseId);
      r != VK_SUCCESS)
    return fail(r);
  bool failIfCompileRequired = (info.flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) != 0;
  std::vector<PipelineStage> stages(info.stageCount);
  for (uint32_t s = 0; s < info.stageCount; ++s) {
    VkResult result = CreatePipelineStage(device, info.pStages[s], cache, failIfCompileRequired,
                                          where + ".pStages[" + std::to_string(s) + "]", &stages[s], &creations[s]);
    if (result != VK_SUCCESS) return fail(result);
  }
  return FinishPipeline(device, where, "VkGraphicsPipelineCreateInfo", info.pNext, VK_PIPELINE_BIND_POINT_GRAPHICS,
                        info.flags, *FromHandle(info.layout), std::move(stages), creations, std::move(state), baseId,
                        start, allocator, out);
}

}  // namespace

VkResult CreateGraphicsPipelines(Device& device, VkPipelineCache cache, uint32_t count,
                                 const VkGraphicsPipelineCreateInfo* infos, const VkAllocationCallbacks* allocator,
                                 VkPipeline* pipelines) {
  const VkAllocationCallbacks* chosen = ChooseAllocator(allocator, device.allocator());
  PipelineCache* pipelineCache = cache != VK_NULL_HANDLE ? FromHandle(cache) : nullptr;
  return CreatePipelineBatch("vkCreateGraphicsPipelines", count, infos, pipelines, [&](uint32_t i, VkPipeline* out) {
    return CreateGraphicsPipeline(device, pipelineCache, infos, i, pipelines, chosen, out);
  });
}

}  // namespace crashtest
