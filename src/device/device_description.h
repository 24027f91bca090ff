// What one emulated physical device is: everything a Vulkan app can query about it, plus what the Profiles
// format lacks (memory, machine model, identity). Built by the profile loader (src/profile/), intersected with
// what the driver implements, then owned read-only by a PhysicalDevice.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace crashtest {

// One Vulkan output struct (something that extends VkPhysicalDeviceFeatures2 or VkPhysicalDeviceProperties2),
// stored as its raw bytes: sizeof(struct) bytes, sType at offset 0, pNext zeroed. Kept generic so that every
// struct vk.xml knows is handled by one code path (see src/profile/struct_table.h).
struct StructBlob {
  std::vector<std::byte> bytes;
  const void* data() const { return bytes.data(); }
  void* data() { return bytes.data(); }
};

// Format support, always held as 64-bit VkFormatFeatureFlags2 (the 32-bit VkFormatFeatureFlags bits are the
// same bit positions; VkFormatProperties reports the low 32 bits).
struct FormatSupport {
  VkFormatFeatureFlags2 linearTilingFeatures = 0;
  VkFormatFeatureFlags2 optimalTilingFeatures = 0;
  VkFormatFeatureFlags2 bufferFeatures = 0;
};

// The statistics machine model ([statistics] issue). Per-invocation register counts are in 32-bit registers.
struct LatencyTable {
  uint32_t alu = 4;            // simple integer / float arithmetic
  uint32_t transcendental = 16;  // exp, log, sin, rcp, sqrt ...
  uint32_t memory = 300;       // global (buffer) load/store
  uint32_t shared = 30;        // workgroup memory
  uint32_t texture = 400;      // image sample / fetch
  uint32_t branch = 8;         // control flow
  uint32_t barrier = 20;       // barriers
  uint32_t atomic = 400;       // atomics
};

// Whose words the statistics speak (docs/statistics.md, "Dialects"): the names, units and meanings of the real
// driver of the emulated vendor, so a CI gate written against that driver runs unchanged against crashtest.
enum class StatisticDialect : uint8_t {
  Crashtest,  // crashtest's own statistics (the default device's)
  Radv,       // Mesa's RADV with ACO (AMD)
  Nvidia,     // NVIDIA's proprietary driver
  Anv,        // Mesa's ANV (Intel)
};

struct MachineModel {
  uint32_t registerBudget = 256;        // most 32-bit registers one invocation may use before spilling
  uint32_t registerFilePerLane = 1024;  // 32-bit registers per lane per core, shared by resident subgroups
  uint32_t allocationGranule = 8;       // registers are allocated in multiples of this
  uint32_t maxSubgroupsPerCore = 16;    // hardware cap on resident subgroups per core
  uint32_t sharedMemoryPerCore = 65536; // bytes of workgroup memory per core
  uint32_t coreCount = 40;              // cores (CUs / SMs / shader cores), informative
  uint32_t simdsPerCore = 1;            // SIMDs a core's subgroups are spread over (RDNA: 2 per CU)
  uint32_t minSubgroupSize = 32;
  uint32_t maxSubgroupSize = 64;
  // Scalar (uniform) registers one subgroup may use: AMD's SGPRs, NVIDIA's uniform registers. Values the whole
  // subgroup shares live there once per subgroup; 0 means no scalar register file (they take vector registers).
  uint32_t scalarRegisterBudget = 0;
  uint32_t scalarAllocationGranule = 8;  // scalar registers are allocated in multiples of this
  // 32-bit components of a dynamically indexed Function/Private array that a back end keeps in vector registers
  // (indexed register moves, as ACO and NVIDIA's compiler do); larger arrays live in scratch memory.
  uint32_t privateArrayRegisterLimit = 0;
  // Full unrolling of counted loops by the back-end compiler (statistics/loop_unrolling.h): a loop with a known
  // trip count of at most loopUnrollIterations is unrolled when its body is small; at most
  // loopUnrollIterationsForLoads when its body is straight-line code with a dynamically addressed load (unrolling
  // lets the scheduler overlap the loads). 0 = the compiler does not unroll.
  uint32_t loopUnrollIterations = 0;
  uint32_t loopUnrollIterationsForLoads = 0;
  // The pre-register-allocation scheduler moves vector memory loads up, away from their first use, so that their
  // latency overlaps other work (statistics/load_scheduling.h): their results are then live longer. It lets the
  // vector register demand grow up to this many registers (or the demand itself, if higher). ACO on RDNA2: 30 =
  // the 32 registers at its target of 14 wave64 waves per SIMD, less the 2 it keeps free. 0 = not modelled.
  uint32_t loadSchedulingRegisters = 0;
  // Vector registers the hardware initialises at the start of a vertex, tessellation evaluation or geometry
  // shader's wave, allocated whether the shader reads them or not. RDNA2 runs these stages as NGG primitive
  // shaders, whose waves start with 9: the packed vertex indices of a primitive (3), the primitive id, the
  // invocation id, then the vertex id, two user registers and the instance id (the tessellation evaluation
  // shader's coordinates and patch ids in their place). 0 = not modelled.
  uint32_t vertexStageInputRegisters = 0;
  // 1: a geometry shader holds every emitted vertex's outputs in vector registers until its end, as RDNA's NGG
  // geometry shaders do on RADV/ACO (EmitVertex becomes stores of the vertex's outputs to workgroup memory; with
  // the emit loop unrolled, the vertices' outputs are computed ahead of those stores and each vertex keeps its
  // own registers: navi21's VGPRs grow with emitted vertices x output components). 0 = each EmitVertex consumes
  // the outputs (legacy geometry shaders' ring-buffer writes, Intel's URB writes).
  uint32_t geometryVerticesHeld = 0;
  // 1: instructions the back end expands into a sequence hold that sequence's temporaries in vector registers on
  // top of their operands (statistics/expansion_temporaries.h: RADV/ACO's subgroup reductions and scans, atomics
  // at a uniform address made one per subgroup, integer division). 0 = not modelled.
  uint32_t expansionTemporaries = 0;
  StatisticDialect dialect = StatisticDialect::Crashtest;
  LatencyTable latency;
};

const char* StatisticDialectName(StatisticDialect dialect);
bool ParseStatisticDialect(std::string_view name, StatisticDialect* out);

// How queues produce timestamps (vkCmdWriteTimestamp(2), timestamp queries). Always scaled by the profile's
// timestampPeriod and masked to the queue family's timestampValidBits.
struct TimestampModel {
  enum class Clock {
    Monotonic,  // the host's monotonic clock: real elapsed time, as a GPU's timestamps are
    Simulated,  // a per-queue clock that starts at 0 and advances by a fixed cost per executed command:
                // identical values on every run, for tests that assert on GPU time
  };
  Clock clock = Clock::Monotonic;
  uint64_t commandNanoseconds = 100;     // Simulated: each executed command
  uint64_t drawNanoseconds = 10000;      // Simulated: each draw (any vkCmdDraw*)
  uint64_t dispatchNanoseconds = 20000;  // Simulated: each dispatch (any vkCmdDispatch*)
};

// A capability of the profile that the driver does not honour, so it is not advertised.
struct DroppedCapability {
  std::string what;    // e.g. "extension VK_KHR_ray_query", "feature VkPhysicalDeviceFeatures.geometryShader"
  std::string reason;  // e.g. "not implemented by crashtest 0.1.0"
};

// A capability the driver adds to what the profile says (the fault and statistics extensions every device
// offers unless the profile asks for its exact list), for `devices --verbose`.
struct AddedCapability {
  std::string what;    // e.g. "extension VK_EXT_device_fault"
  std::string reason;
};

// Default VkPhysicalDeviceFaultPropertiesKHR::maxDeviceFaultCount.
inline constexpr uint32_t kDefaultMaxDeviceFaultCount = 1024;

struct DeviceDescription {
  std::string source;  // "builtin:NAME" or the profile's path, for messages
  std::string profileName;  // the selected entry of the profile's "profiles" section, if any

  VkPhysicalDeviceProperties properties{};  // includes limits and sparse properties
  VkPhysicalDeviceFeatures features{};
  // Structs extending VkPhysicalDeviceProperties2 / VkPhysicalDeviceFeatures2, keyed by sType. Vulkan11/12/13
  // aggregate structs and the individual structs they contain are kept consistent by the loader.
  std::map<VkStructureType, StructBlob> extendedProperties;
  std::map<VkStructureType, StructBlob> extendedFeatures;

  std::vector<VkExtensionProperties> extensions;  // device extensions, sorted by name
  std::vector<VkQueueFamilyProperties> queueFamilies;
  VkPhysicalDeviceMemoryProperties memory{};
  std::map<VkFormat, FormatSupport> formats;  // formats absent here are unsupported
  MachineModel machine;
  TimestampModel timestamps;
  // VkPhysicalDeviceFaultPropertiesKHR::maxDeviceFaultCount ("crashtest": {"deviceFault": ...}): the size of the
  // fault report ring. VK_KHR_device_fault postdates the 1.3.239 registry, so profiles cannot carry it yet.
  uint32_t maxDeviceFaultCount = kDefaultMaxDeviceFaultCount;

  // "crashtest": {"exactExtensions": true}: advertise the profile's extensions (those the driver implements) and
  // nothing more, as the real driver would; by default the fault and statistics extensions are added.
  bool exactExtensions = false;

  std::vector<DroppedCapability> dropped;  // filled by the intersection with the driver, for `devices --verbose`
  std::vector<AddedCapability> added;      // likewise

  // Helpers for the common lookups.
  const StructBlob* FindProperties(VkStructureType sType) const;
  const StructBlob* FindFeatures(VkStructureType sType) const;
  bool HasExtension(const char* name) const;
  uint32_t ExtensionSpecVersion(const char* name) const;  // 0 when absent
};

}  // namespace crashtest
