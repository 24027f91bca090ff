#include "profile/crashtest_key.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "profile/closest_name.h"
#include "profile/description_access.h"
#include "profile/struct_table.h"

namespace crashtest {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

std::string Quoted(std::string_view s) { return '"' + std::string(s) + '"'; }

// Reports every member of `object` not in `known`, with the closest known name.
bool CheckMembers(const ReadContext& ctx, const Json& object, const std::string& path,
                  std::initializer_list<std::string_view> known) {
  bool ok = true;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (std::find(known.begin(), known.end(), it.key()) != known.end()) continue;
    std::string_view best = ClosestName(it.key(), [&](const auto& visit) {
      for (std::string_view k : known) visit(k);
    });
    ctx.Error(JoinPath(path, it.key()), "unknown member (did you mean " + Quoted(best) + "?)");
    ok = false;
  }
  return ok;
}

bool ExpectObject(const ReadContext& ctx, const Json& v, const std::string& path) {
  if (v.is_object()) return true;
  ctx.Error(path, "expected an object, got " + DescribeJson(v));
  return false;
}

bool ReadU32(const ReadContext& ctx, const Json& v, const std::string& path, uint32_t& out) {
  if (!v.is_number_unsigned() || v.get<uint64_t>() > UINT32_MAX) {
    ctx.Error(path, "expected an unsigned 32-bit integer, got " + DescribeJson(v));
    return false;
  }
  out = v.get<uint32_t>();
  return true;
}

bool ReadUuid(const ReadContext& ctx, const Json& v, const std::string& path, uint8_t (&out)[VK_UUID_SIZE]) {
  if (!v.is_array() || v.size() != VK_UUID_SIZE) {
    ctx.Error(path, "expected an array of 16 numbers (0-255), got " +
                        (v.is_array() ? std::to_string(v.size()) + " elements" : DescribeJson(v)));
    return false;
  }
  for (std::size_t i = 0; i < VK_UUID_SIZE; ++i) {
    if (!v[i].is_number_unsigned() || v[i].get<uint64_t>() > 255) {
      ctx.Error(IndexPath(path, i), "expected a number 0-255, got " + DescribeJson(v[i]));
      return false;
    }
    out[i] = v[i].get<uint8_t>();
  }
  return true;
}

bool ReadMemory(const ReadContext& ctx, const Json& memory, const std::string& path,
                VkPhysicalDeviceMemoryProperties& out) {
  if (!ExpectObject(ctx, memory, path) || !CheckMembers(ctx, memory, path, {"heaps", "types"})) return false;
  auto heaps = memory.find("heaps");
  auto types = memory.find("types");
  if (heaps == memory.end() || types == memory.end()) {
    ctx.Error(path, "expected both \"heaps\" and \"types\"");
    return false;
  }
  const std::string heapsPath = JoinPath(path, "heaps");
  const std::string typesPath = JoinPath(path, "types");
  if (!heaps->is_array() || heaps->empty() || heaps->size() > VK_MAX_MEMORY_HEAPS) {
    ctx.Error(heapsPath, "expected an array of 1 to " + std::to_string(VK_MAX_MEMORY_HEAPS) + " heaps, got " +
                             (heaps->is_array() ? std::to_string(heaps->size()) + " elements" : DescribeJson(*heaps)));
    return false;
  }
  if (!types->is_array() || types->empty() || types->size() > VK_MAX_MEMORY_TYPES) {
    ctx.Error(typesPath, "expected an array of 1 to " + std::to_string(VK_MAX_MEMORY_TYPES) + " types, got " +
                             (types->is_array() ? std::to_string(types->size()) + " elements" : DescribeJson(*types)));
    return false;
  }
  VkPhysicalDeviceMemoryProperties m{};
  bool ok = true;
  for (std::size_t i = 0; i < heaps->size(); ++i) {
    const Json& heap = (*heaps)[i];
    const std::string p = IndexPath(heapsPath, i);
    if (!ExpectObject(ctx, heap, p) || !CheckMembers(ctx, heap, p, {"size", "flags"})) {
      ok = false;
      continue;
    }
    auto size = heap.find("size");
    if (size == heap.end() || !size->is_number_unsigned() || size->get<uint64_t>() == 0) {
      ctx.Error(JoinPath(p, "size"), "expected a size in bytes (a positive integer), got " +
                                         (size == heap.end() ? std::string("nothing") : DescribeJson(*size)));
      ok = false;
      continue;
    }
    m.memoryHeaps[i].size = size->get<uint64_t>();
    uint64_t flags = 0;
    if (auto f = heap.find("flags"); f != heap.end())
      ok &= ReadFlagsJson(ctx, "VkMemoryHeapFlagBits", false, *f, JoinPath(p, "flags"), flags);
    m.memoryHeaps[i].flags = static_cast<VkMemoryHeapFlags>(flags);
  }
  m.memoryHeapCount = static_cast<uint32_t>(heaps->size());
  for (std::size_t i = 0; i < types->size(); ++i) {
    const Json& type = (*types)[i];
    const std::string p = IndexPath(typesPath, i);
    if (!ExpectObject(ctx, type, p) || !CheckMembers(ctx, type, p, {"heapIndex", "propertyFlags"})) {
      ok = false;
      continue;
    }
    auto index = type.find("heapIndex");
    if (index == type.end() || !index->is_number_unsigned() || index->get<uint64_t>() >= m.memoryHeapCount) {
      ctx.Error(JoinPath(p, "heapIndex"), "expected a heap index below " + std::to_string(m.memoryHeapCount) +
                                              ", got " +
                                              (index == type.end() ? std::string("nothing") : DescribeJson(*index)));
      ok = false;
      continue;
    }
    m.memoryTypes[i].heapIndex = index->get<uint32_t>();
    uint64_t flags = 0;
    if (auto f = type.find("propertyFlags"); f != type.end())
      ok &= ReadFlagsJson(ctx, "VkMemoryPropertyFlagBits", false, *f, JoinPath(p, "propertyFlags"), flags);
    m.memoryTypes[i].propertyFlags = static_cast<VkMemoryPropertyFlags>(flags);
  }
  m.memoryTypeCount = static_cast<uint32_t>(types->size());
  if (ok) out = m;
  return ok;
}

bool ReadMachine(const ReadContext& ctx, const Json& machine, const std::string& path, MachineModel& out) {
  if (!ExpectObject(ctx, machine, path)) return false;
  struct Field {
    std::string_view name;
    uint32_t MachineModel::*member;
  };
  static constexpr Field kFields[] = {
      {"registerBudget", &MachineModel::registerBudget},
      {"registerFilePerLane", &MachineModel::registerFilePerLane},
      {"allocationGranule", &MachineModel::allocationGranule},
      {"maxSubgroupsPerCore", &MachineModel::maxSubgroupsPerCore},
      {"sharedMemoryPerCore", &MachineModel::sharedMemoryPerCore},
      {"coreCount", &MachineModel::coreCount},
      {"simdsPerCore", &MachineModel::simdsPerCore},
      {"minSubgroupSize", &MachineModel::minSubgroupSize},
      {"maxSubgroupSize", &MachineModel::maxSubgroupSize},
      {"scalarRegisterBudget", &MachineModel::scalarRegisterBudget},
      {"scalarAllocationGranule", &MachineModel::scalarAllocationGranule},
      {"privateArrayRegisterLimit", &MachineModel::privateArrayRegisterLimit},
      {"loopUnrollIterations", &MachineModel::loopUnrollIterations},
      {"loopUnrollIterationsForLoads", &MachineModel::loopUnrollIterationsForLoads},
      {"loadSchedulingRegisters", &MachineModel::loadSchedulingRegisters},
      {"vertexStageInputRegisters", &MachineModel::vertexStageInputRegisters},
      {"geometryVerticesHeld", &MachineModel::geometryVerticesHeld},
      {"expansionTemporaries", &MachineModel::expansionTemporaries},
  };
  struct LatencyField {
    std::string_view name;
    uint32_t LatencyTable::*member;
  };
  static constexpr LatencyField kLatency[] = {
      {"alu", &LatencyTable::alu},         {"transcendental", &LatencyTable::transcendental},
      {"memory", &LatencyTable::memory},   {"shared", &LatencyTable::shared},
      {"texture", &LatencyTable::texture}, {"branch", &LatencyTable::branch},
      {"barrier", &LatencyTable::barrier}, {"atomic", &LatencyTable::atomic},
  };
  bool ok = CheckMembers(ctx, machine, path,
                         {"registerBudget", "registerFilePerLane", "allocationGranule", "maxSubgroupsPerCore",
                          "sharedMemoryPerCore", "coreCount", "minSubgroupSize", "maxSubgroupSize",
                          "simdsPerCore", "scalarRegisterBudget", "scalarAllocationGranule",
                          "privateArrayRegisterLimit", "loopUnrollIterations", "loopUnrollIterationsForLoads",
                          "loadSchedulingRegisters", "vertexStageInputRegisters", "geometryVerticesHeld", "expansionTemporaries",
                          "statisticDialect",
                          "latency"});
  for (const Field& f : kFields)
    if (auto it = machine.find(f.name); it != machine.end())
      ok &= ReadU32(ctx, *it, JoinPath(path, f.name), out.*f.member);
  if (auto it = machine.find("statisticDialect"); it != machine.end()) {
    if (!it->is_string() || !ParseStatisticDialect(it->get<std::string>(), &out.dialect)) {
      ctx.Error(JoinPath(path, "statisticDialect"),
                "expected \"crashtest\", \"radv\", \"nvidia\" or \"anv\", got " + it->dump());
      ok = false;
    }
  }
  if (auto lat = machine.find("latency"); lat != machine.end()) {
    const std::string latPath = JoinPath(path, "latency");
    if (ExpectObject(ctx, *lat, latPath) &&
        CheckMembers(ctx, *lat, latPath,
                     {"alu", "transcendental", "memory", "shared", "texture", "branch", "barrier", "atomic"})) {
      for (const LatencyField& f : kLatency)
        if (auto it = lat->find(f.name); it != lat->end())
          ok &= ReadU32(ctx, *it, JoinPath(latPath, f.name), out.latency.*f.member);
    } else {
      ok = false;
    }
  }
  // Occupancy divides the register file, the resident subgroups and the shared memory among subgroups, and
  // registers round up to the granules: a 0 there makes every figure meaningless. (scalarRegisterBudget and
  // privateArrayRegisterLimit mean "no scalar unit" and "no arrays in registers" at 0.)
  static constexpr std::string_view kPositive[] = {"registerBudget", "registerFilePerLane", "allocationGranule",
                                                   "maxSubgroupsPerCore", "sharedMemoryPerCore", "coreCount",
                                                   "simdsPerCore", "minSubgroupSize", "maxSubgroupSize",
                                                   "scalarAllocationGranule"};
  if (ok) {
    for (const Field& f : kFields) {
      if (out.*f.member != 0 || std::find(std::begin(kPositive), std::end(kPositive), f.name) == std::end(kPositive))
        continue;
      ctx.Error(JoinPath(path, f.name), "expected a positive integer, got 0");
      ok = false;
    }
  }
  if (ok && out.minSubgroupSize > out.maxSubgroupSize) {
    ctx.Error(path, "expected minSubgroupSize <= maxSubgroupSize, got " + std::to_string(out.minSubgroupSize) +
                        " > " + std::to_string(out.maxSubgroupSize));
    ok = false;
  }
  // A zero latency is legal arithmetic but makes that kind of instruction free in the cycle estimate.
  for (const LatencyField& f : kLatency)
    if (out.latency.*f.member == 0)
      ctx.Doubtful(JoinPath(JoinPath(path, "latency"), f.name),
                   "0 cycles: instructions of this kind cost nothing in the cycle estimate (expected at least 1)");
  return ok;
}

bool ReadTimestamps(const ReadContext& ctx, const Json& timestamps, const std::string& path, TimestampModel& out) {
  if (!ExpectObject(ctx, timestamps, path) ||
      !CheckMembers(ctx, timestamps, path, {"clock", "commandNanoseconds", "drawNanoseconds", "dispatchNanoseconds"}))
    return false;
  bool ok = true;
  if (auto it = timestamps.find("clock"); it != timestamps.end()) {
    if (it->is_string() && *it == "monotonic") {
      out.clock = TimestampModel::Clock::Monotonic;
    } else if (it->is_string() && *it == "simulated") {
      out.clock = TimestampModel::Clock::Simulated;
    } else {
      ctx.Error(JoinPath(path, "clock"), "expected \"monotonic\" or \"simulated\", got " + it->dump());
      ok = false;
    }
  }
  struct Field {
    std::string_view name;
    uint64_t TimestampModel::*member;
  };
  static constexpr Field kFields[] = {{"commandNanoseconds", &TimestampModel::commandNanoseconds},
                                      {"drawNanoseconds", &TimestampModel::drawNanoseconds},
                                      {"dispatchNanoseconds", &TimestampModel::dispatchNanoseconds}};
  for (const Field& f : kFields) {
    auto it = timestamps.find(f.name);
    if (it == timestamps.end()) continue;
    if (!it->is_number_unsigned()) {
      ctx.Error(JoinPath(path, f.name), "expected an unsigned integer (nanoseconds), got " + it->dump());
      ok = false;
      continue;
    }
    out.*f.member = it->get<uint64_t>();
  }
  return ok;
}

// "deviceFault": what VkPhysicalDeviceFaultPropertiesKHR reports (VK_KHR_device_fault is newer than the 1.3.239
// registry the struct tables come from, so profiles cannot carry the struct yet).
bool ReadDeviceFault(const ReadContext& ctx, const Json& fault, const std::string& path, uint32_t& maxDeviceFaultCount) {
  if (!ExpectObject(ctx, fault, path) || !CheckMembers(ctx, fault, path, {"maxDeviceFaultCount"})) return false;
  auto it = fault.find("maxDeviceFaultCount");
  if (it == fault.end()) return true;
  // "limittype max", at least 1; the fault report ring holds that many reports (kept modest: it is allocated).
  constexpr uint64_t kMost = 1u << 20;
  if (!it->is_number_unsigned() || it->get<uint64_t>() < 1 || it->get<uint64_t>() > kMost) {
    ctx.Error(JoinPath(path, "maxDeviceFaultCount"),
              "expected an integer from 1 to " + std::to_string(kMost) + ", got " + it->dump());
    return false;
  }
  maxDeviceFaultCount = static_cast<uint32_t>(it->get<uint64_t>());
  return true;
}

// FNV-1a: stable across runs and platforms, so derived UUIDs never change for the same device.
uint64_t Fnv1a(std::string_view text, uint64_t hash = 0xcbf29ce484222325ull) {
  for (char c : text) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

void DeriveUuid(std::string_view seed, uint8_t (&out)[VK_UUID_SIZE]) {
  uint64_t a = Fnv1a(seed);
  uint64_t b = Fnv1a(seed, a ^ 0x9e3779b97f4a7c15ull);
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<uint8_t>(a >> (8 * i));
    out[8 + i] = static_cast<uint8_t>(b >> (8 * i));
  }
}

bool Given(const GivenMembers& given, std::string_view structName, std::string_view member) {
  const StructInfo* s = FindStruct(structName);
  const MemberInfo* m = s ? s->FindMember(member) : nullptr;
  return m != nullptr && given.count(m) != 0;
}

// Writes `bytes` into the member wherever the description holds it.
void WriteEverywhere(DeviceDescription& d, std::initializer_list<std::string_view> structs, std::string_view member,
                     const void* bytes, std::size_t size) {
  for (std::string_view s : structs)
    if (std::byte* dst = MemberBytes(d, s, member)) std::memcpy(dst, bytes, size);
}

bool ApplyIdentity(const ReadContext& ctx, const Json* identity, const std::string& path, const GivenMembers& given,
                   DeviceDescription& d) {
  bool ok = true;
  if (identity != nullptr) {
    ok = ExpectObject(ctx, *identity, path) &&
         CheckMembers(ctx, *identity, path, {"conformanceVersion", "deviceUUID", "driverUUID", "pipelineCacheUUID"});
    if (!ok) return false;
  }
  auto find = [&](std::string_view key) -> const Json* {
    if (identity == nullptr) return nullptr;
    auto it = identity->find(key);
    return it == identity->end() ? nullptr : &*it;
  };
  const std::string devicePrefix = std::string(d.properties.deviceName) + '/' +
                                   std::to_string(d.properties.vendorID) + '/' +
                                   std::to_string(d.properties.deviceID);

  // Real-device profiles carry the conformance result of the real driver; crashtest has passed no conformance
  // run, so it reports 0.0.0.0 unless the user asks otherwise.
  VkConformanceVersion conformance{};
  if (const Json* cv = find("conformanceVersion")) {
    unsigned parts[4];
    char tail;
    if (!cv->is_string() || std::sscanf(cv->get_ref<const std::string&>().c_str(), "%u.%u.%u.%u%c", &parts[0],
                                        &parts[1], &parts[2], &parts[3], &tail) != 4 ||
        parts[0] > 255 || parts[1] > 255 || parts[2] > 255 || parts[3] > 255) {
      ctx.Error(JoinPath(path, "conformanceVersion"),
                "expected a version \"major.minor.subminor.patch\" (each 0-255), got " + DescribeJson(*cv));
      ok = false;
    } else {
      conformance = {static_cast<uint8_t>(parts[0]), static_cast<uint8_t>(parts[1]), static_cast<uint8_t>(parts[2]),
                     static_cast<uint8_t>(parts[3])};
    }
  }
  WriteEverywhere(d, {"VkPhysicalDeviceDriverProperties", "VkPhysicalDeviceVulkan12Properties"},
                  "conformanceVersion", &conformance, sizeof(conformance));

  uint8_t uuid[VK_UUID_SIZE];
  if (const Json* v = find("deviceUUID")) {
    if (ReadUuid(ctx, *v, JoinPath(path, "deviceUUID"), uuid))
      WriteEverywhere(d, {"VkPhysicalDeviceIDProperties", "VkPhysicalDeviceVulkan11Properties"}, "deviceUUID", uuid,
                      sizeof(uuid));
    else
      ok = false;
  } else if (!Given(given, "VkPhysicalDeviceIDProperties", "deviceUUID") &&
             !Given(given, "VkPhysicalDeviceVulkan11Properties", "deviceUUID")) {
    DeriveUuid("device:" + devicePrefix, uuid);
    WriteEverywhere(d, {"VkPhysicalDeviceIDProperties", "VkPhysicalDeviceVulkan11Properties"}, "deviceUUID", uuid,
                    sizeof(uuid));
  }
  if (const Json* v = find("driverUUID")) {
    if (ReadUuid(ctx, *v, JoinPath(path, "driverUUID"), uuid))
      WriteEverywhere(d, {"VkPhysicalDeviceIDProperties", "VkPhysicalDeviceVulkan11Properties"}, "driverUUID", uuid,
                      sizeof(uuid));
    else
      ok = false;
  } else if (!Given(given, "VkPhysicalDeviceIDProperties", "driverUUID") &&
             !Given(given, "VkPhysicalDeviceVulkan11Properties", "driverUUID")) {
    DeriveUuid(std::string("driver:crashtest ") + CRASHTEST_VERSION, uuid);
    WriteEverywhere(d, {"VkPhysicalDeviceIDProperties", "VkPhysicalDeviceVulkan11Properties"}, "driverUUID", uuid,
                    sizeof(uuid));
  }
  if (const Json* v = find("pipelineCacheUUID")) {
    ok &= ReadUuid(ctx, *v, JoinPath(path, "pipelineCacheUUID"), d.properties.pipelineCacheUUID);
  } else if (!Given(given, "VkPhysicalDeviceProperties", "pipelineCacheUUID")) {
    DeriveUuid("pipeline-cache:" + devicePrefix + " crashtest " + CRASHTEST_VERSION, d.properties.pipelineCacheUUID);
  }
  return ok;
}

// Subgroup sizes the profile states are what the statistics must model.
void MachineFromProfile(DeviceDescription& d, MachineModel& m) {
  uint32_t minSize = 0;
  uint32_t maxSize = 0;
  if (const std::byte* p = MemberBytes(d, "VkPhysicalDeviceSubgroupSizeControlProperties", "minSubgroupSize"))
    std::memcpy(&minSize, p, sizeof(minSize));
  if (const std::byte* p = MemberBytes(d, "VkPhysicalDeviceSubgroupSizeControlProperties", "maxSubgroupSize"))
    std::memcpy(&maxSize, p, sizeof(maxSize));
  if (minSize == 0 || maxSize < minSize) {
    uint32_t size = 0;
    if (const std::byte* p = MemberBytes(d, "VkPhysicalDeviceSubgroupProperties", "subgroupSize"))
      std::memcpy(&size, p, sizeof(size));
    minSize = maxSize = size;
  }
  if (minSize != 0 && maxSize >= minSize) {
    m.minSubgroupSize = minSize;
    m.maxSubgroupSize = maxSize;
  }
  m.sharedMemoryPerCore = std::max(m.sharedMemoryPerCore, d.properties.limits.maxComputeSharedMemorySize);
}

}  // namespace

VkPhysicalDeviceMemoryProperties DefaultMemory(VkPhysicalDeviceType type) {
  VkPhysicalDeviceMemoryProperties m{};
  constexpr VkMemoryPropertyFlags kLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  constexpr VkMemoryPropertyFlags kHost = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  constexpr VkMemoryPropertyFlags kCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  // "X must be placed at a lower index position than Y if the set of bit flags returned in the propertyFlags
  // member of X is a strict subset of the set of bit flags returned in the propertyFlags member of Y" (Vulkan
  // 1.3, 11.2.1 Device Memory Properties): the orders below respect it.
  if (type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) {
    m.memoryHeapCount = 2;
    m.memoryHeaps[0] = {8 * kGiB, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
    m.memoryHeaps[1] = {16 * kGiB, 0};
    m.memoryTypeCount = 4;
    m.memoryTypes[0] = {kLocal, 0};
    m.memoryTypes[1] = {kHost, 1};
    m.memoryTypes[2] = {kHost | kCached, 1};
    m.memoryTypes[3] = {kLocal | kHost, 0};  // resizable BAR, as current desktop drivers expose it
  } else {
    // Integrated GPUs and CPUs share system memory: one heap, every type device-local and host-visible.
    m.memoryHeapCount = 1;
    m.memoryHeaps[0] = {4 * kGiB, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
    m.memoryTypeCount = 2;
    m.memoryTypes[0] = {kLocal | kHost, 0};
    m.memoryTypes[1] = {kLocal | kHost | kCached, 0};
  }
  return m;
}

MachineModel DefaultMachine(VkPhysicalDeviceType type) {
  MachineModel m;
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      // A desktop GPU: 64K 32-bit registers per core over 32 lanes, up to 255 per invocation.
      m.registerBudget = 255;
      m.registerFilePerLane = 2048;
      m.allocationGranule = 8;
      m.maxSubgroupsPerCore = 48;
      m.sharedMemoryPerCore = 102400;
      m.coreCount = 60;
      m.minSubgroupSize = 32;
      m.maxSubgroupSize = 32;
      m.latency = {4, 16, 400, 30, 450, 8, 20, 500};
      break;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      // A CPU running SIMD lanes: a small vector register file, one "subgroup" per core.
      m.registerBudget = 32;
      m.registerFilePerLane = 32;
      m.allocationGranule = 1;
      m.maxSubgroupsPerCore = 1;
      m.sharedMemoryPerCore = 32768;
      m.coreCount = 8;
      m.minSubgroupSize = 8;
      m.maxSubgroupSize = 8;
      m.latency = {1, 20, 100, 4, 200, 2, 50, 60};
      break;
    default:
      // Integrated (and virtual/other) GPUs: a smaller register file, narrower SIMD, fewer cores.
      m.registerBudget = 128;
      m.registerFilePerLane = 1024;
      m.allocationGranule = 4;
      m.maxSubgroupsPerCore = 8;
      m.sharedMemoryPerCore = 65536;
      m.coreCount = 24;
      m.minSubgroupSize = 8;
      m.maxSubgroupSize = 32;
      m.latency = {4, 20, 300, 30, 400, 8, 25, 400};
      break;
  }
  return m;
}

bool ApplyCrashtestKey(const ReadContext& ctx, const Json* key, const GivenMembers& given, DeviceDescription& d) {
  const std::string path = "crashtest";
  bool ok = true;
  if (key != nullptr) {
    ok = ExpectObject(ctx, *key, path) && CheckMembers(ctx, *key, path, {"memory", "machine", "timestamps", "deviceFault", "identity", "exactExtensions"});
    if (!ok) key = nullptr;
  }
  auto find = [&](std::string_view k) -> const Json* {
    if (key == nullptr) return nullptr;
    auto it = key->find(k);
    return it == key->end() ? nullptr : &*it;
  };
  d.memory = DefaultMemory(d.properties.deviceType);
  if (const Json* memory = find("memory")) ok &= ReadMemory(ctx, *memory, JoinPath(path, "memory"), d.memory);

  d.machine = DefaultMachine(d.properties.deviceType);
  MachineFromProfile(d, d.machine);
  if (const Json* machine = find("machine")) ok &= ReadMachine(ctx, *machine, JoinPath(path, "machine"), d.machine);

  d.timestamps = TimestampModel{};
  if (const Json* timestamps = find("timestamps"))
    ok &= ReadTimestamps(ctx, *timestamps, JoinPath(path, "timestamps"), d.timestamps);

  d.maxDeviceFaultCount = kDefaultMaxDeviceFaultCount;
  if (const Json* fault = find("deviceFault"))
    ok &= ReadDeviceFault(ctx, *fault, JoinPath(path, "deviceFault"), d.maxDeviceFaultCount);

  d.exactExtensions = false;
  if (const Json* exact = find("exactExtensions")) {
    if (exact->is_boolean()) {
      d.exactExtensions = exact->get<bool>();
    } else {
      ctx.Error(JoinPath(path, "exactExtensions"), "expected true or false, got " + DescribeJson(*exact));
      ok = false;
    }
  }

  ok &= ApplyIdentity(ctx, find("identity"), JoinPath(path, "identity"), given, d);
  return ok;
}

}  // namespace crashtest
