// A timing program, not a test: CopyBuffer of 64 MiB against plain memcpy of the same bytes, best of several runs.
// Run it by hand: build/tests/transfer/transfer_copy_bench
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "transfer/surface_ops.h"

int main() {
  using Clock = std::chrono::steady_clock;
  constexpr size_t kSize = size_t{64} << 20;
  std::vector<std::byte> src(kSize, std::byte{1}), dst(kSize, std::byte{2});
  VkBufferCopy2 region{VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 0, 0, kSize};
  auto best = [](auto&& body) {
    double seconds = 1e9;
    for (int i = 0; i < 10; ++i) {
      auto start = Clock::now();
      body();
      seconds = std::min(seconds, std::chrono::duration<double>(Clock::now() - start).count());
    }
    return seconds;
  };
  double copy = best([&] {
    crashtest::transfer::CopyBuffer({src.data(), kSize}, {dst.data(), kSize}, {&region, 1});
  });
  double plain = best([&] { std::memcpy(dst.data(), src.data(), kSize); });
  std::printf("CopyBuffer 64 MiB: %.2f GB/s; memcpy: %.2f GB/s; ratio %.2f\n", kSize / copy / 1e9,
              kSize / plain / 1e9, plain / copy);
  return 0;
}
