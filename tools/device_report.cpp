#include "device_report.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "profile/description_access.h"
#include "profile/struct_table.h"

namespace crashtest {
namespace {

using Json = nlohmann::json;

std::string Hex(uint64_t value) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%04" PRIx64, value);
  return buffer;
}

std::string VersionString(uint32_t v) {
  std::string s = std::to_string(VK_API_VERSION_MAJOR(v)) + '.' + std::to_string(VK_API_VERSION_MINOR(v)) + '.' +
                  std::to_string(VK_API_VERSION_PATCH(v));
  // The variant is 0 for every Vulkan implementation; only show it when it is not, since then it matters.
  if (VK_API_VERSION_VARIANT(v) != 0) s = std::to_string(VK_API_VERSION_VARIANT(v)) + ':' + s;
  return s;
}

// A name for an enum value; the number when vk.xml has no name for it (a profile can carry any value).
std::string EnumName(std::string_view type, int64_t value) {
  std::string_view name = EnumValueName(type, value);
  return name.empty() ? std::to_string(value) : std::string(name);
}

// The names of the bits set in `flags`; bits vk.xml does not name appear in hex, so nothing is hidden.
Json FlagNames(std::string_view bitsType, uint64_t flags) {
  Json names = Json::array();
  for (int bit = 0; bit < 64; ++bit) {
    const uint64_t mask = uint64_t{1} << bit;
    if ((flags & mask) == 0) continue;
    std::string_view name = EnumValueName(bitsType, static_cast<int64_t>(mask));
    names.push_back(name.empty() ? Hex(mask) : std::string(name));
  }
  return names;
}

std::string FixedString(const char* chars, std::size_t capacity) { return std::string(chars, strnlen(chars, capacity)); }

// The driver identity lives in VkPhysicalDeviceDriverProperties; a profile may only carry the Vulkan 1.2
// aggregate, which the loader keeps consistent with it, so both are looked at.
void AddDriverIdentity(const DeviceDescription& d, Json& out) {
  VkPhysicalDeviceDriverProperties driver{};
  if (const StructBlob* blob = d.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES)) {
    std::memcpy(&driver, blob->data(), std::min(blob->bytes.size(), sizeof driver));
  } else if (const StructBlob* v12 = d.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES)) {
    VkPhysicalDeviceVulkan12Properties p{};
    std::memcpy(&p, v12->data(), std::min(v12->bytes.size(), sizeof p));
    driver.driverID = p.driverID;
    std::memcpy(driver.driverName, p.driverName, sizeof driver.driverName);
    std::memcpy(driver.driverInfo, p.driverInfo, sizeof driver.driverInfo);
    driver.conformanceVersion = p.conformanceVersion;
  } else {
    out["driverName"] = nullptr;
    out["driverInfo"] = nullptr;
    return;
  }
  out["driverName"] = FixedString(driver.driverName, sizeof driver.driverName);
  out["driverInfo"] = FixedString(driver.driverInfo, sizeof driver.driverInfo);
  out["driverID"] = EnumName("VkDriverId", driver.driverID);
  const VkConformanceVersion& c = driver.conformanceVersion;
  out["conformanceVersion"] = std::to_string(c.major) + '.' + std::to_string(c.minor) + '.' +
                              std::to_string(c.subminor) + '.' + std::to_string(c.patch);
}

// Counts VK_TRUE members of every feature struct the device has. A member that exists both in an individual
// struct and in a VulkanXY aggregate the device also has is counted once (in the aggregate): the loader keeps
// the two equal, and counting both would inflate the figure.
std::size_t CountEnabledFeatures(const DeviceDescription& d) {
  auto countStruct = [&](const StructInfo& info) {
    const std::byte* bytes = StructBytes(d, info);
    if (bytes == nullptr) return std::size_t{0};
    std::size_t n = 0;
    for (const MemberInfo& m : info.members) {
      if (m.kind != MemberKind::Bool32 || m.arrayLength != 0) continue;
      VkBool32 value = VK_FALSE;
      std::memcpy(&value, bytes + m.offset, sizeof value);
      if (value == VK_FALSE) continue;
      bool countedInAggregate = false;
      for (const MemberLinkInfo* link : MemberLinksOf(info))
        if (link->individual == &info && link->individualMember->name == m.name &&
            StructBytes(d, *link->aggregate) != nullptr)
          countedInAggregate = true;
      if (!countedInAggregate) ++n;
    }
    return n;
  };
  std::size_t total = 0;
  if (const StructInfo* base = FindStruct("VkPhysicalDeviceFeatures")) total += countStruct(*base);
  for (const auto& [sType, blob] : d.extendedFeatures)
    if (const StructInfo* info = FindStruct(sType)) total += countStruct(*info);
  return total;
}

Json DescribeQueueFamilies(const DeviceDescription& d) {
  Json families = Json::array();
  for (std::size_t i = 0; i < d.queueFamilies.size(); ++i) {
    const VkQueueFamilyProperties& q = d.queueFamilies[i];
    const VkExtent3D& g = q.minImageTransferGranularity;
    families.push_back({{"index", i},
                        {"queueFlags", FlagNames("VkQueueFlagBits", q.queueFlags)},
                        {"queueCount", q.queueCount},
                        {"timestampValidBits", q.timestampValidBits},
                        {"minImageTransferGranularity", {g.width, g.height, g.depth}}});
  }
  return families;
}

Json DescribeMemory(const DeviceDescription& d) {
  Json heaps = Json::array();
  for (uint32_t i = 0; i < d.memory.memoryHeapCount && i < VK_MAX_MEMORY_HEAPS; ++i)
    heaps.push_back({{"index", i},
                     {"size", d.memory.memoryHeaps[i].size},
                     {"flags", FlagNames("VkMemoryHeapFlagBits", d.memory.memoryHeaps[i].flags)}});
  Json types = Json::array();
  for (uint32_t i = 0; i < d.memory.memoryTypeCount && i < VK_MAX_MEMORY_TYPES; ++i)
    types.push_back({{"index", i},
                     {"heapIndex", d.memory.memoryTypes[i].heapIndex},
                     {"propertyFlags", FlagNames("VkMemoryPropertyFlagBits", d.memory.memoryTypes[i].propertyFlags)}});
  return {{"heaps", heaps}, {"types", types}};
}

Json DescribeMachine(const MachineModel& m) {
  const LatencyTable& l = m.latency;
  return {{"registerBudget", m.registerBudget},
          {"registerFilePerLane", m.registerFilePerLane},
          {"allocationGranule", m.allocationGranule},
          {"maxSubgroupsPerCore", m.maxSubgroupsPerCore},
          {"sharedMemoryPerCore", m.sharedMemoryPerCore},
          {"coreCount", m.coreCount},
          {"minSubgroupSize", m.minSubgroupSize},
          {"maxSubgroupSize", m.maxSubgroupSize},
          {"simdsPerCore", m.simdsPerCore},
          {"scalarRegisterBudget", m.scalarRegisterBudget},
          {"scalarAllocationGranule", m.scalarAllocationGranule},
          {"privateArrayRegisterLimit", m.privateArrayRegisterLimit},
          {"loopUnrollIterations", m.loopUnrollIterations},
          {"loopUnrollIterationsForLoads", m.loopUnrollIterationsForLoads},
          {"loadSchedulingRegisters", m.loadSchedulingRegisters},
          {"vertexStageInputRegisters", m.vertexStageInputRegisters},
          {"geometryVerticesHeld", m.geometryVerticesHeld},
          {"expansionTemporaries", m.expansionTemporaries},
          {"statisticDialect", StatisticDialectName(m.dialect)},
          {"latency",
           {{"alu", l.alu},
            {"transcendental", l.transcendental},
            {"memory", l.memory},
            {"shared", l.shared},
            {"texture", l.texture},
            {"branch", l.branch},
            {"barrier", l.barrier},
            {"atomic", l.atomic}}}};
}

}  // namespace

Json DescribeDevice(const DeviceDescription& d, std::size_t index, bool verbose) {
  const VkPhysicalDeviceProperties& p = d.properties;
  Json out;
  out["index"] = index;
  out["deviceName"] = FixedString(p.deviceName, sizeof p.deviceName);
  out["type"] = EnumName("VkPhysicalDeviceType", p.deviceType);
  // Hex, as vendors and the PCI ID database write them.
  out["vendorID"] = Hex(p.vendorID);
  out["deviceID"] = Hex(p.deviceID);
  out["apiVersion"] = VersionString(p.apiVersion);
  out["driverVersion"] = p.driverVersion;
  AddDriverIdentity(d, out);
  out["source"] = d.source;
  out["profileName"] = d.profileName.empty() ? Json(nullptr) : Json(d.profileName);
  if (!verbose) return out;

  Json extensions = Json::array();
  for (const VkExtensionProperties& e : d.extensions)
    extensions.push_back({{"name", FixedString(e.extensionName, sizeof e.extensionName)},
                          {"specVersion", e.specVersion}});
  out["extensions"] = extensions;
  out["enabledFeatureCount"] = CountEnabledFeatures(d);
  out["queueFamilies"] = DescribeQueueFamilies(d);
  out["memory"] = DescribeMemory(d);
  out["machine"] = DescribeMachine(d.machine);
  Json dropped = Json::array();
  for (const DroppedCapability& c : d.dropped) dropped.push_back({{"what", c.what}, {"reason", c.reason}});
  out["dropped"] = dropped;
  Json added = Json::array();
  for (const AddedCapability& c : d.added) added.push_back({{"what", c.what}, {"reason", c.reason}});
  out["added"] = added;
  return out;
}

}  // namespace crashtest
