#include "proc_addr.h"

#include <algorithm>
#include <cstring>

#include "device/device.h"
#include "device/driver_capabilities.h"
#include "device/instance.h"
#include "device/physical_device.h"
#include "entry_points.h"
#include "extra_entry_points.h"

namespace crashtest::icd {

namespace {

const EntryPoint* Find(const char* name) {
  if (name == nullptr) return nullptr;
  const EntryPoint* begin = kEntryPoints;
  const EntryPoint* end = kEntryPoints + kEntryPointCount;
  const EntryPoint* it = std::lower_bound(
      begin, end, name, [](const EntryPoint& e, const char* n) { return std::strcmp(e.name, n) < 0; });
  return (it != end && std::strcmp(it->name, name) == 0) ? it : nullptr;
}

template <typename Enabled>
bool AnyProvidingExtension(const EntryPoint& e, Enabled&& enabled) {
  for (uint16_t i = 0; i < e.extensionCount; ++i)
    if (enabled(kEntryPointExtensions[e.firstExtension + i])) return true;
  return false;
}

bool CoreAt(const EntryPoint& e, uint32_t apiVersion) { return e.coreVersion != 0 && e.coreVersion <= apiVersion; }

}  // namespace

PFN_vkVoidFunction LookupInstanceProcAddr(const Instance* instance, const char* name) {
  const EntryPoint* e = Find(name);
  if (e == nullptr) {
    // Hand-declared device commands: available when the driver implements their extension (as below).
    const ExtraEntryPoint* extra = FindExtraDeviceEntryPoint(name);
    if (extra == nullptr || instance == nullptr) return nullptr;
    return extra->extension == nullptr || Driver().ImplementsExtension(extra->extension) ? extra->function : nullptr;
  }
  // "vkGetInstanceProcAddr itself" and the global commands are returned for a NULL instance; nothing else is.
  if (e->level == DispatchLevel::Global || std::strcmp(name, "vkGetInstanceProcAddr") == 0) return e->function;
  if (instance == nullptr) return nullptr;
  if (CoreAt(*e, instance->apiVersion())) return e->function;
  // Extension commands: instance extensions must be enabled on this instance; device-extension commands are
  // returned when the extension is available (the spec's "available device extension" row), since the loader
  // builds its trampolines before any device exists.
  bool available = AnyProvidingExtension(*e, [&](const ExtensionRef& ext) {
    if (ext.instanceExtension) return instance->IsExtensionEnabled(ext.name);
    return Driver().ImplementsExtension(ext.name) &&
           (ext.alsoExtension == nullptr || ext.alsoCoreVersion != 0 || Driver().ImplementsExtension(ext.alsoExtension));
  });
  return available ? e->function : nullptr;
}

PFN_vkVoidFunction LookupDeviceProcAddr(const Device& device, const char* name) {
  const EntryPoint* e = Find(name);
  if (e == nullptr) {
    // Commands newer than the installed vk.xml, declared by hand: returned when their extension is enabled.
    const ExtraEntryPoint* extra = FindExtraDeviceEntryPoint(name);
    if (extra == nullptr) return nullptr;
    return extra->extension == nullptr || device.IsExtensionEnabled(extra->extension) ? extra->function : nullptr;
  }
  // "If pName is not the name of a ... device-level command ... NULL": instance and physical-device level commands
  // are never returned from vkGetDeviceProcAddr.
  if (e->level != DispatchLevel::Device) return nullptr;
  if (CoreAt(*e, device.apiVersion())) return e->function;
  const Instance& instance = device.physicalDevice().instance();
  // A command provided beside another extension (vkCmdWriteBufferMarker2AMD: VK_AMD_buffer_marker with
  // VK_KHR_synchronization2 or Vulkan 1.3) needs both.
  bool enabled = AnyProvidingExtension(*e, [&](const ExtensionRef& ext) {
    if (ext.instanceExtension) return instance.IsExtensionEnabled(ext.name);
    return device.IsExtensionEnabled(ext.name) &&
           (ext.alsoExtension == nullptr || device.IsExtensionEnabled(ext.alsoExtension) ||
            (ext.alsoCoreVersion != 0 && ext.alsoCoreVersion <= device.apiVersion()));
  });
  return enabled ? e->function : nullptr;
}

PFN_vkVoidFunction LookupPhysicalDeviceProcAddr(const Instance* instance, const char* name) {
  const EntryPoint* e = Find(name);
  if (e == nullptr || e->level != DispatchLevel::PhysicalDevice) return nullptr;
  // The loader asks this for physical-device commands it does not know itself (extensions newer than it): return
  // what the driver implements; the loader gates on enabled extensions.
  if (instance != nullptr && CoreAt(*e, instance->apiVersion())) return e->function;
  bool available = AnyProvidingExtension(*e, [&](const ExtensionRef& ext) {
    return ext.instanceExtension ? (instance == nullptr || instance->IsExtensionEnabled(ext.name))
                                 : Driver().ImplementsExtension(ext.name);  // the loader gates the rest
  });
  return available ? e->function : nullptr;
}

}  // namespace crashtest::icd
