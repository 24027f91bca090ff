#include "pipeline/pipeline_stage.h"

#include <chrono>
#include <span>

#include "common/log.h"
#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "pipeline/pipeline_cache.h"
#include "pipeline/shader_key.h"
#include "pipeline/shader_module.h"

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

}  // namespace

VkResult CreatePipelineStage(const Device& device, const VkPipelineShaderStageCreateInfo& info, PipelineCache* cache,
                             bool failIfCompileRequired, const std::string& where, PipelineStage* out,
                             StageCreation* creation) {
  auto start = std::chrono::steady_clock::now();
  *creation = {};
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

}  // namespace crashtest
