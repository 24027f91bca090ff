#include "memory/memory_accounting.h"

#include <algorithm>
#include <array>
#include <deque>
#include <iterator>
#include <map>
#include <mutex>
#include <unordered_map>

#include "common/result.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "memory/device_memory.h"

namespace crashtest::memory_accounting {

namespace {

struct PhysicalDeviceUsage {
  std::array<VkDeviceSize, VK_MAX_MEMORY_HEAPS> heapBytes{};
  uint32_t allocations = 0;  // entry removed when it drops to 0
};

struct DeviceCounts {
  uint32_t allocations = 0;
  uint32_t samplers = 0;
  bool empty() const { return allocations == 0 && samplers == 0; }
};

struct Binding {
  const DeviceMemory* memory;
  dump::ResourceKind kind;
  uint64_t id;
  VkDeviceSize offset, size;
};

// A freed allocation or destroyed resource, kept for attribution (newest at the back).
struct Freed {
  uint64_t deviceId;
  dump::Resource resource;
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<uint64_t, Binding> bindings;  // key: the VkBuffer / VkImage handle
  std::deque<Freed> freed;
  std::map<VkDeviceAddress, DeviceMemory*> byAddress;  // key: start address
  std::map<const PhysicalDevice*, PhysicalDeviceUsage> usage;
  std::map<const Device*, DeviceCounts> devices;
  VkDeviceAddress next = kAddressBase;
};

Registry& TheRegistry() {
  static Registry registry;
  return registry;
}

VkDeviceAddress AlignUp(VkDeviceAddress value, VkDeviceAddress alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// The address range an allocation occupies, including its trailing guard granule.
VkDeviceAddress ReservedEnd(VkDeviceAddress start, VkDeviceSize size) {
  return AlignUp(start + size, kAddressGranule) + kAddressGranule;
}

// True when [start, end) meets no live allocation's reserved range.
bool IsFree(const Registry& registry, VkDeviceAddress start, VkDeviceAddress end) {
  auto it = registry.byAddress.lower_bound(end);
  if (it == registry.byAddress.begin()) return true;
  --it;  // the last allocation starting before `end`
  return ReservedEnd(it->first, it->second->size()) <= start;
}

// A fresh address: the bump pointer only grows, so an address is never handed out twice (replayed capture
// addresses, which the app chooses, are skipped over).
VkDeviceAddress FreshAddress(Registry& registry, VkDeviceSize size) {
  VkDeviceAddress start = registry.next;
  while (start < kAddressLimit && !IsFree(registry, start, ReservedEnd(start, size))) {
    auto it = registry.byAddress.lower_bound(ReservedEnd(start, size));
    --it;
    start = ReservedEnd(it->first, it->second->size());
  }
  if (start >= kAddressLimit || kAddressLimit - start < size + 2 * kAddressGranule) return 0;
  registry.next = ReservedEnd(start, size);
  return start;
}

}  // namespace

VkResult Register(DeviceMemory& memory, VkDeviceAddress requested, VkDeviceAddress* address) {
  const Device& device = memory.device();
  const PhysicalDevice& physical = device.physicalDevice();
  const VkPhysicalDeviceMemoryProperties& properties = physical.description().memory;
  const VkPhysicalDeviceLimits& limits = physical.description().properties.limits;
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);

  auto deviceIt = registry.devices.find(&device);
  uint32_t allocations = deviceIt == registry.devices.end() ? 0 : deviceIt->second.allocations;
  // "If ... vkAllocateMemory ... would exceed maxMemoryAllocationCount ... VK_ERROR_TOO_MANY_OBJECTS"
  // (vkAllocateMemory, Vulkan 1.3).
  if (allocations >= limits.maxMemoryAllocationCount)
    return ReportError(VK_ERROR_TOO_MANY_OBJECTS, "vkAllocateMemory: the device already has %u allocations "
                       "(maxMemoryAllocationCount)", allocations);

  uint32_t heap = memory.heapIndex();
  auto usageIt = registry.usage.find(&physical);
  VkDeviceSize used = usageIt == registry.usage.end() ? 0 : usageIt->second.heapBytes[heap];
  VkDeviceSize heapSize = properties.memoryHeaps[heap].size;
  if (memory.size() > heapSize - std::min(used, heapSize))
    return ReportError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                       "vkAllocateMemory: %llu bytes do not fit in heap %u (%llu of %llu bytes in use)",
                       static_cast<unsigned long long>(memory.size()), heap, static_cast<unsigned long long>(used),
                       static_cast<unsigned long long>(heapSize));

  VkDeviceAddress start;
  if (requested != 0) {
    // VkMemoryOpaqueCaptureAddressAllocateInfo: "If the address is not available, VK_ERROR_INVALID_OPAQUE_CAPTURE_
    // ADDRESS is returned" (vkAllocateMemory return codes).
    if (requested % kAddressGranule != 0 || requested < kAddressGranule || requested >= kAddressLimit ||
        !IsFree(registry, requested - kAddressGranule, ReservedEnd(requested, memory.size())))
      return ReportError(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS,
                         "vkAllocateMemory: opaque capture address 0x%llx is not available",
                         static_cast<unsigned long long>(requested));
    start = requested;
  } else {
    start = FreshAddress(registry, memory.size());
    if (start == 0)
      return ReportError(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory: the 48-bit device address space is used up");
  }
  registry.byAddress.emplace(start, &memory);
  PhysicalDeviceUsage& usage = registry.usage[&physical];
  usage.heapBytes[heap] += memory.size();
  ++usage.allocations;
  ++registry.devices[&device].allocations;
  *address = start;
  return VK_SUCCESS;
}

void Unregister(const DeviceMemory& memory) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  registry.byAddress.erase(memory.address());
  auto usageIt = registry.usage.find(&memory.device().physicalDevice());
  if (usageIt != registry.usage.end()) {
    usageIt->second.heapBytes[memory.heapIndex()] -= memory.size();
    if (--usageIt->second.allocations == 0) registry.usage.erase(usageIt);
  }
  auto deviceIt = registry.devices.find(&memory.device());
  if (deviceIt != registry.devices.end()) {
    --deviceIt->second.allocations;
    if (deviceIt->second.empty()) registry.devices.erase(deviceIt);
  }
}

namespace {

void RememberFreed(Registry& registry, uint64_t deviceId, dump::Resource resource) {
  resource.freed = true;
  registry.freed.push_back({deviceId, std::move(resource)});
  if (registry.freed.size() > kFreedHistory * 2) registry.freed.pop_front();
}

dump::Resource BindingResource(const Binding& b) {
  dump::Resource r;
  r.kind = b.kind;
  r.id = b.id;
  r.address = b.memory->address() + b.offset;
  r.size = b.size;
  r.memoryId = b.memory->header.id;
  return r;
}

}  // namespace

void NoteBinding(const DeviceMemory& memory, dump::ResourceKind kind, uint64_t id, uint64_t handle,
                 VkDeviceSize offset, VkDeviceSize size) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  registry.bindings[handle] = Binding{&memory, kind, id, offset, size};
}

void ForgetBinding(uint64_t handle, std::string name) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  auto it = registry.bindings.find(handle);
  if (it == registry.bindings.end()) return;
  dump::Resource r = BindingResource(it->second);
  r.name = std::move(name);
  const uint64_t deviceId = it->second.memory->device().header.id;
  registry.bindings.erase(it);
  RememberFreed(registry, deviceId, std::move(r));
}

void NoteFreed(const DeviceMemory& memory, std::string name) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  const uint64_t deviceId = memory.device().header.id;
  // What is still bound to the memory dies with it as far as the device is concerned: its addresses now belong
  // to nothing. The bindings stay (the objects live on) but are remembered as freed ranges too.
  for (auto& [handle, binding] : registry.bindings)
    if (binding.memory == &memory) RememberFreed(registry, deviceId, BindingResource(binding));
  dump::Resource r;
  r.kind = dump::ResourceKind::Memory;
  r.id = memory.header.id;
  r.name = std::move(name);
  r.address = memory.address();
  r.size = memory.size();
  r.heap = memory.heapIndex();
  RememberFreed(registry, deviceId, std::move(r));
  // Later reads of those bindings must not touch the freed DeviceMemory.
  for (auto it = registry.bindings.begin(); it != registry.bindings.end();)
    it = it->second.memory == &memory ? registry.bindings.erase(it) : std::next(it);
}

bool FindFreed(const Device& device, VkDeviceAddress address, VkDeviceAddress* base, VkDeviceSize* size) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  // Newest first: with replayed capture addresses, the most recent owner of an address is the one meant.
  for (auto it = registry.freed.rbegin(); it != registry.freed.rend(); ++it) {
    const dump::Resource& r = it->resource;
    if (it->deviceId != device.header.id || address < r.address || address - r.address >= r.size) continue;
    *base = r.address;
    *size = r.size;
    return true;
  }
  return false;
}

void DescribeResources(const Device& device, std::vector<dump::Resource>* out, std::vector<uint64_t>* liveHandles) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  for (const auto& [address, memory] : registry.byAddress) {
    if (&memory->device() != &device) continue;
    dump::Resource r;
    r.kind = dump::ResourceKind::Memory;
    r.id = memory->header.id;
    r.address = address;
    r.size = memory->size();
    r.heap = memory->heapIndex();
    out->push_back(r);
    liveHandles->push_back(reinterpret_cast<uint64_t>(ToHandle(memory)));
  }
  for (const auto& [handle, binding] : registry.bindings) {
    if (&binding.memory->device() != &device) continue;
    out->push_back(BindingResource(binding));
    liveHandles->push_back(handle);
  }
  size_t kept = 0;
  for (auto it = registry.freed.rbegin(); it != registry.freed.rend() && kept < kFreedHistory; ++it) {
    if (it->deviceId != device.header.id) continue;
    out->push_back(it->resource);
    liveHandles->push_back(0);
    ++kept;
  }
}

DeviceMemory* FindByAddress(const Device& device, VkDeviceAddress address) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  auto it = registry.byAddress.upper_bound(address);
  if (it == registry.byAddress.begin()) return nullptr;
  --it;
  DeviceMemory* memory = it->second;
  if (address - it->first >= memory->size() || &memory->device() != &device) return nullptr;
  return memory;
}

VkDeviceSize HeapUsage(const PhysicalDevice& physicalDevice, uint32_t heapIndex) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  auto it = registry.usage.find(&physicalDevice);
  return it == registry.usage.end() || heapIndex >= VK_MAX_MEMORY_HEAPS ? 0 : it->second.heapBytes[heapIndex];
}

uint32_t AllocationCount(const Device& device) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  auto it = registry.devices.find(&device);
  return it == registry.devices.end() ? 0 : it->second.allocations;
}

bool ReserveSampler(const Device& device, uint32_t limit) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  DeviceCounts& counts = registry.devices[&device];
  if (counts.samplers >= limit) {
    if (counts.empty()) registry.devices.erase(&device);
    return false;
  }
  ++counts.samplers;
  return true;
}

void ReleaseSampler(const Device& device) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  auto it = registry.devices.find(&device);
  if (it == registry.devices.end()) return;
  --it->second.samplers;
  if (it->second.empty()) registry.devices.erase(it);
}

}  // namespace crashtest::memory_accounting
