#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "device/device_description.h"
#include "execution/executable_builder.h"
#include "fuzz_targets.h"
#include "pipeline/compiler.h"
#include "profile/config.h"
#include "statistics/representations.h"
#include "statistics/shader_statistics.h"
#include "stats_input.h"  // tools/: ListEntryPoints, as `crashtest stats` finds the entry points

namespace crashtest::fuzz {
namespace {

// The statistics need a machine model: the built-in default device's, read once.
const MachineModel& DefaultMachine() {
  static const MachineModel machine = [] {
    DeviceDescription device;
    Diagnostics diagnostics;
    (void)LoadDevice("builtin:default", "", "", false, device, diagnostics);
    return device.machine;
  }();
  return machine;
}

// Entry points past this many add time per input without reaching new code.
constexpr std::size_t kMaxEntryPoints = 4;

bool CompileEntryPoint(const std::vector<uint32_t>& words, const SpirvEntryPoint& entry, std::string& error) {
  VkShaderStageFlagBits stage{};
  if (!StageOfExecutionModel(entry.executionModel, stage)) {
    error = "execution model " + std::to_string(entry.executionModel) + " is not compiled";
    return false;
  }
  // As `crashtest stats` compiles offline: validated for the newest environment crashtest knows.
  pipeline::CompileOptions options;
  options.vulkanApiVersion = VK_API_VERSION_1_3;
  options.spirv14 = true;
  options.entryPoint = entry.name;
  options.stage = stage;
  pipeline::CompiledShader compiled;
  pipeline::CompileError compileError;
  if (!pipeline::Compile(words, options, &compiled, &compileError)) {
    error = std::string(pipeline::CompilePhaseName(compileError.phase)) + ": " + compileError.message;
    return false;
  }
  // A pipeline cache hit lowers the optimised words again (pipeline_cache.cpp): they must compile too.
  pipeline::CompiledShader cached;
  if (!pipeline::CompileOptimized(compiled.optimizedSpirv, options, &cached, &compileError)) {
    error = "the optimised words do not compile again: " + compileError.message;
    return false;
  }
  // Pipeline creation builds the executable form; a construct the interpreter lacks is a message, not a failure.
  std::string unsupported;
  std::shared_ptr<const execution::Executable> executable = execution::BuildExecutable(compiled.module, &unsupported);
  (void)executable;
  const statistics::ShaderStatistics stats = statistics::ComputeStatistics(compiled, DefaultMachine(), stage);
  (void)statistics::AnnotatedIrListing(compiled, DefaultMachine(), stats);
  return true;
}

}  // namespace

Outcome RunSpirv(std::span<const uint8_t> bytes) {
  Outcome outcome;
  // vkCreateShaderModule takes whole 32-bit words (codeSize is a multiple of 4).
  const std::size_t wordCount = bytes.size() / 4;
  if (wordCount < 5) {
    outcome.error = "not a SPIR-V module: fewer than the 5 header words";
    return outcome;
  }
  std::vector<uint32_t> words(wordCount);
  std::memcpy(words.data(), bytes.data(), wordCount * 4);
  const std::vector<SpirvEntryPoint> entries = ListEntryPoints(words);
  if (entries.empty()) {
    // Validation still runs: a module without entry points is rejected there, or has nothing to compile.
    pipeline::CompileOptions options;
    options.spirv14 = true;
    pipeline::CompiledShader compiled;
    pipeline::CompileError compileError;
    if (!pipeline::Compile(words, options, &compiled, &compileError)) outcome.error = compileError.message;
    else outcome.error = "no entry point";
    return outcome;
  }
  bool any = false;
  for (std::size_t i = 0; i < std::min(entries.size(), kMaxEntryPoints); ++i) {
    std::string error;
    if (CompileEntryPoint(words, entries[i], error)) any = true;
    else if (outcome.error.empty()) outcome.error = entries[i].name + ": " + error;
  }
  outcome.accepted = any;
  return outcome;
}

}  // namespace crashtest::fuzz
