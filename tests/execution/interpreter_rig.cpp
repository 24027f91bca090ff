#include "interpreter_rig.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "execution/worker_pool.h"
#include "pipeline/compiler.h"

namespace crashtest::execution {
namespace {

std::vector<uint32_t> ReadWords(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

}  // namespace

std::shared_ptr<const Executable> Build(const std::string& path) {
  std::vector<uint32_t> words = ReadWords(path);
  EXPECT_FALSE(words.empty()) << path;
  pipeline::CompileOptions options;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  if (!pipeline::Compile(words, options, &compiled, &error)) {
    ADD_FAILURE() << path << ": " << error.message;
    return nullptr;
  }
  std::string message;
  auto exe = BuildExecutable(compiled.module, &message);
  EXPECT_NE(exe, nullptr) << path << ": " << message;
  return exe;
}

DispatchOutcome RunShader(const Executable& exe, std::vector<std::vector<uint32_t>>& buffers, uint32_t width,
                          uint32_t threads, const uint32_t groups[3], std::vector<uint32_t> push,
                          OutOfRangeMode outOfRange) {
  std::vector<BufferRange> ranges(exe.bufferSlots);
  push.resize(32, 0);
  ranges[0] = {reinterpret_cast<std::byte*>(push.data()), push.size() * 4, 0};
  for (const BufferBinding& binding : exe.buffers) {
    if (binding.set != 0 || binding.binding >= buffers.size()) continue;
    std::vector<uint32_t>& b = buffers[binding.binding];
    ranges[binding.firstSlot] = {reinterpret_cast<std::byte*>(b.data()), b.size() * 4, RigAddress(binding.binding)};
  }
  DispatchContext context;
  context.exe = &exe;
  context.buffers = ranges.data();
  context.width = width;
  context.outOfRange = outOfRange;
  for (int i = 0; i < 3; ++i) context.groups[i] = groups[i];
  context.instructionBudget = 100000000;
  WorkerPool pool(threads);
  return RunDispatch(context, pool, nullptr);
}

}  // namespace crashtest::execution
