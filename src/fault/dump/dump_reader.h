// The decoder of crashtest vendor binaries (`crashtest decode`, tests): reads the 56-byte header, the names and
// every section it knows, skipping the others by their payload size. Never trusts a size or count: a truncated,
// corrupt or foreign file gives an error naming what is wrong, never a crash, a hang or an unbounded allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fault/dump/dump_content.h"

namespace crashtest::dump {

struct DecodedFault {
  uint32_t flags = 0;
  uint32_t addressType = 0;
  uint64_t groupId = 0;
  uint64_t address = 0, addressPrecision = 0;
  uint32_t instructionType = 0;
  uint64_t instruction = 0, instructionPrecision = 0;
  uint64_t vendorCode = 0, vendorData = 0;
  std::string faultId, description, vendorDescription;
};

struct Decoded {
  uint32_t vendorID = 0, deviceID = 0, driverVersion = 0;
  uint8_t pipelineCacheUUID[16] = {};
  std::string applicationName, engineName;
  uint32_t applicationVersion = 0, engineVersion = 0, apiVersion = 0;
  uint32_t containerVersion = 0;
  std::vector<DecodedFault> faults;
  Content content;
  // What the size cap cut ("12 commands of command buffer 7"), and sections this decoder does not know.
  std::vector<std::string> truncated;
  std::vector<uint32_t> unknownSections;
};

// False with *error set ("section 3 (submissions): command name: truncated") when `bytes` is not a whole crashtest
// vendor binary.
bool DecodeVendorBinary(std::span<const std::byte> bytes, Decoded* out, std::string* error);

}  // namespace crashtest::dump
