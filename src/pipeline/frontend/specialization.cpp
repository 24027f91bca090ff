#include "pipeline/frontend/specialization.h"

#include <cstdio>
#include <cstring>

namespace crashtest::pipeline {

bool ReadSpecializationInfo(const VkSpecializationInfo* info, SpecializationValues* values, std::string* message) {
  values->clear();
  if (info == nullptr) return true;
  for (uint32_t i = 0; i < info->mapEntryCount; ++i) {
    const VkSpecializationMapEntry& entry = info->pMapEntries[i];
    if (entry.size == 0 || uint64_t{entry.offset} + entry.size > info->dataSize) {
      char text[160];
      std::snprintf(text, sizeof text,
                    "pMapEntries[%u] (constantID %u) reads bytes %u..%zu of pData, which holds %zu bytes", i,
                    entry.constantID, entry.offset, entry.offset + entry.size, info->dataSize);
      *message = text;
      return false;
    }
    // Booleans come as a VkBool32 ("If the specialization constant is of type boolean, size must be the byte size
    // of VkBool32", VUID-VkSpecializationMapEntry-constantID-00776); 8- and 16-bit constants occupy the low bits.
    std::vector<uint32_t> words((entry.size + 3) / 4, 0);
    std::memcpy(words.data(), static_cast<const char*>(info->pData) + entry.offset, entry.size);
    // "If a constantID value is not a specialization constant ID used in the shader, that map entry does not
    // affect the behavior of the pipeline": SPIRV-Tools ignores ids it does not find.
    (*values)[entry.constantID] = std::move(words);
  }
  return true;
}

}  // namespace crashtest::pipeline
