// The entry points the fuzzers drive (tests/fuzz/README in docs/robustness.md): untrusted bytes into the same code
// the driver and the `crashtest` command run on them. Shared by the libFuzzer executables (clang build,
// -Dfuzzers=true) and by the regression replay test of the plain build, which feeds every committed crash input
// to the same function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace crashtest::fuzz {

// What happened to one input: accepted, or rejected with the message a user would see. A rejection without a
// message is a defect of its own (a bad input must never be silent), which the replay test asserts.
struct Outcome {
  bool accepted = false;
  std::string error;
};

// SPIR-V bytes → validation, specialisation, optimisation, lowering, IR verification and analyses
// (pipeline::Compile, as vkCreate*Pipelines and `crashtest stats` run it), then the pipeline-cache path
// (CompileOptimized on the optimised words), the executable form (execution::BuildExecutable) and the statistics
// with their IR listing, for each entry point of the module.
Outcome RunSpirv(std::span<const uint8_t> bytes);

// JSON bytes → what `crashtest check` and vkCreateInstance run: a Vulkan Profiles file (top-level
// "capabilities") through the profile reader and the intersection with the driver, anything else through the
// configuration reader (devices, fault plan, options); then the same bytes as one fault of the runtime control API
// (crashtestInjectFault's reader).
Outcome RunConfig(std::span<const uint8_t> bytes);

// Bytes → the crash dump decoder and its text and JSON reports (`crashtest decode`).
Outcome RunDump(std::span<const uint8_t> bytes);

}  // namespace crashtest::fuzz
