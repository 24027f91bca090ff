#include "statistics/executable_properties.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "common/count_array.h"
#include "common/log.h"

namespace crashtest::statistics {
namespace {

// name and description are char[VK_MAX_DESCRIPTION_SIZE]: "a null-terminated UTF-8 string". Zero the whole
// array first so no stale byte of the caller's survives, then keep at most 255 bytes.
void CopyString(char (&out)[VK_MAX_DESCRIPTION_SIZE], std::string_view text) {
  std::memset(out, 0, sizeof out);
  std::memcpy(out, text.data(), std::min(text.size(), sizeof out - 1));
}

// Checks shared by the statistics and representation queries. False means the call is invalid: it has been
// logged and *pCount (when there is one) set to 0.
bool CheckExecutableQuery(const char* command, std::span<const ExecutableInfo> executables, uint32_t index,
                          uint32_t* pCount) {
  if (pCount == nullptr) {
    CT_ERROR("%s: the count pointer is NULL (it must point to a uint32_t)", command);
    return false;
  }
  if (index >= executables.size()) {
    // VUID-VkPipelineExecutableInfoKHR-executableIndex-03275: "executableIndex must be less than the number of
    // pipeline executables associated with pipeline".
    CT_ERROR("%s: executableIndex %u is out of range: the pipeline has %zu executable%s "
             "(VUID-VkPipelineExecutableInfoKHR-executableIndex-03275)",
             command, index, executables.size(), executables.size() == 1 ? "" : "s");
    *pCount = 0;
    return false;
  }
  return true;
}

// One representation into the caller's element; returns whether its data was truncated.
bool WriteRepresentation(const ExecutableRepresentation& from, VkPipelineExecutableInternalRepresentationKHR* to) {
  CopyString(to->name, from.name);
  CopyString(to->description, from.description);
  to->isText = from.isText ? VK_TRUE : VK_FALSE;
  const size_t required = from.data.size() + (from.isText ? 1 : 0);  // text: "including the null terminator"
  if (to->pData == nullptr) {
    // "If pData is NULL, then the size, in bytes, of the internal representation data is returned in dataSize."
    to->dataSize = required;
    return false;
  }
  auto* out = static_cast<char*>(to->pData);
  if (to->dataSize >= required) {
    std::memcpy(out, from.data.data(), from.data.size());
    if (from.isText) out[from.data.size()] = '\0';
    to->dataSize = required;
    return false;
  }
  // Too small: "at most dataSize bytes of data will be written to pData" and VK_INCOMPLETE. Since Vulkan 1.3.260
  // text must stay a string: "If isText is VK_TRUE and pData is not NULL and dataSize is not zero, the last byte
  // written to pData will be a null character".
  if (to->dataSize != 0) {
    if (from.isText) {
      std::memcpy(out, from.data.data(), to->dataSize - 1);
      out[to->dataSize - 1] = '\0';
    } else {
      std::memcpy(out, from.data.data(), to->dataSize);
    }
  }
  return true;
}

}  // namespace

VkResult GetExecutableProperties(std::span<const ExecutableInfo> executables, uint32_t* pExecutableCount,
                                 VkPipelineExecutablePropertiesKHR* pProperties) {
  if (pExecutableCount == nullptr) {
    CT_ERROR("vkGetPipelineExecutablePropertiesKHR: pExecutableCount is NULL (it must point to a uint32_t)");
    return VK_ERROR_UNKNOWN;
  }
  // The caller's sType and pNext are left as they are; only the returned members are written.
  return FillCountArray(pExecutableCount, pProperties, static_cast<uint32_t>(executables.size()),
                        [&](uint32_t i, VkPipelineExecutablePropertiesKHR* out) {
                          const ExecutableInfo& e = executables[i];
                          out->stages = e.stages;
                          CopyString(out->name, e.name);
                          CopyString(out->description, e.description);
                          out->subgroupSize = e.subgroupSize;
                        });
}

VkResult GetExecutableStatistics(std::span<const ExecutableInfo> executables, uint32_t executableIndex,
                                 uint32_t* pStatisticCount, VkPipelineExecutableStatisticKHR* pStatistics) {
  if (!CheckExecutableQuery("vkGetPipelineExecutableStatisticsKHR", executables, executableIndex, pStatisticCount))
    return VK_ERROR_UNKNOWN;
  const auto& statistics = executables[executableIndex].statistics;
  return FillCountArray(pStatisticCount, pStatistics, static_cast<uint32_t>(statistics.size()),
                        [&](uint32_t i, VkPipelineExecutableStatisticKHR* out) {
                          CopyString(out->name, statistics[i].name);
                          CopyString(out->description, statistics[i].description);
                          out->format = statistics[i].format;
                          out->value = statistics[i].value;
                        });
}

VkResult GetExecutableInternalRepresentations(std::span<const ExecutableInfo> executables,
                                              uint32_t executableIndex, uint32_t* pInternalRepresentationCount,
                                              VkPipelineExecutableInternalRepresentationKHR* pInternalRepresentations) {
  if (!CheckExecutableQuery("vkGetPipelineExecutableInternalRepresentationsKHR", executables, executableIndex,
                            pInternalRepresentationCount))
    return VK_ERROR_UNKNOWN;
  const auto& representations = executables[executableIndex].representations;
  bool truncated = false;
  VkResult result = FillCountArray(pInternalRepresentationCount, pInternalRepresentations,
                                   static_cast<uint32_t>(representations.size()),
                                   [&](uint32_t i, VkPipelineExecutableInternalRepresentationKHR* out) {
                                     truncated |= WriteRepresentation(representations[i], out);
                                   });
  // "VK_INCOMPLETE will be returned instead of VK_SUCCESS" if the array or any element's data was truncated.
  return truncated && result == VK_SUCCESS ? VK_INCOMPLETE : result;
}

}  // namespace crashtest::statistics
