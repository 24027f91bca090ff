#include "profile/dump_options.h"

#include <filesystem>

namespace crashtest {

bool ReadDumpOptions(const ReadContext& ctx, const nlohmann::json& options, const std::string& baseDirectory,
                     DumpOptions& out) {
  bool ok = true;
  if (auto it = options.find("dumpDirectory"); it != options.end()) {
    if (!it->is_string() || it->get<std::string>().empty()) {
      ctx.Error("options.dumpDirectory", "expected the path of a folder (a non-empty string), got " + it->dump());
      ok = false;
    } else {
      std::filesystem::path path(it->get<std::string>());
      if (path.is_relative() && !baseDirectory.empty()) path = std::filesystem::path(baseDirectory) / path;
      out.directory = path.lexically_normal().string();
    }
  }
  if (auto it = options.find("dumpSizeLimit"); it != options.end()) {
    if (!it->is_number_unsigned() || it->get<uint64_t>() < kMinDumpSizeLimit ||
        it->get<uint64_t>() > kMaxDumpSizeLimit) {
      ctx.Error("options.dumpSizeLimit", "expected a number of bytes from " + std::to_string(kMinDumpSizeLimit) +
                                             " to " + std::to_string(kMaxDumpSizeLimit) + ", got " + it->dump());
      ok = false;
    } else {
      out.sizeLimit = it->get<uint64_t>();
    }
  }
  return ok;
}

}  // namespace crashtest
