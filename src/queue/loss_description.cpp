#include "queue/loss_description.h"

#include <algorithm>

#include "common/struct_types.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "memory/memory_accounting.h"
#include "queue/device_execution.h"
#include "queue/executor.h"
#include "queue/queue.h"
#include "wsi/loss_captures.h"

namespace crashtest {

namespace {

void DescribeDevice(const Device& device, dump::DeviceIdentity& out) {
  const DeviceDescription& description = device.physicalDevice().description();
  const VkPhysicalDeviceProperties& p = description.properties;
  out.deviceName = p.deviceName;
  out.vendorID = p.vendorID;
  out.deviceID = p.deviceID;
  out.driverVersion = p.driverVersion;
  out.apiVersion = p.apiVersion;
  out.deviceType = static_cast<uint32_t>(p.deviceType);
  if (const StructBlob* blob = description.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES)) {
    const auto* driver = static_cast<const VkPhysicalDeviceDriverProperties*>(blob->data());
    out.driverName = driver->driverName;
    out.driverInfo = driver->driverInfo;
    out.driverID = static_cast<uint32_t>(driver->driverID);
  } else if (const StructBlob* v12 =
                 description.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES)) {
    const auto* driver = static_cast<const VkPhysicalDeviceVulkan12Properties*>(v12->data());
    out.driverName = driver->driverName;
    out.driverInfo = driver->driverInfo;
    out.driverID = static_cast<uint32_t>(driver->driverID);
  }
  out.profile = description.source + (description.profileName.empty() ? "" : " (" + description.profileName + ")");
  out.driverBuild = CRASHTEST_VERSION;
}

bool ContainsReportedAddress(const dump::Resource& r, std::span<const FaultReport> reports) {
  for (const FaultReport& report : reports) {
    if ((report.flags & VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR) == 0) continue;
    const uint64_t a = report.faultAddressInfo.reportedAddress;
    if (a >= r.address && a - r.address < r.size) return true;
  }
  return false;
}

}  // namespace

void DescribeLoss(const Device& device, std::span<const FaultReport> reports, const std::string& faultId,
                  dump::Content& content) {
  content.hasDevice = true;
  DescribeDevice(device, content.device);
  device.lossCaptures().Describe(content.capturedFrames);
  if (device.queues().empty()) return;
  DescribeQueues(device, reports, faultId, content);
  const DeviceExecution& execution = ExecutionOf(device);

  std::vector<uint64_t> handles;
  memory_accounting::DescribeResources(device, &content.resources, &handles);
  for (size_t i = 0; i < content.resources.size(); ++i)
    if (handles[i] != 0) content.resources[i].name = execution.names().Get(handles[i]);
  // The owners of reported addresses first, so the size cap keeps them.
  std::stable_partition(content.resources.begin(), content.resources.end(),
                        [&](const dump::Resource& r) { return ContainsReportedAddress(r, reports); });
  content.names = execution.names().List();
  for (const Queue* queue : device.queues()) queue->breadcrumbs().Describe(queue->familyIndex(), queue->index(), content);
}

}  // namespace crashtest
