// The fault plan: the "faults" array of the configuration file (docs/faults.md, json/schema/config.schema.json),
// read and validated once per vkCreateInstance. Each planned fault says which device it watches, when it fires
// (the trigger), what it does (the effect) and what the fault report says.
#pragma once

#include <crashtest/vulkan_compat.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace crashtest {

// The largest "afterMs": one year. The plan reader rejects more; steady_clock deadlines (signed 64-bit
// nanoseconds) overflow near 2^63 ns, about 292 years, so every accepted value converts exactly.
inline constexpr uint64_t kMaxAfterMilliseconds = 365ull * 24 * 3600 * 1000;

enum class FaultTriggerKind {
  Submit,          // the nth vkQueueSubmit/vkQueueSubmit2 of the device, or of one queue
  Label,           // vkQueueBeginDebugUtilsLabelEXT opening a region with this name
  Allocation,      // the nth vkAllocateMemory of the device
  AllocationSize,  // the first vkAllocateMemory asking for more than `bytes`
  Time,            // `milliseconds` after vkCreateDevice
  Random,          // each submit, with `probability`, from a PRNG seeded with `seed`
  Dispatch,        // the nth vkCmdDispatch* executed (optionally of one pipeline or shader), counted in submit order
  Draw,            // the nth vkCmdDraw* executed, likewise
  Present,         // the nth image presented by vkQueuePresentKHR on the device (docs/wsi.md)
  Acquire,         // the nth vkAcquireNextImageKHR / vkAcquireNextImage2KHR on the device
};

struct FaultQueueSelector {
  uint32_t family = 0;
  uint32_t index = 0;
};

struct FaultTrigger {
  FaultTriggerKind kind = FaultTriggerKind::Submit;
  uint64_t count = 1;                       // Submit, Allocation, Present, Acquire: the nth (from 1)
  std::optional<FaultQueueSelector> queue;  // Submit, Dispatch, Draw: count this queue's only
  std::string name;                         // Label
  uint64_t bytes = 0;                       // AllocationSize
  uint64_t milliseconds = 0;                // Time; at most kMaxAfterMilliseconds
  double probability = 0.0;                 // Random
  uint64_t seed = 0;                        // Random
  // Dispatch, Draw: count only the work of the bound pipeline named so with vkSetDebugUtilsObjectNameEXT, and/or
  // whose executables include one with this "Shader hash" statistic (as VK_KHR_pipeline_executable_properties
  // and `crashtest stats` report it).
  std::string pipelineName;
  std::optional<uint64_t> shaderHash;
};

// Dispatch and Draw triggers, and Label (which also matches vkCmdBeginDebugUtilsLabelEXT regions), fire when a
// queue executes the matching command: they are counted when the command buffer is submitted.
inline bool IsCommandTrigger(FaultTriggerKind kind) {
  return kind == FaultTriggerKind::Dispatch || kind == FaultTriggerKind::Draw || kind == FaultTriggerKind::Label;
}

enum class FaultEffect {
  DeviceLost,         // the device is lost at the triggering call
  Masked,             // reported (with deviceFaultReportMasked), the device lives (unless deviceFaultDeviceLostOnMasked)
  OutOfDeviceMemory,  // the triggering vkAllocateMemory / vkQueueSubmit returns VK_ERROR_OUT_OF_DEVICE_MEMORY
  OutOfHostMemory,    // ... VK_ERROR_OUT_OF_HOST_MEMORY
  Hang,               // the queue stops; after `watchdogMs` the device is lost with WATCHDOG_TIMEOUT
  SurfaceLost,        // present/acquire triggers: the swapchain's surface is lost (VK_ERROR_SURFACE_LOST_KHR)
  OutOfDate,          // present/acquire triggers: the swapchain is out of date (VK_ERROR_OUT_OF_DATE_KHR)
};

struct FaultAddress {
  VkDeviceFaultAddressTypeKHR type = VK_DEVICE_FAULT_ADDRESS_TYPE_NONE_KHR;
  uint64_t address = 0;
  uint64_t precision = 1;  // a power of two
};

struct FaultVendorEntry {
  std::string description;
  uint64_t code = 0;
  uint64_t data = 0;
};

struct FaultReportContent {
  std::string description;  // "" → a description naming the fault and its trigger
  std::optional<FaultAddress> address;      // → faultAddressInfo, VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR
  std::optional<FaultAddress> instruction;  // → instructionAddressInfo, VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR
  std::vector<FaultVendorEntry> vendor;     // one report entry each (same group), VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR
  bool binary = true;  // a device loss from this fault produces a vendor binary
};

inline constexpr uint32_t kDefaultWatchdogMs = 2000;

struct PlannedFault {
  std::string id;
  std::optional<uint32_t> device;  // index in the configuration's device list; nullopt = every device
  FaultTrigger when;
  FaultEffect effect = FaultEffect::DeviceLost;
  bool repeat = false;  // fire at every match (every nth submit/allocation, every random hit) instead of once
  uint32_t watchdogMs = kDefaultWatchdogMs;  // Hang only
  FaultReportContent report;
};

struct FaultPlan {
  std::vector<PlannedFault> faults;
  // The faults that watch physical device `deviceIndex`, in plan order.
  std::vector<PlannedFault> ForDevice(uint32_t deviceIndex) const;
};

const char* FaultEffectName(FaultEffect effect);
const char* FaultTriggerName(FaultTriggerKind kind);
// "read-invalid" etc. (the plan's spelling of VkDeviceFaultAddressTypeKHR).
const char* FaultAddressTypeName(VkDeviceFaultAddressTypeKHR type);

}  // namespace crashtest
