#include "device/feature_requirements.h"

namespace crashtest {
namespace {

using F = std::string_view;
constexpr uint32_t kAny = 0;
constexpr uint32_t k11 = VK_API_VERSION_1_1, k12 = VK_API_VERSION_1_2, k13 = VK_API_VERSION_1_3;

// Conditions and requirement lists, named after what they hold.
#define CT_ONE(NAME, VALUE) constexpr F NAME[] = {VALUE};
CT_ONE(kRobustBufferAccess, "VkPhysicalDeviceFeatures.robustBufferAccess")
CT_ONE(kMultiview, "VkPhysicalDeviceMultiviewFeatures.multiview")
CT_ONE(kShaderDrawParameters, "VkPhysicalDeviceShaderDrawParametersFeatures.shaderDrawParameters")
CT_ONE(kUniformBufferStandardLayout, "VkPhysicalDeviceUniformBufferStandardLayoutFeatures.uniformBufferStandardLayout")
CT_ONE(kVariablePointersStorageBuffer, "VkPhysicalDeviceVariablePointersFeatures.variablePointersStorageBuffer")
CT_ONE(kStorageBuffer8, "VkPhysicalDevice8BitStorageFeatures.storageBuffer8BitAccess")
CT_ONE(kUniformAndStorageBuffer8, "VkPhysicalDevice8BitStorageFeatures.uniformAndStorageBuffer8BitAccess")
CT_ONE(kStorageBuffer16, "VkPhysicalDevice16BitStorageFeatures.storageBuffer16BitAccess")
CT_ONE(kUniformAndStorageBuffer16, "VkPhysicalDevice16BitStorageFeatures.uniformAndStorageBuffer16BitAccess")
CT_ONE(kDescriptorIndexing, "VkPhysicalDeviceVulkan12Features.descriptorIndexing")
CT_ONE(kInlineUniformBlock, "VkPhysicalDeviceInlineUniformBlockFeatures.inlineUniformBlock")
CT_ONE(kInlineUniformBlockUpdateAfterBind,
       "VkPhysicalDeviceInlineUniformBlockFeatures.descriptorBindingInlineUniformBlockUpdateAfterBind")
CT_ONE(kScalarBlockLayout, "VkPhysicalDeviceScalarBlockLayoutFeatures.scalarBlockLayout")
CT_ONE(kSamplerMirrorClampToEdge, "VkPhysicalDeviceVulkan12Features.samplerMirrorClampToEdge")
CT_ONE(kDrawIndirectCount, "VkPhysicalDeviceVulkan12Features.drawIndirectCount")
CT_ONE(kSamplerFilterMinmax, "VkPhysicalDeviceVulkan12Features.samplerFilterMinmax")
CT_ONE(kImagelessFramebuffer, "VkPhysicalDeviceImagelessFramebufferFeatures.imagelessFramebuffer")
CT_ONE(kSeparateDepthStencilLayouts, "VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures.separateDepthStencilLayouts")
CT_ONE(kHostQueryReset, "VkPhysicalDeviceHostQueryResetFeatures.hostQueryReset")
CT_ONE(kTimelineSemaphore, "VkPhysicalDeviceTimelineSemaphoreFeatures.timelineSemaphore")
CT_ONE(kPipelineCreationCacheControl,
       "VkPhysicalDevicePipelineCreationCacheControlFeatures.pipelineCreationCacheControl")
CT_ONE(kShaderSubgroupExtendedTypes,
       "VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes")
CT_ONE(kSamplerYcbcrConversion, "VkPhysicalDeviceSamplerYcbcrConversionFeatures.samplerYcbcrConversion")
CT_ONE(kPipelineExecutableInfo, "VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR.pipelineExecutableInfo")
CT_ONE(kShaderDemote, "VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures.shaderDemoteToHelperInvocation")
CT_ONE(kTexelBufferAlignment, "VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT.texelBufferAlignment")
CT_ONE(kVulkanMemoryModelOnly, "VkPhysicalDeviceVulkanMemoryModelFeatures.vulkanMemoryModel")
CT_ONE(kBufferDeviceAddress, "VkPhysicalDeviceBufferDeviceAddressFeatures.bufferDeviceAddress")
CT_ONE(kShaderSubgroupClock, "VkPhysicalDeviceShaderClockFeaturesKHR.shaderSubgroupClock")
CT_ONE(kShaderBufferInt64Atomics, "VkPhysicalDeviceShaderAtomicInt64Features.shaderBufferInt64Atomics")
CT_ONE(kShaderSharedInt64Atomics, "VkPhysicalDeviceShaderAtomicInt64Features.shaderSharedInt64Atomics")
CT_ONE(kShaderInt64, "VkPhysicalDeviceFeatures.shaderInt64")
CT_ONE(kRobustImageAccess, "VkPhysicalDeviceImageRobustnessFeatures.robustImageAccess")
CT_ONE(kShaderImageFloat32Atomics, "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderImageFloat32Atomics")
CT_ONE(kSparseImageFloat32Atomics, "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.sparseImageFloat32Atomics")
CT_ONE(kShaderImageFloat32AtomicAdd, "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderImageFloat32AtomicAdd")
CT_ONE(kSparseImageFloat32AtomicAdd, "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.sparseImageFloat32AtomicAdd")
CT_ONE(kShaderImageFloat32AtomicMinMax,
       "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT.shaderImageFloat32AtomicMinMax")
CT_ONE(kSparseImageFloat32AtomicMinMax,
       "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT.sparseImageFloat32AtomicMinMax")
CT_ONE(kShaderTerminateInvocation, "VkPhysicalDeviceShaderTerminateInvocationFeatures.shaderTerminateInvocation")
CT_ONE(kZeroInitializeWorkgroupMemory,
       "VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory")
CT_ONE(kSynchronization2, "VkPhysicalDeviceSynchronization2Features.synchronization2")
CT_ONE(kShaderIntegerDotProduct, "VkPhysicalDeviceShaderIntegerDotProductFeatures.shaderIntegerDotProduct")
CT_ONE(kMaintenance4, "VkPhysicalDeviceMaintenance4Features.maintenance4")
CT_ONE(kPrivateData, "VkPhysicalDevicePrivateDataFeatures.privateData")
CT_ONE(kDynamicRendering, "VkPhysicalDeviceDynamicRenderingFeatures.dynamicRendering")
CT_ONE(kNonSeamlessCubeMap, "VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT.nonSeamlessCubeMap")
CT_ONE(kDeviceFault, "VkPhysicalDeviceFaultFeaturesEXT.deviceFault")
CT_ONE(kIndexTypeUint8, "VkPhysicalDeviceIndexTypeUint8FeaturesEXT.indexTypeUint8")
#undef CT_ONE

constexpr F kVersion12[] = {
    "VkPhysicalDeviceVulkan12Features.subgroupBroadcastDynamicId",
    "VkPhysicalDeviceImagelessFramebufferFeatures.imagelessFramebuffer",
    "VkPhysicalDeviceUniformBufferStandardLayoutFeatures.uniformBufferStandardLayout",
    "VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes",
    "VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures.separateDepthStencilLayouts",
    "VkPhysicalDeviceHostQueryResetFeatures.hostQueryReset",
    "VkPhysicalDeviceTimelineSemaphoreFeatures.timelineSemaphore",
};
constexpr F kVersion13[] = {
    "VkPhysicalDeviceVulkanMemoryModelFeatures.vulkanMemoryModel",
    "VkPhysicalDeviceVulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope",
    "VkPhysicalDeviceBufferDeviceAddressFeatures.bufferDeviceAddress",
    "VkPhysicalDeviceImageRobustnessFeatures.robustImageAccess",
    "VkPhysicalDeviceInlineUniformBlockFeatures.inlineUniformBlock",
    "VkPhysicalDevicePipelineCreationCacheControlFeatures.pipelineCreationCacheControl",
    "VkPhysicalDevicePrivateDataFeatures.privateData",
    "VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures.shaderDemoteToHelperInvocation",
    "VkPhysicalDeviceShaderTerminateInvocationFeatures.shaderTerminateInvocation",
    "VkPhysicalDeviceSubgroupSizeControlFeatures.subgroupSizeControl",
    "VkPhysicalDeviceSubgroupSizeControlFeatures.computeFullSubgroups",
    "VkPhysicalDeviceSynchronization2Features.synchronization2",
    "VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory",
    "VkPhysicalDeviceDynamicRenderingFeatures.dynamicRendering",
    "VkPhysicalDeviceShaderIntegerDotProductFeatures.shaderIntegerDotProduct",
    "VkPhysicalDeviceMaintenance4Features.maintenance4",
};

// "If the descriptorIndexing feature is supported, or if the VK_EXT_descriptor_indexing extension is supported":
// the minimum set of descriptor indexing features (update-after-bind of every non-uniform-buffer type included).
constexpr F kDescriptorIndexingSet[] = {
    "VkPhysicalDeviceFeatures.shaderSampledImageArrayDynamicIndexing",
    "VkPhysicalDeviceFeatures.shaderStorageBufferArrayDynamicIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.shaderUniformTexelBufferArrayDynamicIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.shaderStorageTexelBufferArrayDynamicIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.shaderSampledImageArrayNonUniformIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.shaderStorageBufferArrayNonUniformIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.shaderUniformTexelBufferArrayNonUniformIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingSampledImageUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingStorageImageUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingStorageBufferUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingUniformTexelBufferUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingStorageTexelBufferUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingUpdateUnusedWhilePending",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingPartiallyBound",
    "VkPhysicalDeviceDescriptorIndexingFeatures.runtimeDescriptorArray",
};
constexpr F kSubgroupSizeControl[] = {"VkPhysicalDeviceSubgroupSizeControlFeatures.subgroupSizeControl",
                                      "VkPhysicalDeviceSubgroupSizeControlFeatures.computeFullSubgroups"};
constexpr F kShaderOutputViewportIndexLayer[] = {"VkPhysicalDeviceVulkan12Features.shaderOutputViewportIndex",
                                                 "VkPhysicalDeviceVulkan12Features.shaderOutputLayer"};
constexpr F kFloat16OrInt8[] = {"VkPhysicalDeviceShaderFloat16Int8Features.shaderFloat16",
                                "VkPhysicalDeviceShaderFloat16Int8Features.shaderInt8"};
constexpr F kInlineAndIndexingFeature[] = {"VK_EXT_inline_uniform_block",
                                           "VkPhysicalDeviceVulkan12Features.descriptorIndexing"};
constexpr F kInlineAndIndexingExtension[] = {"VK_EXT_inline_uniform_block", "VK_EXT_descriptor_indexing"};

constexpr F kExt_shader_draw_parameters[] = {"VK_KHR_shader_draw_parameters"};
constexpr F kExt_uniform_buffer_standard_layout[] = {"VK_KHR_uniform_buffer_standard_layout"};
constexpr F kExt_variable_pointers[] = {"VK_KHR_variable_pointers"};
constexpr F kExt_8bit_storage[] = {"VK_KHR_8bit_storage"};
constexpr F kExt_16bit_storage[] = {"VK_KHR_16bit_storage"};
constexpr F kExt_descriptor_indexing[] = {"VK_EXT_descriptor_indexing"};
constexpr F kExt_inline_uniform_block[] = {"VK_EXT_inline_uniform_block"};
constexpr F kExt_scalar_block_layout[] = {"VK_EXT_scalar_block_layout"};
constexpr F kExt_sampler_mirror_clamp_to_edge[] = {"VK_KHR_sampler_mirror_clamp_to_edge"};
constexpr F kExt_draw_indirect_count[] = {"VK_KHR_draw_indirect_count"};
constexpr F kExt_sampler_filter_minmax[] = {"VK_EXT_sampler_filter_minmax"};
constexpr F kExt_shader_viewport_index_layer[] = {"VK_EXT_shader_viewport_index_layer"};
constexpr F kExt_subgroup_size_control[] = {"VK_EXT_subgroup_size_control"};
constexpr F kExt_imageless_framebuffer[] = {"VK_KHR_imageless_framebuffer"};
constexpr F kExt_separate_depth_stencil_layouts[] = {"VK_KHR_separate_depth_stencil_layouts"};
constexpr F kExt_host_query_reset[] = {"VK_EXT_host_query_reset"};
constexpr F kExt_timeline_semaphore[] = {"VK_KHR_timeline_semaphore"};
constexpr F kExt_pipeline_creation_cache_control[] = {"VK_EXT_pipeline_creation_cache_control"};
constexpr F kExt_shader_subgroup_extended_types[] = {"VK_KHR_shader_subgroup_extended_types"};
constexpr F kExt_sampler_ycbcr_conversion[] = {"VK_KHR_sampler_ycbcr_conversion"};
constexpr F kExt_pipeline_executable_properties[] = {"VK_KHR_pipeline_executable_properties"};
constexpr F kExt_shader_demote_to_helper_invocation[] = {"VK_EXT_shader_demote_to_helper_invocation"};
constexpr F kExt_texel_buffer_alignment[] = {"VK_EXT_texel_buffer_alignment"};
constexpr F kExt_vulkan_memory_model[] = {"VK_KHR_vulkan_memory_model"};
constexpr F kExt_buffer_device_address[] = {"VK_KHR_buffer_device_address"};
constexpr F kExt_shader_clock[] = {"VK_KHR_shader_clock"};
constexpr F kExt_shader_atomic_int64[] = {"VK_KHR_shader_atomic_int64"};
constexpr F kExt_shader_float16_int8[] = {"VK_KHR_shader_float16_int8"};
constexpr F kExt_image_robustness[] = {"VK_EXT_image_robustness"};
constexpr F kExt_shader_terminate_invocation[] = {"VK_KHR_shader_terminate_invocation"};
constexpr F kExt_zero_initialize_workgroup_memory[] = {"VK_KHR_zero_initialize_workgroup_memory"};
constexpr F kExt_synchronization2[] = {"VK_KHR_synchronization2"};
constexpr F kExt_shader_integer_dot_product[] = {"VK_KHR_shader_integer_dot_product"};
constexpr F kExt_maintenance4[] = {"VK_KHR_maintenance4"};
constexpr F kExt_private_data[] = {"VK_EXT_private_data"};
constexpr F kExt_dynamic_rendering[] = {"VK_KHR_dynamic_rendering"};
constexpr F kExt_non_seamless_cube_map[] = {"VK_EXT_non_seamless_cube_map"};
constexpr F kExt_device_fault[] = {"VK_EXT_device_fault"};
constexpr F kExt_index_type_uint8[] = {"VK_EXT_index_type_uint8"};

// In the order of the spec's list. Where a rule holds only "if Vulkan 1.2 is supported" (the feature exists only in
// VkPhysicalDeviceVulkan12Features), minVersion says so.
constexpr FeatureRequirement kRules[] = {
    // Core versions.
    {VK_API_VERSION_1_0, {}, kRobustBufferAccess},
    {k11, {}, kMultiview},
    {k12, {}, kVersion12},
    {k13, {}, kVersion13},
    // Extensions and features.
    {kAny, kExt_shader_draw_parameters, kShaderDrawParameters},
    {kAny, kExt_uniform_buffer_standard_layout, kUniformBufferStandardLayout},
    {kAny, kExt_variable_pointers, kVariablePointersStorageBuffer},
    {kAny, kExt_8bit_storage, kStorageBuffer8},
    {kAny, kUniformAndStorageBuffer8, kStorageBuffer8},
    {kAny, kExt_16bit_storage, kStorageBuffer16},
    {kAny, kUniformAndStorageBuffer16, kStorageBuffer16},
    {k12, kDescriptorIndexing, kDescriptorIndexingSet},
    {kAny, kExt_descriptor_indexing, kDescriptorIndexingSet},
    {kAny, kExt_inline_uniform_block, kInlineUniformBlock},
    // "descriptorBindingInlineUniformBlockUpdateAfterBind, if Vulkan 1.3 or the VK_EXT_inline_uniform_block
    // extension is supported; and if the descriptorIndexing feature is supported, or the VK_EXT_descriptor_indexing
    // extension is supported". The descriptor indexing condition is last: it is what goes when the rule fails.
    {k13, kDescriptorIndexing, kInlineUniformBlockUpdateAfterBind},
    {k13, kExt_descriptor_indexing, kInlineUniformBlockUpdateAfterBind},
    {kAny, kInlineAndIndexingFeature, kInlineUniformBlockUpdateAfterBind},
    {kAny, kInlineAndIndexingExtension, kInlineUniformBlockUpdateAfterBind},
    {kAny, kExt_scalar_block_layout, kScalarBlockLayout},
    {k12, kExt_sampler_mirror_clamp_to_edge, kSamplerMirrorClampToEdge},
    {k12, kExt_draw_indirect_count, kDrawIndirectCount},
    {k12, kExt_sampler_filter_minmax, kSamplerFilterMinmax},
    {k12, kExt_shader_viewport_index_layer, kShaderOutputViewportIndexLayer},
    {kAny, kExt_subgroup_size_control, kSubgroupSizeControl},
    {kAny, kExt_imageless_framebuffer, kImagelessFramebuffer},
    {kAny, kExt_separate_depth_stencil_layouts, kSeparateDepthStencilLayouts},
    {kAny, kExt_host_query_reset, kHostQueryReset},
    {kAny, kExt_timeline_semaphore, kTimelineSemaphore},
    {kAny, kExt_pipeline_creation_cache_control, kPipelineCreationCacheControl},
    {kAny, kExt_shader_subgroup_extended_types, kShaderSubgroupExtendedTypes},
    {kAny, kExt_sampler_ycbcr_conversion, kSamplerYcbcrConversion},
    {kAny, kExt_pipeline_executable_properties, kPipelineExecutableInfo},
    {kAny, kExt_shader_demote_to_helper_invocation, kShaderDemote},
    {kAny, kExt_texel_buffer_alignment, kTexelBufferAlignment},
    {kAny, kExt_vulkan_memory_model, kVulkanMemoryModelOnly},
    {kAny, kExt_buffer_device_address, kBufferDeviceAddress},
    {kAny, kExt_shader_clock, kShaderSubgroupClock},
    {kAny, kExt_shader_atomic_int64, kShaderBufferInt64Atomics},
    // "shaderInt64, if the shaderSharedInt64Atomics or shaderBufferInt64Atomics features are supported".
    {kAny, kShaderSharedInt64Atomics, kShaderInt64},
    {kAny, kShaderBufferInt64Atomics, kShaderInt64},
    {kAny, kExt_shader_float16_int8, kFloat16OrInt8, /*anyOf=*/true},
    {kAny, kExt_image_robustness, kRobustImageAccess},
    {kAny, kSparseImageFloat32Atomics, kShaderImageFloat32Atomics},
    {kAny, kSparseImageFloat32AtomicAdd, kShaderImageFloat32AtomicAdd},
    {kAny, kExt_shader_terminate_invocation, kShaderTerminateInvocation},
    {kAny, kExt_zero_initialize_workgroup_memory, kZeroInitializeWorkgroupMemory},
    {kAny, kExt_synchronization2, kSynchronization2},
    {kAny, kSparseImageFloat32AtomicMinMax, kShaderImageFloat32AtomicMinMax},
    {kAny, kExt_shader_integer_dot_product, kShaderIntegerDotProduct},
    {kAny, kExt_maintenance4, kMaintenance4},
    {kAny, kExt_private_data, kPrivateData},
    {kAny, kExt_dynamic_rendering, kDynamicRendering},
    {kAny, kExt_non_seamless_cube_map, kNonSeamlessCubeMap},
    {kAny, kExt_device_fault, kDeviceFault},
    {kAny, kExt_index_type_uint8, kIndexTypeUint8},
    // "Extension Feature Aliases": "When a promoted extension is available, any corresponding feature aliases must
    // be supported" (Vulkan 1.2 and later, where the aliases exist).
    {k12, kExt_descriptor_indexing, kDescriptorIndexing},
};

}  // namespace

std::span<const FeatureRequirement> FeatureRequirements() { return kRules; }

}  // namespace crashtest
