// Faults (crashtest only): vkGetDeviceFaultReportsKHR call cost, report-queue throughput with one consumer, and
// how fast a waiter blocked in the call wakes after a fault fires. Injection uses crashtest's runtime control
// API (see device_fault_khr.h); any driver without it reports the injection benchmarks as unsupported.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "bench_common.h"
#include "device_fault_khr.h"

namespace crashtest::bench {
namespace {

using Clock = std::chrono::steady_clock;

// A masked fault in the fault-plan JSON form: reported, the device lives, so one device serves every iteration.
constexpr const char* kMaskedFault =
    R"({"id": "bench", "effect": "masked", "report": {"description": "crashtest-bench masked fault"}})";

struct FaultApi {
  const VkContext* ctx = nullptr;
  PFN_GetDeviceFaultReports get_reports = nullptr;
  PFN_InjectFault inject = nullptr;
};

// Resolves the commands; skips the benchmark (and returns false) when something is missing.
bool fault_api_or_skip(benchmark::State& state, bool needs_injection, FaultApi* api) {
  api->ctx = context_or_skip(state, DeviceFlavor::kDeviceFault);
  if (!api->ctx) return false;
  if (!api->ctx->extension_enabled(kDeviceFaultExtensionName)) {
    return ok_or_skip(state, "unsupported: VK_KHR_device_fault (deviceFault) is not offered");
  }
  api->get_reports = reinterpret_cast<PFN_GetDeviceFaultReports>(api->ctx->proc("vkGetDeviceFaultReportsKHR"));
  if (!api->get_reports) return ok_or_skip(state, "unsupported: vkGetDeviceFaultReportsKHR is not provided");
  if (!needs_injection) return true;
  if (!api->ctx->masked_fault_reports()) {
    return ok_or_skip(state, "unsupported: deviceFaultReportMasked is off, so injected faults would lose the device");
  }
  api->inject = reinterpret_cast<PFN_InjectFault>(api->ctx->proc(kInjectFaultCommandName));
  if (!api->inject) {
    return ok_or_skip(state, std::string("unsupported: ") + kInjectFaultCommandName + " is not provided");
  }
  return true;
}

// Empties the queue so one benchmark's leftovers do not feed the next.
void drain(const FaultApi& api) {
  std::vector<DeviceFaultInfo> reports(256);
  for (;;) {
    uint32_t count = static_cast<uint32_t>(reports.size());
    for (DeviceFaultInfo& report : reports) report = DeviceFaultInfo{kStructureDeviceFaultInfo, nullptr, 0, 0, {}, {}, {}, {}};
    const VkResult result = api.get_reports(api.ctx->device(), 0, &count, reports.data());
    if (result != VK_INCOMPLETE && (result != VK_SUCCESS || count == 0)) return;
  }
}

void BM_FaultReportPollEmpty(benchmark::State& state) {
  FaultApi api;
  if (!fault_api_or_skip(state, false, &api)) return;
  drain(api);
  DeviceFaultInfo report{};
  report.sType = kStructureDeviceFaultInfo;
  for (auto _ : state) {
    uint32_t count = 1;
    const VkResult result = api.get_reports(api.ctx->device(), 0, &count, &report);
    // Spec: a zero timeout with nothing queued returns VK_TIMEOUT.
    if (result != VK_TIMEOUT) {
      ok_or_skip(state, "error: vkGetDeviceFaultReportsKHR on an empty queue returned " + result_name(result) +
                            ", expected VK_TIMEOUT");
      break;
    }
  }
}
BENCHMARK(BM_FaultReportPollEmpty);

void BM_FaultReportThroughput(benchmark::State& state) {
  FaultApi api;
  if (!fault_api_or_skip(state, true, &api)) return;
  drain(api);
  constexpr uint32_t kFaultsPerIteration = 1000;
  std::vector<DeviceFaultInfo> reports(256);
  int64_t delivered = 0;
  for (auto _ : state) {
    state.PauseTiming();
    VkResult result = VK_SUCCESS;
    for (uint32_t i = 0; i < kFaultsPerIteration && result == VK_SUCCESS; ++i) {
      result = api.inject(api.ctx->device(), kMaskedFault);
    }
    state.ResumeTiming();
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed(kInjectFaultCommandName, result));
      break;
    }
    // Consume exactly what was injected, in batches like a crash handler would.
    uint32_t received = 0;
    while (received < kFaultsPerIteration) {
      uint32_t count = std::min<uint32_t>(static_cast<uint32_t>(reports.size()), kFaultsPerIteration - received);
      for (uint32_t i = 0; i < count; ++i) reports[i].sType = kStructureDeviceFaultInfo, reports[i].pNext = nullptr;
      result = api.get_reports(api.ctx->device(), 1'000'000'000ull, &count, reports.data());
      if ((result != VK_SUCCESS && result != VK_INCOMPLETE) || count == 0) break;
      received += count;
    }
    delivered += received;
    if (received < kFaultsPerIteration) {
      ok_or_skip(state, "error: injected " + std::to_string(kFaultsPerIteration) + " masked faults but received " +
                            std::to_string(received) + " reports (last result " + result_name(result) + ")");
      break;
    }
  }
  state.counters["reports_per_second"] = benchmark::Counter(static_cast<double>(delivered), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FaultReportThroughput);

// Time from the injection call to the blocked waiter returning. One waiter thread lives across iterations.
void BM_FaultWakeLatency(benchmark::State& state) {
  FaultApi api;
  if (!fault_api_or_skip(state, true, &api)) return;
  drain(api);
  std::mutex mutex;
  std::condition_variable changed;
  int requested = 0, completed = 0;
  bool stop = false;
  Clock::time_point woke;
  VkResult waiter_result = VK_SUCCESS;
  std::thread waiter([&] {
    std::unique_lock<std::mutex> lock(mutex);
    for (int served = 0;; ++served) {
      changed.wait(lock, [&] { return stop || requested > served; });
      if (stop) return;
      lock.unlock();
      DeviceFaultInfo report{};
      report.sType = kStructureDeviceFaultInfo;
      uint32_t count = 1;
      const VkResult result = api.get_reports(api.ctx->device(), 2'000'000'000ull, &count, &report);
      const Clock::time_point now = Clock::now();
      lock.lock();
      woke = now;
      waiter_result = result;
      ++completed;
      changed.notify_all();
    }
  });
  std::vector<double> latencies;
  for (auto _ : state) {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      ++requested;
    }
    changed.notify_all();
    // Give the waiter time to block inside the call; it is the wake-up, not the call entry, being measured.
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    const Clock::time_point fired = Clock::now();
    const VkResult injected = api.inject(api.ctx->device(), kMaskedFault);
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return completed == requested; });
    if (injected != VK_SUCCESS || waiter_result != VK_SUCCESS) {
      lock.unlock();
      ok_or_skip(state, "error: injection returned " + result_name(injected) + ", the waiter got " +
                            result_name(waiter_result));
      break;
    }
    const double seconds = std::chrono::duration<double>(woke - fired).count();
    latencies.push_back(seconds);
    state.SetIterationTime(seconds);
  }
  {
    const std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  changed.notify_all();
  waiter.join();
  if (!latencies.empty()) {
    std::sort(latencies.begin(), latencies.end());
    const auto at = [&](double q) { return latencies[static_cast<size_t>(q * static_cast<double>(latencies.size() - 1))]; };
    state.counters["p50_us"] = at(0.50) * 1e6;
    state.counters["p99_us"] = at(0.99) * 1e6;
  }
}
BENCHMARK(BM_FaultWakeLatency)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace crashtest::bench
