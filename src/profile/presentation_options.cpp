#include "profile/presentation_options.h"

#include <filesystem>

namespace crashtest {
namespace {

bool ReadCount(const ReadContext& ctx, const nlohmann::json& options, const char* key, uint32_t max, uint32_t& out) {
  auto it = options.find(key);
  if (it == options.end()) return true;
  if (!it->is_number_unsigned() || it->get<uint64_t>() > max) {
    ctx.Error(std::string("options.") + key,
              "expected an integer from 0 to " + std::to_string(max) + ", got " + it->dump());
    return false;
  }
  out = static_cast<uint32_t>(it->get<uint64_t>());
  return true;
}

}  // namespace

bool ReadPresentationOptions(const ReadContext& ctx, const nlohmann::json& options, const std::string& baseDirectory,
                             PresentationOptions& out) {
  bool ok = ReadCount(ctx, options, "presentRefreshRate", kMaxPresentRefreshRate, out.refreshRate);
  ok &= ReadCount(ctx, options, "captureEvery", 1000000, out.captureEvery);
  ok &= ReadCount(ctx, options, "captureLast", 1000, out.captureLast);
  if (auto it = options.find("captureDirectory"); it != options.end()) {
    if (!it->is_string() || it->get<std::string>().empty()) {
      ctx.Error("options.captureDirectory", "expected the path of a folder (a non-empty string), got " + it->dump());
      ok = false;
    } else {
      std::filesystem::path path(it->get<std::string>());
      if (path.is_relative() && !baseDirectory.empty()) path = std::filesystem::path(baseDirectory) / path;
      out.captureDirectory = path.lexically_normal().string();
    }
  }
  return ok;
}

}  // namespace crashtest
