#include <nlohmann/json.hpp>

#include "fault/dump/dump_reader.h"
#include "fault/dump/dump_report.h"
#include "fuzz_targets.h"

namespace crashtest::fuzz {

Outcome RunDump(std::span<const uint8_t> bytes) {
  Outcome outcome;
  dump::Decoded decoded;
  const std::span<const std::byte> input(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
  if (!dump::DecodeVendorBinary(input, &decoded, &outcome.error)) return outcome;
  // Both reports, as `crashtest decode` and `crashtest decode --json` print them (names may be invalid UTF-8).
  (void)dump::DumpText(decoded);
  (void)dump::DumpJson(decoded).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  outcome.accepted = true;
  return outcome;
}

}  // namespace crashtest::fuzz
