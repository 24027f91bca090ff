// `crashtest decode FILE [--json]`: reads a vendor binary back (docs/cli.md, docs/faults.md "Vendor binary").
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

#include "commands.h"
#include "fault/dump/dump_reader.h"
#include "fault/dump/dump_report.h"

namespace crashtest {
namespace {

constexpr OptionSpec kOptions[] = {
    {"json", "", "print the dump as one JSON object for tooling"},
};

// Dumps are capped at 1 GiB by the driver (options.dumpSizeLimit); a bigger file is not one of them.
constexpr std::streamoff kMaxFileBytes = std::streamoff{1} << 30;

int Run(const ParsedArgs& args) {
  if (args.positional.size() != 1 || args.positional[0].empty()) {
    std::cerr << "crashtest decode: expected exactly one FILE\nRun 'crashtest help decode' for usage.\n";
    return kExitUsage;
  }
  const std::string& path = args.positional[0];
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    std::cerr << "crashtest decode: " << path << ": not a regular file\n";
    return kExitFailure;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "crashtest decode: " << path << ": cannot open the file\n";
    return kExitFailure;
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0 || size > kMaxFileBytes) {
    std::cerr << "crashtest decode: " << path << ": not a crashtest crash dump (" << size
              << " bytes, more than a dump can hold)\n";
    return kExitFailure;
  }
  std::vector<std::byte> bytes(static_cast<size_t>(size));
  if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) {
    std::cerr << "crashtest decode: " << path << ": read failed\n";
    return kExitFailure;
  }
  dump::Decoded decoded;
  std::string error;
  if (!dump::DecodeVendorBinary(bytes, &decoded, &error)) {
    std::cerr << "crashtest decode: " << path << ": not a valid crashtest crash dump: " << error << '\n';
    return kExitFailure;
  }
  if (args.Has("json")) {
    nlohmann::json out = dump::DumpJson(decoded);
    out["file"] = path;
    // Names come from the application: replace invalid UTF-8 rather than fail.
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  } else {
    std::cout << path << ": " << bytes.size() << " bytes\n" << dump::DumpText(decoded);
  }
  return kExitOk;
}

}  // namespace

const Command& DecodeCommand() {
  static const Command command{
      .name = "decode",
      .summary = "Print a vendor crash dump (vkGetDeviceFaultDebugInfoKHR, CRASHTEST_DUMP_DIR) as text or JSON",
      .arguments = "FILE",
      .description =
          "Reads a crash dump the driver wrote (a file in CRASHTEST_DUMP_DIR or options.dumpDirectory, or the bytes\n"
          "vkGetDeviceFaultDebugInfoKHR / vkGetDeviceFaultInfoEXT returned) and prints what happened: the fault,\n"
          "the command that was executing with its label path, the faulting shader instruction and source line,\n"
          "the resource owning the faulting address (or the freed one it falls in), the last buffer marker and\n"
          "checkpoint, then the bound pipelines, the submission's commands, the resources and the object names.",
      .options = kOptions,
      .details =
          "Output (stdout): the report, or with --json one object {\"faults\", \"submissions\", \"pipelines\",\n"
          "\"resources\", \"breadcrumbs\", \"objectNames\", \"device\", \"application\", \"truncated\", ...}.\n"
          "\n"
          "Exit codes: 0 decoded; 1 the file cannot be read or is not a whole crashtest dump (truncated, corrupt,\n"
          "or another driver's vendor binary; the message says what is wrong); 2 usage error.",
      .run = &Run,
  };
  return command;
}

}  // namespace crashtest
