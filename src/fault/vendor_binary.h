// The vendor binary of a device loss (vkGetDeviceFaultDebugInfoKHR, VkDeviceFaultInfoEXT::pVendorBinaryData):
// the normative 56-byte VkDeviceFaultVendorBinaryHeaderVersionOneKHR written field by field (1.3.239's EXT struct
// is 48 bytes and wrong), the application and engine names, then crashtest's versioned sections (dump/). Layout in
// docs/faults.md; constants shared with readers are here and in dump/dump_sections.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fault/dump/dump_content.h"
#include "fault/fault_engine.h"
#include "profile/dump_options.h"

namespace crashtest {

inline constexpr uint32_t kVendorBinaryHeaderSize = 56;
inline constexpr char kDumpMagic[8] = {'C', 'T', 'D', 'U', 'M', 'P', '\0', '\0'};
inline constexpr uint32_t kDumpVersion = 1;

// Builds the binary of one loss. `faultIds` is parallel to `reports`. Lists that would take the binary past
// `sizeLimit` bytes are cut, and each list says how many items it lost.
std::vector<std::byte> BuildVendorBinary(const FaultIdentity& identity, std::span<const FaultReport> reports,
                                         std::span<const std::string> faultIds, const dump::Content& content = {},
                                         uint64_t sizeLimit = kDefaultDumpSizeLimit);

}  // namespace crashtest
