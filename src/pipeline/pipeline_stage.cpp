#include "pipeline/pipeline_stage.h"

#include <chrono>
#include <cstdio>
#include <span>

#include "common/log.h"
#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "execution/executable.h"
#include "execution/executable_builder.h"
#include "pipeline/pipeline_cache.h"
#include "pipeline/shader_key.h"
#include "pipeline/shader_module.h"
#include "statistics/memory_footprint.h"

namespace crashtest {

const char* StageName(VkShaderStageFlagBits stage) {
  switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT: return "vertex";
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return "tessellation control";
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return "tessellation evaluation";
    case VK_SHADER_STAGE_GEOMETRY_BIT: return "geometry";
    case VK_SHADER_STAGE_FRAGMENT_BIT: return "fragment";
    case VK_SHADER_STAGE_COMPUTE_BIT: return "compute";
    default: return "unsupported";
  }
}

namespace {

VkResult Misuse(const std::string& where, const std::string& what) {
  return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: %s", where.c_str(), what.c_str());
}

uint64_t Since(std::chrono::steady_clock::time_point start) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
}

// "If the geometryShader feature is not enabled, stage must not be VK_SHADER_STAGE_GEOMETRY_BIT"
// (VUID-VkPipelineShaderStageCreateInfo-stage-00704), and likewise tessellation (-00705).
const char* MissingFeature(const Device& device, VkShaderStageFlagBits stage) {
  const VkPhysicalDeviceFeatures& features = device.enabledFeatures();
  if (stage == VK_SHADER_STAGE_GEOMETRY_BIT && !features.geometryShader)
    return "the geometryShader feature is not enabled (VUID-VkPipelineShaderStageCreateInfo-stage-00704)";
  if ((stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT || stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT) &&
      !features.tessellationShader)
    return "the tessellationShader feature is not enabled (VUID-VkPipelineShaderStageCreateInfo-stage-00705)";
  return nullptr;
}

std::string ToHex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "%x", value);
  return text;
}

// Subgroup size control (Vulkan 1.3 core, VK_EXT_subgroup_size_control): what the device reports.
struct SubgroupSizes {
  uint32_t min = 0, max = 0;
  uint32_t standard = 0;  // VkPhysicalDeviceSubgroupProperties::subgroupSize
  uint32_t maxComputeWorkgroupSubgroups = 0;
  VkShaderStageFlags requiredSubgroupSizeStages = 0;
};

SubgroupSizes DeviceSubgroupSizes(const Device& device) {
  const DeviceDescription& d = device.physicalDevice().description();
  SubgroupSizes sizes{d.machine.minSubgroupSize, d.machine.maxSubgroupSize, d.machine.maxSubgroupSize, 0, 0};
  if (const StructBlob* b = d.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES)) {
    const auto* p = static_cast<const VkPhysicalDeviceSubgroupSizeControlProperties*>(b->data());
    sizes = {p->minSubgroupSize, p->maxSubgroupSize, sizes.standard, p->maxComputeWorkgroupSubgroups,
             p->requiredSubgroupSizeStages};
  } else if (const StructBlob* v13 = d.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES)) {
    const auto* p = static_cast<const VkPhysicalDeviceVulkan13Properties*>(v13->data());
    sizes = {p->minSubgroupSize, p->maxSubgroupSize, sizes.standard, p->maxComputeWorkgroupSubgroups,
             p->requiredSubgroupSizeStages};
  }
  if (const StructBlob* b = d.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES))
    sizes.standard = static_cast<const VkPhysicalDeviceSubgroupProperties*>(b->data())->subgroupSize;
  return sizes;
}

// subgroupSizeControl / computeFullSubgroups, enabled through VkPhysicalDeviceVulkan13Features or the extension's
// feature struct.
bool SubgroupFeatureEnabled(const Device& device, VkBool32 VkPhysicalDeviceVulkan13Features::*core,
                            VkBool32 VkPhysicalDeviceSubgroupSizeControlFeatures::*extension) {
  if (const StructBlob* b = device.FindEnabledFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES))
    if (static_cast<const VkPhysicalDeviceVulkan13Features*>(b->data())->*core) return true;
  if (const StructBlob* b = device.FindEnabledFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES))
    if (static_cast<const VkPhysicalDeviceSubgroupSizeControlFeatures*>(b->data())->*extension) return true;
  return false;
}

// The stage's flags and chained VkPipelineShaderStageRequiredSubgroupSizeCreateInfo, checked against the device;
// `*required` = the required subgroup size, 0 if none. The workgroup-size rules wait for the compiled shader.
VkResult CheckSubgroupSizeControl(const Device& device, const VkPipelineShaderStageCreateInfo& info,
                                  const std::string& where, const SubgroupSizes& sizes, uint32_t* required) {
  *required = 0;
  const bool varying = (info.flags & VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT) != 0;
  const bool full = (info.flags & VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT) != 0;
  const bool sizeControl = SubgroupFeatureEnabled(device, &VkPhysicalDeviceVulkan13Features::subgroupSizeControl,
                                                  &VkPhysicalDeviceSubgroupSizeControlFeatures::subgroupSizeControl);
  if (varying && !sizeControl)
    return Misuse(where, "flags has ALLOW_VARYING_SUBGROUP_SIZE_BIT but the subgroupSizeControl feature is not "
                         "enabled (VUID-VkPipelineShaderStageCreateInfo-flags-02784)");
  if (full && !SubgroupFeatureEnabled(device, &VkPhysicalDeviceVulkan13Features::computeFullSubgroups,
                                      &VkPhysicalDeviceSubgroupSizeControlFeatures::computeFullSubgroups))
    return Misuse(where, "flags has REQUIRE_FULL_SUBGROUPS_BIT but the computeFullSubgroups feature is not "
                         "enabled (VUID-VkPipelineShaderStageCreateInfo-flags-02785)");
  const auto* chained = FindInChain<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(info.pNext);
  if (chained == nullptr) return VK_SUCCESS;
  const uint32_t size = chained->requiredSubgroupSize;
  if (varying)
    return Misuse(where, "a VkPipelineShaderStageRequiredSubgroupSizeCreateInfo is chained and flags has "
                         "ALLOW_VARYING_SUBGROUP_SIZE_BIT (VUID-VkPipelineShaderStageCreateInfo-pNext-02754)");
  if (!sizeControl || (sizes.requiredSubgroupSizeStages & info.stage) == 0)
    return Misuse(where, std::string("a VkPipelineShaderStageRequiredSubgroupSizeCreateInfo needs the "
                                     "subgroupSizeControl feature enabled") +
                             (sizeControl ? "" : " (it is not)") + " and the " + StageName(info.stage) +
                             " stage in requiredSubgroupSizeStages (0x" + ToHex(sizes.requiredSubgroupSizeStages) +
                             ") (VUID-VkPipelineShaderStageCreateInfo-pNext-02755)");
  if (size == 0 || (size & (size - 1)) != 0)
    return Misuse(where, "requiredSubgroupSize " + std::to_string(size) + " is not a power of two "
                         "(VUID-VkPipelineShaderStageRequiredSubgroupSizeCreateInfo-requiredSubgroupSize-02760)");
  if (size < sizes.min)
    return Misuse(where, "requiredSubgroupSize " + std::to_string(size) + " is less than minSubgroupSize " +
                             std::to_string(sizes.min) +
                             " (VUID-VkPipelineShaderStageRequiredSubgroupSizeCreateInfo-requiredSubgroupSize-02761)");
  if (size > sizes.max)
    return Misuse(where, "requiredSubgroupSize " + std::to_string(size) + " is greater than maxSubgroupSize " +
                             std::to_string(sizes.max) +
                             " (VUID-VkPipelineShaderStageRequiredSubgroupSizeCreateInfo-requiredSubgroupSize-02762)");
  *required = size;
  return VK_SUCCESS;
}

// The rules that tie the compute workgroup size to the subgroup size.
// The compute limits the device reports (Vulkan 1.3, "Limits"; the RuntimeSpirv VUIDs): a workgroup larger than
// maxComputeWorkGroupSize / maxComputeWorkGroupInvocations or more workgroup memory than
// maxComputeSharedMemorySize is invalid, and the interpreter would allocate it for every worker.
VkResult CheckComputeLimits(const Device& device, const ir::Module& module, const std::string& where) {
  const VkPhysicalDeviceLimits& limits = device.physicalDevice().description().properties.limits;
  const uint32_t* size = module.entryPoint.localSize;
  static const char* const kVuids[3] = {"VUID-RuntimeSpirv-x-06429", "VUID-RuntimeSpirv-y-06430",
                                        "VUID-RuntimeSpirv-z-06431"};
  for (int i = 0; i < 3; ++i)
    if (size[i] > limits.maxComputeWorkGroupSize[i])
      return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                         "%s: the workgroup size %u x %u x %u exceeds maxComputeWorkGroupSize[%d] = %u (%s)",
                         where.c_str(), size[0], size[1], size[2], i, limits.maxComputeWorkGroupSize[i], kVuids[i]);
  const uint64_t invocations = uint64_t{size[0]} * size[1] * size[2];
  if (invocations > limits.maxComputeWorkGroupInvocations)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: the workgroup size %u x %u x %u has %llu invocations, more than "
                       "maxComputeWorkGroupInvocations = %u (VUID-RuntimeSpirv-x-06432)",
                       where.c_str(), size[0], size[1], size[2], static_cast<unsigned long long>(invocations),
                       limits.maxComputeWorkGroupInvocations);
  const uint64_t shared = statistics::WorkgroupMemoryBytes(module);
  if (shared > limits.maxComputeSharedMemorySize)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: the shader declares %llu bytes of workgroup memory, more than maxComputeSharedMemorySize "
                       "= %u (VUID-RuntimeSpirv-Workgroup-06530)",
                       where.c_str(), static_cast<unsigned long long>(shared), limits.maxComputeSharedMemorySize);
  return VK_SUCCESS;
}

VkResult CheckComputeSubgroups(const VkPipelineShaderStageCreateInfo& info, const std::string& where,
                               const SubgroupSizes& sizes, uint32_t required, const uint32_t localSize[3]) {
  const uint64_t invocations = uint64_t{localSize[0]} * localSize[1] * localSize[2];
  const std::string local = std::to_string(localSize[0]) + "x" + std::to_string(localSize[1]) + "x" +
                            std::to_string(localSize[2]);
  if (required != 0 && invocations > uint64_t{required} * sizes.maxComputeWorkgroupSubgroups)
    return Misuse(where, "the workgroup (" + local + ") has more invocations than requiredSubgroupSize " +
                             std::to_string(required) + " x maxComputeWorkgroupSubgroups " +
                             std::to_string(sizes.maxComputeWorkgroupSubgroups) +
                             " (VUID-VkPipelineShaderStageCreateInfo-pNext-02756)");
  if ((info.flags & VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT) == 0) return VK_SUCCESS;
  // "the local workgroup size in the X dimension of the pipeline must be a multiple of" the subgroup size the
  // stage may run with: the required one (-02757), maxSubgroupSize when it may vary (-02758), else subgroupSize
  // (-02759).
  const bool varying = (info.flags & VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT) != 0;
  const uint32_t multiple = required != 0 ? required : varying ? sizes.max : sizes.standard;
  const char* vuid = required != 0 ? "VUID-VkPipelineShaderStageCreateInfo-pNext-02757"
                     : varying     ? "VUID-VkPipelineShaderStageCreateInfo-flags-02758"
                                   : "VUID-VkPipelineShaderStageCreateInfo-flags-02759";
  const char* what = required != 0 ? "requiredSubgroupSize" : varying ? "maxSubgroupSize" : "subgroupSize";
  if (multiple != 0 && localSize[0] % multiple != 0)
    return Misuse(where, "REQUIRE_FULL_SUBGROUPS_BIT, but the workgroup's X size " + std::to_string(localSize[0]) +
                             " is not a multiple of " + what + " " + std::to_string(multiple) + " (" + vuid + ")");
  return VK_SUCCESS;
}

VkResult CompileStage(const Device& device, const VkPipelineShaderStageCreateInfo& info, PipelineCache* cache,
                      bool failIfCompileRequired, const std::string& where, PipelineStage* out,
                      StageCreation* creation) {
  auto start = std::chrono::steady_clock::now();
  if (pipeline::ExecutionModelOfStage(info.stage) == ir::kNone)
    return Misuse(where, "stage " + std::to_string(info.stage) +
                             " is not a single compute or classic graphics stage crashtest supports");
  if (const char* missing = MissingFeature(device, info.stage))
    return Misuse(where, std::string(StageName(info.stage)) + " stage, but " + missing);
  if (info.pName == nullptr)
    return Misuse(where, "pName is NULL (VUID-VkPipelineShaderStageCreateInfo-pName-parameter)");

  // The code: the module's (validated at vkCreateShaderModule), or a chained VkShaderModuleCreateInfo's, which the
  // spec allows only with the maintenance5 or graphicsPipelineLibrary feature and which nobody validated yet.
  std::span<const uint32_t> words;
  bool validate = false;
  if (info.module != VK_NULL_HANDLE) {
    words = FromHandle(info.module)->words();
  } else if (const auto* chained = FindInChain<VkShaderModuleCreateInfo>(info.pNext)) {
    if (!device.IsExtensionEnabled("VK_KHR_maintenance5") &&
        !device.IsExtensionEnabled("VK_EXT_graphics_pipeline_library"))
      return Misuse(where, "module is VK_NULL_HANDLE with a chained VkShaderModuleCreateInfo, which needs the "
                           "maintenance5 or graphicsPipelineLibrary feature");
    if (chained->pCode == nullptr || chained->codeSize == 0 || chained->codeSize % 4 != 0)
      return ReportError(VK_ERROR_UNKNOWN, "%s: chained VkShaderModuleCreateInfo: codeSize %zu is not a positive "
                         "multiple of 4", where.c_str(), chained->codeSize);
    words = {chained->pCode, chained->codeSize / 4};
    validate = true;
  } else {
    return Misuse(where, "module is VK_NULL_HANDLE and no VkShaderModuleCreateInfo is chained");
  }

  pipeline::CompileOptions options;
  options.vulkanApiVersion = device.apiVersion();
  options.spirv14 = device.IsExtensionEnabled("VK_KHR_spirv_1_4");
  options.validate = validate;
  options.entryPoint = info.pName;
  options.stage = info.stage;
  options.specialization = info.pSpecializationInfo;

  out->stage = info.stage;
  out->entryPoint = info.pName;
  out->shader.reset();

  // Bad specialisation data is reported by Compile below; such a stage is never cached.
  pipeline::SpecializationValues specialization;
  std::string specializationError;
  bool cacheable = cache != nullptr &&
                   pipeline::ReadSpecializationInfo(info.pSpecializationInfo, &specialization, &specializationError);
  pipeline::ShaderKey key;
  if (cacheable) {
    key = pipeline::ComputeShaderKey({words, options.entryPoint, info.stage, &specialization, options.vulkanApiVersion,
                                      options.spirv14, options.recipe});
    PipelineCache::Entry entry;
    if (cache->Find(key, &entry)) {
      if (entry.compiled != nullptr) {
        out->shader = entry.compiled;
      } else {
        // Loaded from pInitialData: the optimised SPIR-V only needs lowering (no validation, no optimisation).
        auto compiled = std::make_shared<pipeline::CompiledShader>();
        pipeline::CompileError error;
        if (pipeline::CompileOptimized(*entry.spirv, options, compiled.get(), &error)) {
          out->shader = compiled;
          cache->Insert(key, {entry.spirv, compiled});
        } else {
          CT_WARN("%s: pipeline cache entry unusable (%s: %s); compiling from the module", where.c_str(),
                  pipeline::CompilePhaseName(error.phase), error.message.c_str());
        }
      }
      if (out->shader != nullptr) {
        creation->cacheHit = true;
        creation->durationNs = Since(start);
        return VK_SUCCESS;
      }
    }
  }
  if (failIfCompileRequired) {
    // "VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT specifies that pipeline creation will fail if a
    // compile is required for creation of a valid VkPipeline object; VK_PIPELINE_COMPILE_REQUIRED will be returned".
    // A success code, not an error: logged at info level only.
    CT_INFO("%s: %s stage \"%s\" is not in the pipeline cache and FAIL_ON_PIPELINE_COMPILE_REQUIRED is set",
            where.c_str(), StageName(info.stage), info.pName);
    creation->durationNs = Since(start);
    return VK_PIPELINE_COMPILE_REQUIRED;
  }

  auto compiled = std::make_shared<pipeline::CompiledShader>();
  pipeline::CompileError error;
  if (!pipeline::Compile(words, options, compiled.get(), &error)) {
    // Bad specialisation data breaks valid usage (the VUIDs are in the message); anything else is input the
    // compiler rejects (an unsupported construct, a missing entry point), for which VK_ERROR_UNKNOWN is the only
    // fitting result, as at vkCreateShaderModule.
    VkResult result = error.phase == pipeline::CompilePhase::Specialization ? VK_ERROR_VALIDATION_FAILED_EXT
                                                                            : VK_ERROR_UNKNOWN;
    return ReportError(result, "%s: %s stage, entry point \"%s\": %s failed: %s", where.c_str(),
                       StageName(info.stage), info.pName, pipeline::CompilePhaseName(error.phase),
                       error.message.c_str());
  }
  if (cacheable)
    cache->Insert(key, {std::make_shared<const std::vector<uint32_t>>(compiled->optimizedSpirv), compiled});
  out->shader = std::move(compiled);
  creation->durationNs = Since(start);
  return VK_SUCCESS;
}

}  // namespace

VkResult CreatePipelineStage(const Device& device, const VkPipelineShaderStageCreateInfo& info, PipelineCache* cache,
                             bool failIfCompileRequired, const std::string& where, PipelineStage* out,
                             StageCreation* creation) {
  *creation = {};
  const SubgroupSizes sizes = DeviceSubgroupSizes(device);
  uint32_t required = 0;
  if (VkResult result = CheckSubgroupSizeControl(device, info, where, sizes, &required); result != VK_SUCCESS)
    return result;
  VkResult result = CompileStage(device, info, cache, failIfCompileRequired, where, out, creation);
  if (result != VK_SUCCESS) return result;
  out->requiredSubgroupSize = required;
  out->subgroupSize = required != 0 ? required : sizes.standard;
  // The interpreter's lanes: a power of two from 1 to 64 (every Vulkan subgroup size a device here reports).
  if (out->subgroupSize == 0 || out->subgroupSize > 64 || (out->subgroupSize & (out->subgroupSize - 1)) != 0)
    out->subgroupSize = 32;
  if (info.stage == VK_SHADER_STAGE_COMPUTE_BIT) {
    if (VkResult limits = CheckComputeLimits(device, out->shader->module, where); limits != VK_SUCCESS) return limits;
    out->executable = execution::BuildExecutable(out->shader->module, &out->executableError);
  } else if (info.stage == VK_SHADER_STAGE_VERTEX_BIT || info.stage == VK_SHADER_STAGE_FRAGMENT_BIT) {
    out->executable = execution::BuildExecutable(out->shader->module, &out->executableError);
  } else {
    out->executableError = "tessellation and geometry shaders";
  }
  // REQUIRE_FULL_SUBGROUPS_BIT: "the subgroup sizes must be launched with all invocations active in the compute
  // stage"; it means nothing to a graphics stage.
  if (info.stage == VK_SHADER_STAGE_COMPUTE_BIT)
    return CheckComputeSubgroups(info, where, sizes, required, out->shader->module.entryPoint.localSize);
  return VK_SUCCESS;
}

}  // namespace crashtest
