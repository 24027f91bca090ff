#include "stats_input.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "common/file_reader.h"
#include "profile/builtin_profiles.h"
#include "profile/config.h"

namespace crashtest {

bool ReadSpirvWords(const std::string& path, std::vector<uint32_t>& words, std::string& error) {
  // A FIFO or a device (a typo for a shell redirection) is refused rather than read forever.
  constexpr std::size_t kMaxModuleBytes = std::size_t{256} << 20;
  std::string bytes;
  std::string readError;
  if (!ReadRegularFile(path, kMaxModuleBytes, bytes, readError)) {
    error = path + ": " + readError;
    return false;
  }
  if (bytes.size() < 20 || bytes.size() % 4 != 0) {
    error = path + ": not a SPIR-V binary (" + std::to_string(bytes.size()) +
            " bytes; SPIR-V is a whole number of 32-bit words with a 5-word header)";
    return false;
  }
  words.resize(bytes.size() / 4);
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(words.data()));
  if (words[0] != spv::MagicNumber) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", words[0]);
    error = path + ": not a SPIR-V binary (magic number " + hex + ", expected 0x07230203)";
    return false;
  }
  return true;
}

std::vector<SpirvEntryPoint> ListEntryPoints(const std::vector<uint32_t>& words) {
  std::vector<SpirvEntryPoint> entries;
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16;
    uint32_t opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) break;
    if (opcode == spv::OpEntryPoint && count >= 4) {
      SpirvEntryPoint entry;
      entry.executionModel = words[at + 1];
      const char* name = reinterpret_cast<const char*>(&words[at + 3]);
      size_t maxBytes = (count - 3) * 4;
      entry.name.assign(name, strnlen(name, maxBytes));
      entries.push_back(entry);
    }
    if (opcode == spv::OpFunction) break;  // entry points come before any function
    at += count;
  }
  return entries;
}

bool ParseStage(const std::string& text, VkShaderStageFlagBits& stage) {
  static const struct {
    const char* a;
    const char* b;
    VkShaderStageFlagBits stage;
  } kStages[] = {
      {"vert", "vertex", VK_SHADER_STAGE_VERTEX_BIT},
      {"tesc", "tessellation-control", VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT},
      {"tese", "tessellation-evaluation", VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT},
      {"geom", "geometry", VK_SHADER_STAGE_GEOMETRY_BIT},
      {"frag", "fragment", VK_SHADER_STAGE_FRAGMENT_BIT},
      {"comp", "compute", VK_SHADER_STAGE_COMPUTE_BIT},
  };
  for (const auto& s : kStages)
    if (text == s.a || text == s.b) {
      stage = s.stage;
      return true;
    }
  return false;
}

bool StageOfExecutionModel(uint32_t model, VkShaderStageFlagBits& stage) {
  switch (model) {
    case spv::ExecutionModelVertex: stage = VK_SHADER_STAGE_VERTEX_BIT; return true;
    case spv::ExecutionModelTessellationControl: stage = VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT; return true;
    case spv::ExecutionModelTessellationEvaluation:
      stage = VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
      return true;
    case spv::ExecutionModelGeometry: stage = VK_SHADER_STAGE_GEOMETRY_BIT; return true;
    case spv::ExecutionModelFragment: stage = VK_SHADER_STAGE_FRAGMENT_BIT; return true;
    case spv::ExecutionModelGLCompute: stage = VK_SHADER_STAGE_COMPUTE_BIT; return true;
    default: return false;
  }
}

bool LoadStatsDevice(const std::string& reference, DeviceDescription& device, std::string& error) {
  std::string resolved = reference;
  // A bare name of the built-in library is a built-in device; anything else is a profile path.
  if (resolved.rfind("builtin:", 0) != 0 && FindBuiltinProfile(resolved).has_value()) resolved = "builtin:" + resolved;
  else if (resolved.rfind("builtin:", 0) != 0 && resolved.find('/') == std::string::npos &&
           resolved.find(".json") == std::string::npos)
    resolved = "builtin:" + resolved;  // a typo of a built-in name: the loader lists the available ones
  Diagnostics diagnostics;
  bool ok = LoadDevice(resolved, "", "", false, device, diagnostics);
  for (const Diagnostic& d : diagnostics.Items()) {
    if (d.severity != Severity::Error) continue;
    error += d.Format() + "\n";
  }
  if (!ok && error.empty()) error = resolved + ": cannot load the device\n";
  return ok;
}

}  // namespace crashtest
