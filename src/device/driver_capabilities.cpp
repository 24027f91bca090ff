#include "device/driver_capabilities.h"

#include <algorithm>
#include <cstring>

#include "common/api_coverage.h"
#include "crashtest/vulkan_compat.h"
#include "device/feature_requirements.h"
#include "format/driver_format_support.h"

namespace crashtest {
namespace {

// Device extensions crashtest implements completely. Grows as issues land; each entry must work end to end.
// Sorted by name within each group; the group says which area makes it work (docs/<area>.md has the details).
#define CT_EXTENSION(NAME) {NAME##_EXTENSION_NAME, NAME##_SPEC_VERSION}
constexpr VkExtensionProperties kDeviceExtensions[] = {
    // Device identity.
    CT_EXTENSION(VK_KHR_DRIVER_PROPERTIES),
    CT_EXTENSION(VK_EXT_PRIVATE_DATA),
    CT_EXTENSION(VK_EXT_TOOLING_INFO),  // vkGetPhysicalDeviceToolProperties: crashtest itself is no layer or tool
    // Fault reports (docs/faults.md). The EXT vendor-binary header is the fixed 56-byte one of spec version 2
    // (the 1.3.239 headers still say 1 and have the older 48-byte struct). VK_KHR_device_fault is newer than
    // vk.xml 1.3.239, so no profile can list it: every device offers it (driver_intersection.cpp).
    {VK_EXT_DEVICE_FAULT_EXTENSION_NAME, 2},
    {VK_KHR_DEVICE_FAULT_EXTENSION_NAME, VK_KHR_DEVICE_FAULT_SPEC_VERSION},
    // Breadcrumbs (docs/faults.md "Breadcrumbs"): markers written and checkpoints reached as the queue executes,
    // read back after a loss and recorded in the dump. Offered on devices whose profile lists them.
    CT_EXTENSION(VK_AMD_BUFFER_MARKER),
    CT_EXTENSION(VK_NV_DEVICE_DIAGNOSTIC_CHECKPOINTS),
    // Memory, resources and descriptors (docs/memory.md).
    CT_EXTENSION(VK_EXT_MEMORY_BUDGET),
    CT_EXTENSION(VK_EXT_SEPARATE_STENCIL_USAGE),
    CT_EXTENSION(VK_KHR_BIND_MEMORY_2),
    CT_EXTENSION(VK_KHR_BUFFER_DEVICE_ADDRESS),
    CT_EXTENSION(VK_KHR_DEDICATED_ALLOCATION),
    CT_EXTENSION(VK_KHR_DESCRIPTOR_UPDATE_TEMPLATE),
    CT_EXTENSION(VK_KHR_FORMAT_FEATURE_FLAGS_2),
    CT_EXTENSION(VK_KHR_GET_MEMORY_REQUIREMENTS_2),
    CT_EXTENSION(VK_KHR_IMAGE_FORMAT_LIST),
    CT_EXTENSION(VK_KHR_MAINTENANCE_1),
    CT_EXTENSION(VK_KHR_MAINTENANCE_2),
    CT_EXTENSION(VK_KHR_MAINTENANCE_3),
    CT_EXTENSION(VK_KHR_MAINTENANCE_4),
    // Push descriptors captured at record time, applied in stream order on both bind points (descriptor/
    // push_descriptors.h, queue/bound_resources.cpp; tests/execution/push_descriptor_test.cpp, against lavapipe).
    // maxPushDescriptors comes from the profile (lavapipe's: 32).
    CT_EXTENSION(VK_KHR_PUSH_DESCRIPTOR),
    // Shader arithmetic and storage the interpreter executes (docs/execution.md).
    CT_EXTENSION(VK_KHR_16BIT_STORAGE),
    CT_EXTENSION(VK_KHR_8BIT_STORAGE),
    CT_EXTENSION(VK_KHR_SHADER_ATOMIC_INT64),
    // 64-bit integer texels (Int64ImageEXT) read, written and used atomically in R64_UINT / R64_SINT storage images
    // and texel buffers (ops_image.cpp's wide reads and writes, tests/execution/image_int64_test.cpp). Offered on
    // devices whose profile lists it; no sparse residency, so sparseImageInt64Atomics stays off.
    CT_EXTENSION(VK_EXT_SHADER_IMAGE_ATOMIC_INT64),
    CT_EXTENSION(VK_KHR_SHADER_FLOAT16_INT8),
    CT_EXTENSION(VK_KHR_SHADER_INTEGER_DOT_PRODUCT),
    CT_EXTENSION(VK_KHR_STORAGE_BUFFER_STORAGE_CLASS),
    // Images, samplers and texel buffers in shaders (src/sampling): mirror-clamp-to-edge addressing, min/max
    // reduction, robust image access (texels outside an image read as zero and are not written).
    CT_EXTENSION(VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE),
    CT_EXTENSION(VK_EXT_SAMPLER_FILTER_MINMAX),
    CT_EXTENSION(VK_EXT_IMAGE_ROBUSTNESS),
    // robustBufferAccess2 (exact bounds, zero reads, dropped writes), robustImageAccess2 (out-of-bounds texels read
    // as a zero texel of the format), nullDescriptor (VK_NULL_HANDLE descriptors read zero, never fault).
    CT_EXTENSION(VK_EXT_ROBUSTNESS_2),
    CT_EXTENSION(VK_EXT_CUSTOM_BORDER_COLOR),  // the sampler's own border colour (memory/sampler.cpp, src/sampling)
    CT_EXTENSION(VK_EXT_DESCRIPTOR_INDEXING),
    CT_EXTENSION(VK_EXT_IMAGE_2D_VIEW_OF_3D),  // views of depth slices (queue/sampling_bindings.cpp)
    CT_EXTENSION(VK_EXT_INLINE_UNIFORM_BLOCK),  // its feature is listed below; the extension name was missing
    CT_EXTENSION(VK_EXT_NON_SEAMLESS_CUBE_MAP),  // address modes per face (sampling/sampler.cpp)
    CT_EXTENSION(VK_EXT_SHADER_ATOMIC_FLOAT),
    CT_EXTENSION(VK_EXT_SHADER_ATOMIC_FLOAT_2),
    CT_EXTENSION(VK_EXT_TEXEL_BUFFER_ALIGNMENT),  // texel buffer views are read at any offset
    CT_EXTENSION(VK_KHR_SHADER_CLOCK),
    // Shader modules compiled from HLSL carry these decorations; the front end reads past them.
    CT_EXTENSION(VK_GOOGLE_DECORATE_STRING),
    CT_EXTENSION(VK_GOOGLE_HLSL_FUNCTIONALITY_1),
    // Fragment-shader instructions whose features are listed below (the compiler lowers them).
    CT_EXTENSION(VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION),
    CT_EXTENSION(VK_KHR_SHADER_TERMINATE_INVOCATION),
    // Layout rules: buffer accesses follow the module's explicit offsets and strides byte by byte, whatever
    // alignment the rules allow (execution/type_layout.cpp).
    CT_EXTENSION(VK_EXT_SCALAR_BLOCK_LAYOUT),
    CT_EXTENSION(VK_KHR_RELAXED_BLOCK_LAYOUT),
    CT_EXTENSION(VK_KHR_UNIFORM_BUFFER_STANDARD_LAYOUT),
    // Pointers are values (storage buffers: descriptor slot and offset; workgroup memory: a word offset;
    // executable.h), so OpSelect, OpPhi, OpPtrAccessChain, function parameters and results, and pointers kept in
    // Function/Private variables just work; OpPtrEqual/OpPtrNotEqual compare the values, OpPtrDiff divides their
    // distance by the element size, and a null pointer is a value no access resolves, so dereferencing it is a
    // device fault (tests/execution "variable_pointers" and "variable_pointers_workgroup", against lavapipe;
    // shader_fault_test "Null*"). Both features, variablePointersStorageBuffer and variablePointers, are below.
    CT_EXTENSION(VK_KHR_VARIABLE_POINTERS),
    // Float controls: IEEE arithmetic with round-to-nearest-even, denormals and signed zeros, infinities and NaNs
    // preserved; the profile's flush-to-zero and round-toward-zero properties are cleared (profile/
    // driver_intersection.cpp, ApplyFloatControls; tests/execution "float_controls", against lavapipe).
    CT_EXTENSION(VK_KHR_SHADER_FLOAT_CONTROLS),
    // SPIR-V 1.4 modules on 1.1 devices: the front end validates them in the SPIR-V 1.4 environment when the
    // extension is enabled (pipeline/frontend/target_environment.cpp); 1.2+ devices take SPIR-V 1.5 anyway.
    CT_EXTENSION(VK_KHR_SPIRV_1_4),
    // The pre-1.1 subgroup instructions (SPV_KHR_shader_ballot, SPV_KHR_subgroup_vote), executed as the Subgroup-
    // scoped non-uniform operations they equal (executable_builder_ops.cpp; tests/execution
    // "subgroup_ext_ballot_vote", against lavapipe).
    CT_EXTENSION(VK_EXT_SHADER_SUBGROUP_BALLOT),
    CT_EXTENSION(VK_EXT_SHADER_SUBGROUP_VOTE),
    // Core 1.2/1.3 shader features whose members are listed below, under their extension names.
    CT_EXTENSION(VK_EXT_SUBGROUP_SIZE_CONTROL),
    CT_EXTENSION(VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES),
    CT_EXTENSION(VK_KHR_VULKAN_MEMORY_MODEL),
    CT_EXTENSION(VK_KHR_ZERO_INITIALIZE_WORKGROUP_MEMORY),
    // Pipelines (docs/compiler.md).
    CT_EXTENSION(VK_EXT_PIPELINE_CREATION_CACHE_CONTROL),
    CT_EXTENSION(VK_EXT_PIPELINE_CREATION_FEEDBACK),
    CT_EXTENSION(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES),  // statistics from our IR: docs/statistics.md
    // Command buffers, queues, synchronisation and queries (docs/execution.md).
    CT_EXTENSION(VK_EXT_HOST_QUERY_RESET),
    CT_EXTENSION(VK_KHR_DRAW_INDIRECT_COUNT),
    CT_EXTENSION(VK_KHR_SYNCHRONIZATION_2),
    CT_EXTENSION(VK_KHR_TIMELINE_SEMAPHORE),
    // Transfers, clears and render passes (docs/transfer.md).
    CT_EXTENSION(VK_EXT_LOAD_STORE_OP_NONE),
    CT_EXTENSION(VK_KHR_COPY_COMMANDS_2),
    CT_EXTENSION(VK_KHR_CREATE_RENDERPASS_2),
    CT_EXTENSION(VK_KHR_DEPTH_STENCIL_RESOLVE),  // resolves at subpass end: transfer/attachment_resolve.h
    CT_EXTENSION(VK_KHR_DYNAMIC_RENDERING),
    CT_EXTENSION(VK_KHR_IMAGELESS_FRAMEBUFFER),
    CT_EXTENSION(VK_KHR_MULTIVIEW),
    CT_EXTENSION(VK_KHR_SEPARATE_DEPTH_STENCIL_LAYOUTS),
    // Window-system integration (src/wsi, docs/wsi.md).
    CT_EXTENSION(VK_KHR_SWAPCHAIN),
    // A group of one device (Vulkan 1.1 core); its swapchain part (present capabilities, vkAcquireNextImage2KHR,
    // images bound to swapchain memory) is src/wsi's. vulkaninfo enables it with VK_KHR_swapchain.
    CT_EXTENSION(VK_KHR_DEVICE_GROUP),
};
#undef CT_EXTENSION

// Instance extensions crashtest implements completely.
constexpr VkExtensionProperties kInstanceExtensions[] = {
    {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_DEBUG_UTILS_SPEC_VERSION},
    {VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME, VK_KHR_DEVICE_GROUP_CREATION_SPEC_VERSION},
    {VK_KHR_EXTERNAL_FENCE_CAPABILITIES_EXTENSION_NAME, VK_KHR_EXTERNAL_FENCE_CAPABILITIES_SPEC_VERSION},
    {VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_SPEC_VERSION},
    {VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_SPEC_VERSION},
    {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME, VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_SPEC_VERSION},
    // Window-system integration (src/wsi, docs/wsi.md); the X11 surfaces only when built with libxcb.
    {VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_SPEC_VERSION},
    {VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME, VK_KHR_GET_SURFACE_CAPABILITIES_2_SPEC_VERSION},
    {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_SURFACE_SPEC_VERSION},
#ifdef CRASHTEST_HAVE_X11
    {"VK_KHR_xcb_surface", 6},
    {"VK_KHR_xlib_surface", 6},
#endif
};

// Feature members crashtest honours, each under one name (the intersection also accepts the synonym in the
// Vulkan11/12/13 aggregate). Draw-related features are honoured as far as the rasteriser goes: draws it cannot
// render yet (points, lines, MSAA, tessellation, geometry) are skipped with a warning (docs/execution.md, "Draws").
constexpr std::string_view kFeatures[] = {
    // Out-of-bounds buffer accesses never crash: transfers check every range, and the interpreter that will run
    // shaders must keep this promise ("robustBufferAccess ... must be supported", Feature Requirements).
    "VkPhysicalDeviceFeatures.robustBufferAccess",
    "VkPhysicalDeviceFeatures.fullDrawIndexUint32",
    "VkPhysicalDeviceFeatures.multiDrawIndirect",
    "VkPhysicalDeviceFeatures.drawIndirectFirstInstance",
    "VkPhysicalDeviceFeatures.occlusionQueryPrecise",
    "VkPhysicalDeviceFeatures.pipelineStatisticsQuery",
    "VkPhysicalDeviceFeatures.inheritedQueries",
    // Points of any size from PointSize and lines of any width, clamped to the profile's ranges (src/raster/
    // point_line_expansion.cpp, tests/raster "PointList", "LinesAndStrips", "LargePointsAndWideLines").
    "VkPhysicalDeviceFeatures.largePoints",
    "VkPhysicalDeviceFeatures.wideLines",
    // Per-fragment and rasterisation state against lavapipe (tests/raster/render_state_test.cpp): the sixteen logic
    // ops on normalized and integer attachments ("LogicOpsNormalized", "LogicOpsInteger"), dual-source factors
    // from Location 0 Index 1 ("DualSourceBlending"), each attachment's own blend state
    // ("IndependentBlendTwoAttachments"), depth clamped to the viewport's range instead of clipped ("DepthClamp"),
    // the depth bounds test ("DepthBounds") and the depth bias clamp ("DepthBiasClamp").
    "VkPhysicalDeviceFeatures.logicOp",
    "VkPhysicalDeviceFeatures.dualSrcBlend",
    "VkPhysicalDeviceFeatures.independentBlend",
    "VkPhysicalDeviceFeatures.depthClamp",
    "VkPhysicalDeviceFeatures.depthBounds",
    "VkPhysicalDeviceFeatures.depthBiasClamp",
    // Vertex and fragment shaders write storage buffers and images and run atomics on the same interpreter as compute
    // (tests/raster/draw_fault_test.cpp: a fragment shader's stores, in bounds and past the end).
    // Clip and cull distances written by vertex shaders: clipped against like the view volume, primitives culled
    // (tests/raster "ClipAndCullDistances"; points and lines too).
    // Polygon modes LINE and POINT: the edges or vertices of the triangles culling keeps (tests/raster
    // "NonSolidPolygonModes").
    "VkPhysicalDeviceFeatures.fillModeNonSolid",
    // Sample shading: one fragment invocation per covered sample (pipeline minSampleShading, SampleId,
    // SamplePosition, Sample inputs) and InterpolateAtCentroid/Sample/Offset (src/raster/fragment_stage.cpp;
    // tests/raster "SampleShading*", "InterpolateAt").
    "VkPhysicalDeviceFeatures.sampleRateShading",
    // Several viewports and scissors in a pipeline: without geometry shaders, and with no vertex shader able to
    // write ViewportIndex (shaderOutputViewportIndex stays cleared), every primitive takes viewport and scissor 0, as
    // the spec says (tests/raster "SeveralViewportsUseTheFirst").
    "VkPhysicalDeviceFeatures.multiViewport",
    "VkPhysicalDeviceFeatures.shaderClipDistance",
    "VkPhysicalDeviceFeatures.shaderCullDistance",
    "VkPhysicalDeviceFeatures.vertexPipelineStoresAndAtomics",
    "VkPhysicalDeviceFeatures.fragmentStoresAndAtomics",
    // Multiview draws render each view into its attachment layer (tests/raster "MultiviewTwoLayers"). Geometry and
    // tessellation shaders are not executed: their features stay cleared (`crashtest stats` still compiles and
    // analyses such shaders).
    "VkPhysicalDeviceMultiviewFeatures.multiview",
    "VkPhysicalDeviceVulkan12Features.drawIndirectCount",
    "VkPhysicalDeviceTimelineSemaphoreFeatures.timelineSemaphore",
    "VkPhysicalDeviceHostQueryResetFeatures.hostQueryReset",
    "VkPhysicalDeviceImagelessFramebufferFeatures.imagelessFramebuffer",
    "VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures.separateDepthStencilLayouts",
    "VkPhysicalDeviceBufferDeviceAddressFeatures.bufferDeviceAddress",
    "VkPhysicalDeviceBufferDeviceAddressFeatures.bufferDeviceAddressCaptureReplay",
    "VkPhysicalDeviceSynchronization2Features.synchronization2",
    "VkPhysicalDeviceDynamicRenderingFeatures.dynamicRendering",
    "VkPhysicalDeviceMaintenance4Features.maintenance4",
    "VkPhysicalDevicePrivateDataFeatures.privateData",
    "VkPhysicalDeviceInlineUniformBlockFeatures.inlineUniformBlock",
    // Shader arithmetic and storage the interpreter executes (src/execution, tests/execution): 8/16/64-bit
    // integers, 16/64-bit floats, 8/16-bit values in buffers and push constants, 64-bit atomics.
    "VkPhysicalDeviceFeatures.shaderInt64",
    "VkPhysicalDeviceFeatures.shaderInt16",
    "VkPhysicalDeviceFeatures.shaderFloat64",
    "VkPhysicalDeviceShaderFloat16Int8Features.shaderFloat16",
    "VkPhysicalDeviceShaderFloat16Int8Features.shaderInt8",
    "VkPhysicalDevice16BitStorageFeatures.storageBuffer16BitAccess",
    "VkPhysicalDevice16BitStorageFeatures.uniformAndStorageBuffer16BitAccess",
    "VkPhysicalDevice16BitStorageFeatures.storagePushConstant16",
    "VkPhysicalDevice8BitStorageFeatures.storageBuffer8BitAccess",
    "VkPhysicalDevice8BitStorageFeatures.uniformAndStorageBuffer8BitAccess",
    "VkPhysicalDevice8BitStorageFeatures.storagePushConstant8",
    "VkPhysicalDeviceShaderAtomicInt64Features.shaderBufferInt64Atomics",
    "VkPhysicalDeviceShaderAtomicInt64Features.shaderSharedInt64Atomics",
    "VkPhysicalDeviceShaderImageAtomicInt64FeaturesEXT.shaderImageInt64Atomics",
    "VkPhysicalDeviceFeatures.shaderUniformBufferArrayDynamicIndexing",
    "VkPhysicalDeviceFeatures.shaderStorageBufferArrayDynamicIndexing",
    "VkPhysicalDeviceScalarBlockLayoutFeatures.scalarBlockLayout",
    "VkPhysicalDeviceVariablePointersFeatures.variablePointersStorageBuffer",
    "VkPhysicalDeviceVariablePointersFeatures.variablePointers",
    // Images, samplers and texel buffers in shaders (src/sampling, src/execution/ops/ops_image.cpp,
    // tests/execution/image_differential_test.cpp): cube arrays, every storage format with or without a format in
    // the shader, dynamically indexed descriptor arrays, the MinLod image operand, gathers with dynamic offsets
    // and four constant offsets, mirror-clamp-to-edge.
    "VkPhysicalDeviceFeatures.imageCubeArray",
    // Every BC format sampled, fetched and blitted from through its block decoder (src/format/compressed,
    // tests/execution/compressed_image_test.cpp).
    "VkPhysicalDeviceFeatures.textureCompressionBC",
    // Every ETC2 and EAC format likewise (src/format/compressed/etc2.cpp, eac.cpp;
    // tests/execution/compressed_oracle_test.cpp, against the decoder of Mesa's OpenGL driver: lavapipe has no ETC2).
    "VkPhysicalDeviceFeatures.textureCompressionETC2",
    // ASTC LDR, every 2D footprint (astc.cpp, astc_ise.cpp), against Arm's astcenc in the same test. Not ASTC HDR:
    // its endpoint modes decode to the error colour, and the SFLOAT formats stay transfer-only.
    "VkPhysicalDeviceFeatures.textureCompressionASTC_LDR",
    "VkPhysicalDeviceFeatures.shaderStorageImageExtendedFormats",
    // Multisampled storage images: OpImageRead / OpImageWrite with the Sample operand address the sample inside the
    // texel (sampling/texel_access.cpp), OpImageQuerySamples answers the image's count (tests/execution/
    // storage_multisample_test.cpp, against lavapipe).
    "VkPhysicalDeviceFeatures.shaderStorageImageMultisample",
    "VkPhysicalDeviceFeatures.shaderStorageImageReadWithoutFormat",
    "VkPhysicalDeviceFeatures.shaderStorageImageWriteWithoutFormat",
    "VkPhysicalDeviceFeatures.shaderSampledImageArrayDynamicIndexing",
    "VkPhysicalDeviceFeatures.shaderStorageImageArrayDynamicIndexing",
    "VkPhysicalDeviceFeatures.shaderResourceMinLod",
    "VkPhysicalDeviceFeatures.shaderImageGatherExtended",
    "VkPhysicalDeviceVulkan12Features.shaderUniformTexelBufferArrayDynamicIndexing",
    "VkPhysicalDeviceVulkan12Features.shaderStorageTexelBufferArrayDynamicIndexing",
    "VkPhysicalDeviceVulkan12Features.samplerMirrorClampToEdge",
    "VkPhysicalDeviceCustomBorderColorFeaturesEXT.customBorderColors",
    "VkPhysicalDeviceCustomBorderColorFeaturesEXT.customBorderColorWithoutFormat",
    "VkPhysicalDeviceRobustness2FeaturesEXT.robustBufferAccess2",
    "VkPhysicalDeviceRobustness2FeaturesEXT.robustImageAccess2",
    "VkPhysicalDeviceRobustness2FeaturesEXT.nullDescriptor",
    "VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT.nonSeamlessCubeMap",
    "VkPhysicalDeviceImage2DViewOf3DFeaturesEXT.image2DViewOf3D",
    "VkPhysicalDeviceImage2DViewOf3DFeaturesEXT.sampler2DViewOf3D",
    "VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT.texelBufferAlignment",
    // Float atomics: add, min and max on 32- and 64-bit floats in buffers, workgroup memory and images (not 16-bit,
    // not sparse images).
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderBufferFloat32Atomics",
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderBufferFloat32AtomicAdd",
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderBufferFloat64Atomics",
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderBufferFloat64AtomicAdd",
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderSharedFloat32Atomics",
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderSharedFloat32AtomicAdd",
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderSharedFloat64Atomics",
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderSharedFloat64AtomicAdd",
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderImageFloat32Atomics",
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderImageFloat32AtomicAdd",
    "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT.shaderBufferFloat32AtomicMinMax",
    "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT.shaderBufferFloat64AtomicMinMax",
    "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT.shaderSharedFloat32AtomicMinMax",
    "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT.shaderSharedFloat64AtomicMinMax",
    "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT.shaderImageFloat32AtomicMinMax",
    "VkPhysicalDeviceShaderClockFeaturesKHR.shaderSubgroupClock",
    "VkPhysicalDeviceShaderClockFeaturesKHR.shaderDeviceClock",
    // Descriptor indexing for shaders that run: runtime-sized descriptor arrays (sized by the bound set, variable
    // counts included), non-uniform indices, partially bound arrays. Descriptors are read when the work executes
    // (queue/bound_resources.cpp flattens the bound sets at each dispatch and draw), so a descriptor updated after
    // its set was bound is the one the submission uses, as UPDATE_AFTER_BIND_BIT asks, and updating unused ones
    // while work is pending is safe. Updates write only the descriptors they name, so concurrent updates of
    // different descriptors of one set do not race. With these, the device has the minimum set that
    // VK_EXT_descriptor_indexing and the descriptorIndexing feature promise (Feature Requirements).
    "VkPhysicalDeviceVulkan12Features.descriptorIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingUniformBufferUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingSampledImageUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingStorageImageUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingStorageBufferUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingUniformTexelBufferUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingStorageTexelBufferUpdateAfterBind",
    "VkPhysicalDeviceInlineUniformBlockFeatures.descriptorBindingInlineUniformBlockUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.runtimeDescriptorArray",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingVariableDescriptorCount",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingPartiallyBound",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingUpdateUnusedWhilePending",
    "VkPhysicalDeviceDescriptorIndexingFeatures.shaderUniformBufferArrayNonUniformIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.shaderStorageBufferArrayNonUniformIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.shaderSampledImageArrayNonUniformIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.shaderStorageImageArrayNonUniformIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.shaderUniformTexelBufferArrayNonUniformIndexing",
    "VkPhysicalDeviceDescriptorIndexingFeatures.shaderStorageTexelBufferArrayNonUniformIndexing",
    "VkPhysicalDeviceVulkan12Features.samplerFilterMinmax",
    // Shader features: the compiler lowers what they allow (tests/pipeline), and statistics are computed for it.
    // Like robustBufferAccess, image robustness is a promise the interpreter keeps once shaders run.
    "VkPhysicalDeviceImageRobustnessFeatures.robustImageAccess",
    "VkPhysicalDeviceVulkan12Features.subgroupBroadcastDynamicId",
    "VkPhysicalDeviceUniformBufferStandardLayoutFeatures.uniformBufferStandardLayout",
    "VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes",
    "VkPhysicalDeviceVulkanMemoryModelFeatures.vulkanMemoryModel",
    "VkPhysicalDeviceVulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope",
    // Availability and visibility chains of more than one element hold trivially: the interpreter executes every
    // access in order on memory the host keeps coherent, atomics are sequentially consistent, and a workgroup's
    // subgroups share one thread, so a write is available and visible at every scope as soon as it is executed
    // (tests/execution "memory_model_chains", against lavapipe).
    "VkPhysicalDeviceVulkanMemoryModelFeatures.vulkanMemoryModelAvailabilityVisibilityChains",
    // The aggregate's members too: vk.xml links them to VkPhysicalDeviceVulkanMemoryModelFeatures only through its
    // KHR alias, which the synonym table does not follow.
    "VkPhysicalDeviceVulkan12Features.vulkanMemoryModel",
    "VkPhysicalDeviceVulkan12Features.vulkanMemoryModelDeviceScope",
    "VkPhysicalDeviceVulkan12Features.vulkanMemoryModelAvailabilityVisibilityChains",
    "VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures.shaderDemoteToHelperInvocation",
    "VkPhysicalDeviceShaderTerminateInvocationFeatures.shaderTerminateInvocation",
    "VkPhysicalDeviceSubgroupSizeControlFeatures.subgroupSizeControl",
    "VkPhysicalDeviceSubgroupSizeControlFeatures.computeFullSubgroups",
    "VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory",
    "VkPhysicalDeviceShaderIntegerDotProductFeatures.shaderIntegerDotProduct",
    // Pipelines: VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT and externally synchronised caches.
    "VkPhysicalDevicePipelineCreationCacheControlFeatures.pipelineCreationCacheControl",
    "VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR.pipelineExecutableInfo",
    "VkPhysicalDeviceFaultFeaturesEXT.deviceFault",
    "VkPhysicalDeviceFaultFeaturesEXT.deviceFaultVendorBinary",
};

bool Listed(std::string_view feature) {
  return std::find(std::begin(kFeatures), std::end(kFeatures), feature) != std::end(kFeatures);
}

// The highest core version whose commands are all implemented and whose required features are all honoured.
constexpr uint32_t kVersions[] = {VK_API_VERSION_1_0, VK_API_VERSION_1_1, VK_API_VERSION_1_2, VK_API_VERSION_1_3};
uint32_t MaxDeviceApiVersion() {
  uint32_t best = VK_API_VERSION_1_0;
  for (uint32_t version : kVersions) {
    if (version > kCompleteDeviceApiVersion) break;
    // A version is advertised only when the driver honours every feature the spec makes mandatory for it
    // ("Feature Requirements"), so an app that checks the version and not the features (as the spec lets it)
    // never meets a missing one.
    bool honoured = true;
    for (const FeatureRequirement& r : FeatureRequirements()) {
      if (!r.conditions.empty() || r.minVersion > version) continue;
      honoured = honoured && std::all_of(r.required.begin(), r.required.end(), Listed);
    }
    if (!honoured) break;
    best = version;
  }
  return best;
}

}  // namespace

bool DriverCapabilities::ImplementsExtension(std::string_view name, uint32_t* specVersion) const {
  for (const VkExtensionProperties& e : deviceExtensions) {
    if (name == e.extensionName) {
      if (specVersion != nullptr) *specVersion = e.specVersion;
      return true;
    }
  }
  return false;
}

bool DriverCapabilities::ImplementsFeature(std::string_view structName, std::string_view member) const {
  return std::any_of(features.begin(), features.end(), [&](std::string_view f) {
    return f.size() == structName.size() + 1 + member.size() && f.substr(0, structName.size()) == structName &&
           f[structName.size()] == '.' && f.substr(structName.size() + 1) == member;
  });
}

FormatSupport DriverCapabilities::FormatFeatures(VkFormat format) const { return DriverFormatSupport(format); }

const DriverCapabilities& Driver() {
  static const DriverCapabilities capabilities{MaxDeviceApiVersion(), kDeviceExtensions, kInstanceExtensions,
                                                     kFeatures};
  return capabilities;
}

}  // namespace crashtest
