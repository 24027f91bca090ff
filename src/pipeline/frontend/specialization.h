// VkSpecializationInfo as SPIRV-Tools' spec-constant default values (bit patterns, one vector per SpecId).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace crashtest::pipeline {

using SpecializationValues = std::unordered_map<uint32_t, std::vector<uint32_t>>;

// Returns false (and says why in `message`) when an entry lies outside pData: "offset + size must be less than or
// equal to dataSize" (VUID-VkSpecializationInfo-offset-00773) and "For each pMapEntries, size must be less than or
// equal to dataSize minus offset" (VUID-VkSpecializationInfo-pMapEntries-00774).
bool ReadSpecializationInfo(const VkSpecializationInfo* info, SpecializationValues* values, std::string* message);

}  // namespace crashtest::pipeline
