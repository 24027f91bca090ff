// What `crashtest stats` reads before it can compute anything: the SPIR-V file, the entry point and stage it
// describes, and the device whose machine model prices it. Errors come back as one line naming what is wrong.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "device/device_description.h"

namespace crashtest {

struct SpirvEntryPoint {
  std::string name;
  uint32_t executionModel = 0;
};

bool ReadSpirvWords(const std::string& path, std::vector<uint32_t>& words, std::string& error);
// The module's OpEntryPoint instructions, in order.
std::vector<SpirvEntryPoint> ListEntryPoints(const std::vector<uint32_t>& words);
// "vert"/"vertex", "tesc", "tese", "geom"/"geometry", "frag"/"fragment", "comp"/"compute"; false if unknown.
bool ParseStage(const std::string& text, VkShaderStageFlagBits& stage);
// The stage of an execution model; false for models crashtest does not compile.
bool StageOfExecutionModel(uint32_t model, VkShaderStageFlagBits& stage);

// A device as `--device` names it: a built-in name ("mali-g78" or "builtin:mali-g78") or a profile path.
// Messages from the profile loader go into `error`, one per line.
bool LoadStatsDevice(const std::string& reference, DeviceDescription& device, std::string& error);

}  // namespace crashtest
