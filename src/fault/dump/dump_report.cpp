#include "fault/dump/dump_report.h"

#include <vulkan/vulkan.h>

#include <cinttypes>
#include <cstdio>
#include <sstream>

#include <crashtest/vulkan_compat.h>

namespace crashtest::dump {

namespace {

std::string Hex(uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, v);
  return text;
}

std::string Version(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

std::string Quoted(const std::string& name) { return name.empty() ? std::string() : " \"" + name + "\""; }

const char* KindName(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::Memory: return "memory";
    case ResourceKind::Buffer: return "buffer";
    case ResourceKind::Image: return "image";
  }
  return "memory";
}

const char* AddressTypeName(uint32_t type) {
  switch (type) {
    case VK_DEVICE_FAULT_ADDRESS_TYPE_NONE_KHR: return "NONE";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR: return "READ_INVALID";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_KHR: return "WRITE_INVALID";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_EXECUTE_INVALID_KHR: return "EXECUTE_INVALID";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_UNKNOWN_KHR: return "INSTRUCTION_POINTER_UNKNOWN";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_INVALID_KHR: return "INSTRUCTION_POINTER_INVALID";
    case VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_KHR: return "INSTRUCTION_POINTER_FAULT";
    default: return "UNKNOWN";
  }
}

std::string FlagNames(uint32_t flags) {
  static const std::pair<uint32_t, const char*> kBits[] = {
      {VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR, "DEVICE_LOST"},
      {VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR, "MEMORY_ADDRESS"},
      {VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR, "INSTRUCTION_ADDRESS"},
      {VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR, "VENDOR"},
      {VK_DEVICE_FAULT_FLAG_WATCHDOG_TIMEOUT_BIT_KHR, "WATCHDOG_TIMEOUT"},
      {VK_DEVICE_FAULT_FLAG_OVERFLOW_BIT_KHR, "OVERFLOW"},
  };
  std::string out;
  for (const auto& [bit, name] : kBits)
    if (flags & bit) out += (out.empty() ? "" : " | ") + std::string(name);
  return out.empty() ? "none" : out;
}

std::string StageName(uint64_t stage) {
  switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT: return "vertex";
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return "tessellation control";
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return "tessellation evaluation";
    case VK_SHADER_STAGE_GEOMETRY_BIT: return "geometry";
    case VK_SHADER_STAGE_FRAGMENT_BIT: return "fragment";
    case VK_SHADER_STAGE_COMPUTE_BIT: return "compute";
    default: return Hex(stage);
  }
}

std::string PipeStageName(uint64_t stage) {
  if (stage == VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT) return "TOP_OF_PIPE";
  if (stage == VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT) return "BOTTOM_OF_PIPE";
  if (stage == VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT) return "ALL_COMMANDS";
  return Hex(stage);
}

std::string ResourceText(const Resource& r) {
  std::string text = std::string(r.freed ? "freed " : "") + KindName(r.kind) + " " + std::to_string(r.id) +
                     Quoted(r.name) + " [" + Hex(r.address) + ", " + Hex(r.address + r.size) + ")";
  if (r.kind != ResourceKind::Memory) text += " in memory " + std::to_string(r.memoryId);
  return text;
}

std::string SourceText(const ShaderFaultSite& f) {
  if (f.line == 0) return "";
  std::string file = f.file.substr(f.file.find_last_of('/') == std::string::npos ? 0 : f.file.find_last_of('/') + 1);
  return (file.empty() ? std::string("line ") : file + ":") + std::to_string(f.line) +
         (f.column != 0 ? ":" + std::to_string(f.column) : std::string());
}

const Pipeline* FaultingPipeline(const Content& c) {
  for (const Pipeline& p : c.pipelines)
    if (p.hasFault) return &p;
  return nullptr;
}

}  // namespace

const Resource* AttributeAddress(const Content& content, uint64_t address) {
  const Resource* best = nullptr;
  auto rank = [](const Resource& r) { return (r.freed ? 2 : 0) + (r.kind == ResourceKind::Memory ? 1 : 0); };
  for (const Resource& r : content.resources) {
    if (address < r.address || address - r.address >= r.size) continue;
    if (best == nullptr || rank(r) < rank(*best)) best = &r;
  }
  return best;
}

const Resource* NearestBelow(const Content& content, uint64_t address) {
  constexpr uint64_t kReach = 64 * 1024;
  const Resource* best = nullptr;
  auto rank = [](const Resource& r) { return (r.freed ? 2 : 0) + (r.kind == ResourceKind::Memory ? 1 : 0); };
  for (const Resource& r : content.resources) {
    if (r.size > UINT64_MAX - r.address) continue;  // a corrupt range
    const uint64_t end = r.address + r.size;
    if (end > address || address - end >= kReach) continue;
    if (best == nullptr || end > best->address + best->size || (end == best->address + best->size && rank(r) < rank(*best)))
      best = &r;
  }
  return best;
}

std::string DumpText(const Decoded& d) {
  std::ostringstream out;
  const Content& c = d.content;
  out << "crashtest crash dump (container version " << d.containerVersion << ")\n";
  out << "application: " << (d.applicationName.empty() ? "(unnamed)" : "\"" + d.applicationName + "\"") << " version "
      << d.applicationVersion << ", engine " << (d.engineName.empty() ? "(unnamed)" : "\"" + d.engineName + "\"")
      << " version " << d.engineVersion << ", Vulkan " << Version(d.apiVersion) << "\n";
  out << "device: vendor " << Hex(d.vendorID) << ", device " << Hex(d.deviceID) << ", driverVersion "
      << d.driverVersion;
  if (c.hasDevice) {
    out << "\n  " << c.device.deviceName << " (" << c.device.driverName
        << (c.device.driverInfo.empty() ? "" : ", " + c.device.driverInfo) << "), Vulkan "
        << Version(c.device.apiVersion) << ", profile " << c.device.profile << ", crashtest " << c.device.driverBuild;
  }
  out << "\n";

  for (size_t i = 0; i < d.faults.size(); ++i) {
    const DecodedFault& f = d.faults[i];
    out << "\nfault " << i + 1 << " of " << d.faults.size() << (f.faultId.empty() ? "" : " \"" + f.faultId + "\"")
        << ": " << FlagNames(f.flags) << "\n  " << f.description << "\n";
    if (f.flags & VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR) {
      out << "  address " << Hex(f.address) << " (" << AddressTypeName(f.addressType) << ", precision "
          << f.addressPrecision << ")";
      if (const Resource* r = AttributeAddress(c, f.address)) {
        out << ": in " << ResourceText(*r) << ", offset " << Hex(f.address - r->address);
        if (r->freed) out << " — use after free";
      } else {
        out << ": in no live or recently freed resource";
        if (const Resource* r = NearestBelow(c, f.address))
          out << "; " << f.address - (r->address + r->size) << " bytes past the end of " << ResourceText(*r);
      }
      out << "\n";
    }
    if (f.flags & VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR)
      out << "  instruction " << Hex(f.instruction) << " (" << AddressTypeName(f.instructionType) << ")\n";
    if (f.flags & VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR)
      out << "  vendor: " << f.vendorDescription << " (code " << Hex(f.vendorCode) << ", data " << Hex(f.vendorData)
          << ")\n";
  }

  for (const Submission& s : c.submissions) {
    out << "\n";
    if (s.executing != kNoCommand) {
      // Positions in messages count from 1, as the fault reports' "command 6" (docs/faults.md, "Numbering"); the
      // binary and the JSON keep the index from 0.
      out << "executing command " << uint64_t{s.executing} + 1 << " (" << s.executingName
          << (s.executingDetail.empty() ? "" : ", " + s.executingDetail) << ") of command buffer "
          << s.executingCommandBuffer;
      for (const CommandBufferRecord& cb : s.commandBuffers)
        if (cb.id == s.executingCommandBuffer && !cb.name.empty()) out << " \"" << cb.name << "\"";
    } else if (s.serial == 0) {
      out << "queue " << s.queue << " of family " << s.family << " was idle (no submission executing)";
    } else {
      out << (s.executingDetail.empty() ? "between commands" : s.executingDetail);
    }
    if (s.serial != 0) out << ", submission " << s.serial << " on queue " << s.queue << " of family " << s.family;
    if (!s.labels.empty()) {
      out << ", inside labels ";
      for (size_t l = 0; l < s.labels.size(); ++l) out << (l ? " > " : "") << s.labels[l];
    }
    out << ", when the device was lost\n";
  }
  // The submissions queued behind those, one line per queue: they had not started and the loss abandons them.
  for (size_t i = 0; i < c.queued.size();) {
    const QueuedSubmission& first = c.queued[i];
    out << "\nqueued, not started, on queue " << first.queue << " of family " << first.family << ":";
    for (bool comma = false; i < c.queued.size() && c.queued[i].family == first.family &&
                             c.queued[i].queue == first.queue;
         ++i, comma = true) {
      const QueuedSubmission& q = c.queued[i];
      out << (comma ? "," : "") << " submission " << q.serial << " (";
      if (q.commandBuffers.empty()) out << "no command buffers";
      else out << (q.commandBuffers.size() == 1 ? "command buffer " : "command buffers ");
      for (size_t k = 0; k < q.commandBuffers.size(); ++k)
        out << (k ? ", " : "") << q.commandBuffers[k].id << Quoted(q.commandBuffers[k].name);
      out << ")";
    }
    out << "\n";
  }
  if (const Pipeline* p = FaultingPipeline(c)) {
    const ShaderFaultSite& f = p->fault;
    out << "\nshader fault in pipeline " << p->id << Quoted(p->name) << ", " << StageName(f.stage) << " stage: ";
    out << (f.spirvId != 0 ? "SPIR-V %" + std::to_string(f.spirvId) + " (" + f.spirvOpName + ")"
                           : "SPIR-V " + f.spirvOpName)
        << ", instruction " << f.instruction;
    const std::string source = SourceText(f);
    out << (source.empty() ? ", no source line (the module has no debug information)" : " at " + source) << "\n";
    if (!f.irText.empty()) out << "  IR: " << f.irText << "\n";
  }

  if (!c.markers.empty() || !c.checkpoints.empty()) {
    out << "\nbreadcrumbs:\n";
    for (const BufferMarker& m : c.markers)
      out << "  last buffer marker on queue " << m.queue << " of family " << m.family << ": " << m.value
          << " written to buffer " << m.buffer << " at offset " << m.offset << " (" << PipeStageName(m.stage) << ")\n";
    for (const Checkpoint& cp : c.checkpoints)
      out << "  checkpoint on queue " << cp.queue << " of family " << cp.family << " at " << PipeStageName(cp.stage)
          << ": " << Hex(cp.marker) << "\n";
  }

  if (!c.capturedFrames.empty()) {
    out << "\nframes presented before the loss (PNG):\n";
    for (const CapturedFrame& f : c.capturedFrames)
      out << "  swapchain " << f.swapchain << " frame " << f.frame << ": " << f.path << "\n";
  }

  if (!c.pipelines.empty()) {
    out << "\nbound pipelines:\n";
    for (const Pipeline& p : c.pipelines) {
      out << "  pipeline " << p.id << Quoted(p.name)
          << (p.bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE ? " (compute)" : " (graphics)") << "\n";
      for (const PipelineStageRecord& st : p.stages) {
        out << "    " << StageName(st.stage) << " \"" << st.entryPoint << "\", shader hash " << Hex(st.hash) << "\n";
        for (const Statistic& stat : st.statistics) out << "      " << stat.name << ": " << stat.value << "\n";
      }
    }
  }

  auto commandBuffers = [&](const std::vector<CommandBufferRecord>& list) {
    for (const CommandBufferRecord& cb : list) {
      out << "  " << (cb.secondary ? "secondary " : "") << "command buffer " << cb.id << Quoted(cb.name) << ":\n";
      for (const Command& k : cb.commands) {
        const char* mark = k.state == CommandState::Completed ? "done   "
                           : k.state == CommandState::Executing ? "FAULT >"
                                                                : "not run";
        out << "    " << mark << " " << uint64_t{k.index} + 1 << " " << k.name << (k.detail.empty() ? "" : " " + k.detail) << "\n";
      }
    }
  };
  for (const Submission& s : c.submissions) {
    if (s.serial == 0) continue;  // an idle queue
    out << "\ncommands of submission " << s.serial << " on queue " << s.queue << " of family " << s.family << ":\n";
    commandBuffers(s.commandBuffers);
  }
  for (const QueuedSubmission& q : c.queued) {
    out << "\ncommands of submission " << q.serial << " on queue " << q.queue << " of family " << q.family
        << " (queued, not started):\n";
    commandBuffers(q.commandBuffers);
  }

  if (!c.resources.empty()) {
    out << "\nresources:\n";
    for (const Resource& r : c.resources) out << "  " << ResourceText(r) << "\n";
  }
  if (!c.names.empty()) {
    out << "\nobject names:\n";
    for (const ObjectName& n : c.names)
      out << "  type " << n.type << " handle " << Hex(n.handle) << ": \"" << n.name << "\"\n";
  }
  if (!d.truncated.empty()) {
    out << "\ncut by the dump size cap:";
    for (const std::string& t : d.truncated) out << " " << t << ";";
    out << "\n";
  }
  for (uint32_t type : d.unknownSections) out << "(skipped section of unknown type " << type << ")\n";
  return out.str();
}

nlohmann::json DumpJson(const Decoded& d) {
  using nlohmann::json;
  const Content& c = d.content;
  json out;
  out["containerVersion"] = d.containerVersion;
  out["application"] = {{"name", d.applicationName}, {"version", d.applicationVersion},
                        {"engineName", d.engineName}, {"engineVersion", d.engineVersion},
                        {"apiVersion", Version(d.apiVersion)}};
  json device = {{"vendorID", Hex(d.vendorID)}, {"deviceID", Hex(d.deviceID)}, {"driverVersion", d.driverVersion}};
  if (c.hasDevice) {
    device["deviceName"] = c.device.deviceName;
    device["driverName"] = c.device.driverName;
    device["driverInfo"] = c.device.driverInfo;
    device["driverID"] = c.device.driverID;
    device["deviceType"] = c.device.deviceType;
    device["apiVersion"] = Version(c.device.apiVersion);
    device["profile"] = c.device.profile;
    device["crashtestVersion"] = c.device.driverBuild;
  }
  out["device"] = device;
  auto resourceJson = [](const Resource& r) {
    json j = {{"kind", KindName(r.kind)}, {"freed", r.freed}, {"id", r.id},     {"name", r.name},
              {"address", Hex(r.address)}, {"size", r.size}};
    if (r.kind != ResourceKind::Memory) j["memory"] = r.memoryId;
    else j["heap"] = r.heap;
    return j;
  };
  json faults = json::array();
  for (const DecodedFault& f : d.faults) {
    json j = {{"id", f.faultId}, {"flags", FlagNames(f.flags)}, {"groupId", f.groupId}, {"description", f.description}};
    if (f.flags & VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR) {
      j["address"] = {{"type", AddressTypeName(f.addressType)}, {"address", Hex(f.address)},
                      {"precision", f.addressPrecision}};
      const Resource* r = AttributeAddress(c, f.address);
      j["address"]["resource"] = r != nullptr ? resourceJson(*r) : json(nullptr);
      j["address"]["useAfterFree"] = r != nullptr && r->freed;
      if (r == nullptr) {
        if (const Resource* near = NearestBelow(c, f.address))
          j["address"]["pastTheEndOf"] = {{"resource", resourceJson(*near)},
                                          {"bytesPastEnd", f.address - (near->address + near->size)}};
      }
    }
    if (f.flags & VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR)
      j["instruction"] = {{"type", AddressTypeName(f.instructionType)}, {"address", Hex(f.instruction)}};
    if (f.flags & VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR)
      j["vendor"] = {{"description", f.vendorDescription}, {"code", f.vendorCode}, {"data", f.vendorData}};
    faults.push_back(j);
  }
  out["faults"] = faults;
  auto commandBuffersJson = [](const std::vector<CommandBufferRecord>& list) {
    json cbs = json::array();
    for (const CommandBufferRecord& cb : list) {
      json commands = json::array();
      for (const Command& k : cb.commands)
        commands.push_back({{"index", k.index}, {"name", k.name}, {"detail", k.detail},
                            {"state", k.state == CommandState::Completed   ? "completed"
                                      : k.state == CommandState::Executing ? "executing"
                                                                           : "not-run"}});
      cbs.push_back({{"id", cb.id}, {"name", cb.name}, {"secondary", cb.secondary}, {"commands", commands}});
    }
    return cbs;
  };
  json submissions = json::array();
  for (const Submission& s : c.submissions) {
    json j = {{"family", s.family}, {"queue", s.queue}, {"serial", s.serial}, {"labels", s.labels}};
    j["idle"] = s.serial == 0;
    if (s.executing == kNoCommand && !s.executingDetail.empty()) j["state"] = s.executingDetail;
    j["executing"] = s.executing == kNoCommand
                         ? json(nullptr)
                         : json{{"command", s.executing}, {"name", s.executingName}, {"detail", s.executingDetail},
                                {"commandBuffer", s.executingCommandBuffer}};
    j["commandBuffers"] = commandBuffersJson(s.commandBuffers);
    submissions.push_back(j);
  }
  out["submissions"] = submissions;
  json queued = json::array();
  for (const QueuedSubmission& q : c.queued)
    queued.push_back({{"family", q.family}, {"queue", q.queue}, {"serial", q.serial}, {"state", "queued, not started"},
                      {"commandBuffers", commandBuffersJson(q.commandBuffers)}});
  out["queued"] = queued;
  json pipelines = json::array();
  for (const Pipeline& p : c.pipelines) {
    json j = {{"id", p.id}, {"name", p.name}, {"bindPoint", p.bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE ? "compute" : "graphics"}};
    json stages = json::array();
    for (const PipelineStageRecord& st : p.stages) {
      json stats = json::object();
      for (const Statistic& s : st.statistics) stats[s.name] = s.value;
      stages.push_back({{"stage", StageName(st.stage)}, {"entryPoint", st.entryPoint}, {"hash", Hex(st.hash)},
                        {"statistics", stats}});
    }
    j["stages"] = stages;
    if (p.hasFault) {
      const ShaderFaultSite& f = p.fault;
      j["fault"] = {{"stage", StageName(f.stage)}, {"instruction", f.instruction}, {"spirvId", f.spirvId},
                    {"spirvOp", f.spirvOpName}, {"file", f.file}, {"line", f.line}, {"column", f.column},
                    {"ir", f.irText}};
    }
    pipelines.push_back(j);
  }
  out["pipelines"] = pipelines;
  json resources = json::array();
  for (const Resource& r : c.resources) resources.push_back(resourceJson(r));
  out["resources"] = resources;
  json names = json::array();
  for (const ObjectName& n : c.names) names.push_back({{"type", n.type}, {"handle", Hex(n.handle)}, {"name", n.name}});
  out["objectNames"] = names;
  json markers = json::array();
  for (const BufferMarker& m : c.markers)
    markers.push_back({{"family", m.family}, {"queue", m.queue}, {"buffer", m.buffer}, {"offset", m.offset},
                       {"value", m.value}, {"stage", PipeStageName(m.stage)}});
  json checkpoints = json::array();
  for (const Checkpoint& cp : c.checkpoints)
    checkpoints.push_back({{"family", cp.family}, {"queue", cp.queue}, {"stage", PipeStageName(cp.stage)},
                           {"marker", Hex(cp.marker)}});
  out["breadcrumbs"] = {{"bufferMarkers", markers}, {"checkpoints", checkpoints}};
  json frames = json::array();
  for (const CapturedFrame& f : c.capturedFrames)
    frames.push_back({{"swapchain", f.swapchain}, {"frame", f.frame}, {"path", f.path}});
  out["capturedFrames"] = frames;
  out["truncated"] = d.truncated;
  out["unknownSections"] = d.unknownSections;
  return out;
}

}  // namespace crashtest::dump
