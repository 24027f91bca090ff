// The record of every live VkDeviceMemory in the process: the device address space, per-heap usage (for
// VK_ERROR_OUT_OF_DEVICE_MEMORY and VK_EXT_memory_budget) and per-device object counts (maxMemoryAllocationCount,
// maxSamplerAllocationCount).
//
// Why process-wide: device addresses are unique across every device of the process, so that a fault address can
// be attributed to exactly one allocation and an address is never handed out twice; heap usage is summed over all
// devices of a physical device. The one mutex is taken by allocation and free only (not by vkCmd*, submit or
// wait), which the spec already treats as expensive calls ("applications should ... allocate large blocks").
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fault/dump/dump_content.h"

namespace crashtest {

class Device;
class DeviceMemory;
class PhysicalDevice;

namespace memory_accounting {

// Device addresses come from [kAddressBase, kAddressLimit): a 48-bit space, as GPUs' virtual address spaces are.
// Each allocation starts on a kAddressGranule boundary and is followed by at least one unused granule, so an
// address just past the end of an allocation is attributed to nothing rather than to its neighbour.
inline constexpr VkDeviceAddress kAddressBase = VkDeviceAddress{1} << 32;
inline constexpr VkDeviceAddress kAddressLimit = VkDeviceAddress{1} << 48;
inline constexpr VkDeviceAddress kAddressGranule = 64 * 1024;

// Reserves the heap bytes and an allocation slot of `memory`'s device and gives it an address: `requested` (a
// replayed opaque capture address) when non-zero, else a fresh one that was never handed out before. On failure
// nothing is reserved and the result says why (OUT_OF_DEVICE_MEMORY, TOO_MANY_OBJECTS,
// INVALID_OPAQUE_CAPTURE_ADDRESS), already reported.
VkResult Register(DeviceMemory& memory, VkDeviceAddress requested, VkDeviceAddress* address);
void Unregister(const DeviceMemory& memory);

DeviceMemory* FindByAddress(const Device& device, VkDeviceAddress address);
// Bytes allocated from heap `heapIndex` by every device of `physicalDevice`.
VkDeviceSize HeapUsage(const PhysicalDevice& physicalDevice, uint32_t heapIndex);
uint32_t AllocationCount(const Device& device);

// Crash-dump attribution: buffers and images bound to memory, and the most recently freed allocations and
// destroyed resources (kFreedHistory of each per process, newest kept), so a fault address can be attributed
// to its owner or reported as belonging to a destroyed one. Taken at vkBind*, vkDestroy*, vkFreeMemory: never on
// a recording or submitting path.
inline constexpr size_t kFreedHistory = 64;
// vkBindBufferMemory / vkBindImageMemory: `handle` (a VkBuffer / VkImage) covers [offset, offset + size) of memory.
void NoteBinding(const DeviceMemory& memory, dump::ResourceKind kind, uint64_t id, uint64_t handle,
                 VkDeviceSize offset, VkDeviceSize size);
// The buffer or image is destroyed: its binding joins the recently destroyed ones, named `name`.
void ForgetBinding(uint64_t handle, std::string name);
// vkFreeMemory, before Unregister: the allocation (and what is still bound to it) joins the recently freed ones.
void NoteFreed(const DeviceMemory& memory, std::string name);
// The recently freed allocation or destroyed buffer of `device` whose range contains `address`: false when none.
bool FindFreed(const Device& device, VkDeviceAddress address, VkDeviceAddress* base, VkDeviceSize* size);
// The live allocations, bindings and recently freed ones of `device`, names not filled in for live ones (the
// caller knows where names live).
void DescribeResources(const Device& device, std::vector<dump::Resource>* out, std::vector<uint64_t>* liveHandles);

// maxSamplerAllocationCount: false (nothing reserved) when the device has that many samplers already.
bool ReserveSampler(const Device& device, uint32_t limit);
void ReleaseSampler(const Device& device);

}  // namespace memory_accounting
}  // namespace crashtest
