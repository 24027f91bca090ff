// The vendor binary of a device loss (vkGetDeviceFaultDebugInfoKHR, VkDeviceFaultInfoEXT::pVendorBinaryData):
// the normative 56-byte VkDeviceFaultVendorBinaryHeaderVersionOneKHR written field by field (1.3.239's EXT struct
// is 48 bytes and wrong), the application and engine names, then crashtest's versioned sections. Layout in
// docs/faults.md; constants shared with readers are here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fault/fault_engine.h"

namespace crashtest {

inline constexpr uint32_t kVendorBinaryHeaderSize = 56;
inline constexpr char kDumpMagic[8] = {'C', 'T', 'D', 'U', 'M', 'P', '\0', '\0'};
inline constexpr uint32_t kDumpVersion = 1;
inline constexpr uint32_t kSectionFaults = 1;
inline constexpr uint32_t kSectionFaultsVersion = 1;
inline constexpr uint32_t kFaultIdSize = 64;
inline constexpr uint32_t kFaultRecordSize = 72 + kFaultIdSize + 2 * VK_MAX_DESCRIPTION_SIZE;  // 648

// Builds the binary of one loss. `faultIds` is parallel to `reports`.
std::vector<std::byte> BuildVendorBinary(const FaultIdentity& identity, std::span<const FaultReport> reports,
                                         std::span<const std::string> faultIds);

}  // namespace crashtest
