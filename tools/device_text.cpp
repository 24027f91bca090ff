#include "device_text.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <string_view>

namespace crashtest {
namespace {

using Json = nlohmann::json;

std::string Str(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "(none)";
  return v.dump();
}

void Field(std::ostream& out, std::string_view key, const std::string& value) {
  std::string k(key);
  k.resize(std::max<std::size_t>(k.size() + 1, 20), ' ');
  out << "    " << k << value << '\n';
}

// "VK_QUEUE_GRAPHICS_BIT" → "GRAPHICS": the text output is for reading; --json keeps the full names.
std::string ShortFlags(const Json& names, std::string_view prefix) {
  if (names.empty()) return "none";
  std::string s;
  for (const Json& n : names) {
    std::string name = n.get<std::string>();
    if (name.starts_with(prefix)) name = name.substr(prefix.size());
    if (name.ends_with("_BIT")) name.resize(name.size() - 4);
    s += (s.empty() ? "" : "|") + name;
  }
  return s;
}

std::string Bytes(uint64_t size) {
  constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(size);
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.4g %s (%" PRIu64 " bytes)", value, kUnits[unit], size);
  return buffer;
}

void PrintVerbose(const Json& d, std::ostream& out) {
  const Json& extensions = d["extensions"];
  out << "    extensions (" << extensions.size() << "):\n";
  for (const Json& e : extensions)
    out << "      " << e["name"].get<std::string>() << " (spec " << e["specVersion"].get<uint32_t>() << ")\n";
  Field(out, "features enabled", std::to_string(d["enabledFeatureCount"].get<std::size_t>()));

  const Json& families = d["queueFamilies"];
  out << "    queue families (" << families.size() << "):\n";
  for (const Json& q : families) {
    const Json& g = q["minImageTransferGranularity"];
    out << "      [" << q["index"].get<std::size_t>() << "] " << q["queueCount"].get<uint32_t>() << " x "
        << ShortFlags(q["queueFlags"], "VK_QUEUE_") << ", timestampValidBits " << q["timestampValidBits"].dump()
        << ", granularity " << g[0].dump() << 'x' << g[1].dump() << 'x' << g[2].dump() << '\n';
  }

  const Json& heaps = d["memory"]["heaps"];
  out << "    memory heaps (" << heaps.size() << "):\n";
  for (const Json& h : heaps)
    out << "      [" << h["index"].dump() << "] " << Bytes(h["size"].get<uint64_t>()) << ", "
        << ShortFlags(h["flags"], "VK_MEMORY_HEAP_") << '\n';
  const Json& types = d["memory"]["types"];
  out << "    memory types (" << types.size() << "):\n";
  for (const Json& t : types)
    out << "      [" << t["index"].dump() << "] heap " << t["heapIndex"].dump() << ", "
        << ShortFlags(t["propertyFlags"], "VK_MEMORY_PROPERTY_") << '\n';

  const Json& m = d["machine"];
  out << "    machine model:\n"
      << "      registers: budget " << m["registerBudget"].dump() << ", file " << m["registerFilePerLane"].dump()
      << " per lane, granule " << m["allocationGranule"].dump() << '\n'
      << "      cores " << m["coreCount"].dump() << ", max subgroups/core " << m["maxSubgroupsPerCore"].dump()
      << ", subgroup size " << m["minSubgroupSize"].dump() << ".." << m["maxSubgroupSize"].dump()
      << ", shared memory/core " << m["sharedMemoryPerCore"].dump() << " bytes\n"
      << "      scalar registers: budget " << m["scalarRegisterBudget"].dump() << ", granule "
      << m["scalarAllocationGranule"].dump() << "; SIMDs/core " << m["simdsPerCore"].dump()
      << "; private arrays in registers up to " << m["privateArrayRegisterLimit"].dump() << " components\n"
      << "      loops unrolled up to " << m["loopUnrollIterations"].dump() << " iterations ("
      << m["loopUnrollIterationsForLoads"].dump() << " with loads to overlap); loads scheduled up to "
      << m["loadSchedulingRegisters"].dump() << " registers; " << m["vertexStageInputRegisters"].dump()
      << " input registers in vertex-stage waves; geometry vertices held "
      << m["geometryVerticesHeld"].dump() << "; expansion temporaries " << m["expansionTemporaries"].dump() << "\n"
      << "      statistics dialect: " << m["statisticDialect"].get<std::string>() << '\n'
      << "      latency (cycles):";
  for (const auto& [name, cycles] : m["latency"].items()) out << ' ' << name << ' ' << cycles.dump();
  out << '\n';

  const Json& added = d["added"];
  out << "    added (" << added.size() << (added.empty() ? "): nothing\n" : "):\n");
  for (const Json& c : added)
    out << "      " << c["what"].get<std::string>() << ": " << c["reason"].get<std::string>() << '\n';
  const Json& dropped = d["dropped"];
  out << "    dropped (" << dropped.size() << (dropped.empty() ? "): nothing\n" : "):\n");
  for (const Json& c : dropped)
    out << "      " << c["what"].get<std::string>() << ": " << c["reason"].get<std::string>() << '\n';
}

}  // namespace

void PrintDeviceText(const Json& d, std::ostream& out) {
  out << "  [" << d["index"].dump() << "] " << Str(d["deviceName"]) << '\n';
  Field(out, "type", Str(d["type"]));
  Field(out, "vendorID/deviceID", Str(d["vendorID"]) + " / " + Str(d["deviceID"]));
  Field(out, "apiVersion", Str(d["apiVersion"]));
  std::string driver = Str(d["driverName"]);
  if (d["driverInfo"].is_string() && !d["driverInfo"].get<std::string>().empty())
    driver += " (" + d["driverInfo"].get<std::string>() + ")";
  Field(out, "driver", driver);
  if (d.contains("driverID")) Field(out, "driverID", Str(d["driverID"]));
  if (d.contains("conformanceVersion")) Field(out, "conformanceVersion", Str(d["conformanceVersion"]));
  Field(out, "driverVersion", Str(d["driverVersion"]));
  std::string source = Str(d["source"]);
  if (d["profileName"].is_string()) source += " (profile " + d["profileName"].get<std::string>() + ")";
  Field(out, "source", source);
  if (d.contains("extensions")) PrintVerbose(d, out);
}

}  // namespace crashtest
