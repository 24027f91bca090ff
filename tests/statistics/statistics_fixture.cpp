#include "statistics_fixture.h"

#include <stdexcept>

#include "profile/config.h"
#include "test_shaders.h"

namespace crashtest::test {

pipeline::CompiledShader CompileCorpus(const std::string& file, VkShaderStageFlagBits stage) {
  std::vector<uint32_t> words = CorpusWords(file);
  pipeline::CompileOptions options;
  options.stage = stage;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  if (!pipeline::Compile(words, options, &compiled, &error))
    throw std::runtime_error(file + ": " + pipeline::CompilePhaseName(error.phase) + ": " + error.message);
  return compiled;
}

const MachineModel& BuiltinModel(const std::string& name) {
  static std::map<std::string, MachineModel> models;
  auto it = models.find(name);
  if (it != models.end()) return it->second;
  DeviceDescription device;
  Diagnostics diagnostics;
  if (!LoadDevice("builtin:" + name, "", "", false, device, diagnostics))
    throw std::runtime_error("cannot load builtin:" + name);
  return models.emplace(name, device.machine).first->second;
}

statistics::ShaderStatistics StatsOf(const std::string& file, const std::string& device,
                                     VkShaderStageFlagBits stage) {
  pipeline::CompiledShader compiled = CompileCorpus(file, stage);
  return statistics::ComputeStatistics(compiled, BuiltinModel(device), stage);
}

}  // namespace crashtest::test
