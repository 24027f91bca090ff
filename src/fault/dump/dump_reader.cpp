#include "fault/dump/dump_reader.h"

#include <algorithm>
#include <cstring>

#include "fault/dump/dump_bytes.h"
#include "fault/dump/dump_sections.h"
#include "fault/vendor_binary.h"

namespace crashtest::dump {

namespace {

// The smallest encoded size of one item of each list, so a count that cannot fit is caught before any loop.
constexpr size_t kMinSubmission = 4 + 4 + 8 + 4 + 8 + 4 + 4 + 8 + 8;
constexpr size_t kMinQueued = 4 + 4 + 8 + 8;
constexpr size_t kMinCommandBuffer = 8 + 4 + 4 + 8;
constexpr size_t kMinCommand = 4 + 1 + 4 + 4;
constexpr size_t kMinPipeline = 8 + 4 + 4 + 4 + 8;
constexpr size_t kMinStage = 4 + 4 + 8 + 8;
constexpr size_t kMinResource = 1 + 1 + 8 + 8 + 8 + 8 + 4 + 4;
constexpr size_t kMinName = 4 + 8 + 4;
constexpr size_t kMinMarker = 4 + 4 + 8 + 8 + 4 + 8;
constexpr size_t kMinCheckpoint = 4 + 4 + 8 + 8;
constexpr size_t kMinCapturedFrame = 8 + 8 + 4;

const char* SectionName(uint32_t type) {
  switch (type) {
    case kSectionFaults: return "faults";
    case kSectionDevice: return "device";
    case kSectionSubmissions: return "submissions";
    case kSectionPipelines: return "pipelines";
    case kSectionResources: return "resources";
    case kSectionObjectNames: return "object names";
    case kSectionBreadcrumbs: return "breadcrumbs";
    case kSectionCapturedFrames: return "captured frames";
    case kSectionQueuedSubmissions: return "queued submissions";
    default: return "unknown";
  }
}

// Reads a List's items with `readItem` and notes what the size cap cut.
template <typename ReadItem>
void ReadList(ByteReader& r, size_t minItemSize, const char* what, Decoded* out, ReadItem&& readItem) {
  uint32_t omitted = 0;
  const uint32_t count = r.ListCount(minItemSize, what, &omitted);
  for (uint32_t i = 0; i < count && r.ok(); ++i) readItem();
  if (r.ok() && omitted != 0) out->truncated.push_back(std::to_string(omitted) + " " + what);
}

void ReadFaults(ByteReader& r, Decoded* out) {
  const uint32_t count = r.U32("fault count");
  const uint32_t recordSize = r.U32("fault record size");
  if (!r.ok()) return;
  if (recordSize < kFaultRecordSize) return r.Fail("fault record size " + std::to_string(recordSize) + " is below " +
                                                   std::to_string(kFaultRecordSize));
  if (count > r.remaining() / recordSize)
    return r.Fail(std::to_string(count) + " fault records cannot fit in the " + std::to_string(r.remaining()) +
                  " bytes left");
  for (uint32_t i = 0; i < count && r.ok(); ++i) {
    DecodedFault f;
    f.flags = r.U32("fault flags");
    f.addressType = r.U32("fault address type");
    f.groupId = r.U64("fault group id");
    f.address = r.U64("fault address");
    f.addressPrecision = r.U64("fault address precision");
    f.instructionType = r.U32("instruction address type");
    r.U32("reserved");
    f.instruction = r.U64("instruction address");
    f.instructionPrecision = r.U64("instruction address precision");
    f.vendorCode = r.U64("vendor fault code");
    f.vendorData = r.U64("vendor fault data");
    f.faultId = r.Text(kFaultIdSize, "fault id");
    f.description = r.Text(VK_MAX_DESCRIPTION_SIZE, "fault description");
    f.vendorDescription = r.Text(VK_MAX_DESCRIPTION_SIZE, "vendor description");
    r.Skip(recordSize - kFaultRecordSize, "fault record");  // fields a newer writer appended
    if (r.ok()) out->faults.push_back(std::move(f));
  }
}

void ReadDevice(ByteReader& r, Decoded* out) {
  DeviceIdentity& d = out->content.device;
  d.vendorID = r.U32("vendorID");
  d.deviceID = r.U32("deviceID");
  d.driverVersion = r.U32("driverVersion");
  d.apiVersion = r.U32("apiVersion");
  d.driverID = r.U32("driverID");
  d.deviceType = r.U32("deviceType");
  d.deviceName = r.String("deviceName");
  d.driverName = r.String("driverName");
  d.driverInfo = r.String("driverInfo");
  d.profile = r.String("profile");
  d.driverBuild = r.String("driver build");
  out->content.hasDevice = r.ok();
}

void ReadCommandBuffers(ByteReader& r, Decoded* out, std::vector<CommandBufferRecord>& commandBuffers) {
  ReadList(r, kMinCommandBuffer, "command buffers", out, [&] {
    CommandBufferRecord cb;
    cb.id = r.U64("command buffer id");
    cb.name = r.String("command buffer name");
    cb.secondary = r.U32("command buffer level") != 0;
    ReadList(r, kMinCommand, "commands", out, [&] {
      Command c;
      c.index = r.U32("command index");
      const uint8_t state = r.U8("command state");
      c.state = state <= 2 ? static_cast<CommandState>(state) : CommandState::NotRun;
      c.name = r.String("command name");
      c.detail = r.String("command detail");
      cb.commands.push_back(std::move(c));
    });
    commandBuffers.push_back(std::move(cb));
  });
}

void ReadSubmissions(ByteReader& r, Decoded* out) {
  ReadList(r, kMinSubmission, "submissions", out, [&] {
    Submission s;
    s.family = r.U32("queue family");
    s.queue = r.U32("queue index");
    s.serial = r.U64("submission serial");
    s.executing = r.U32("executing command");
    s.executingCommandBuffer = r.U64("executing command buffer");
    s.executingName = r.String("executing command name");
    s.executingDetail = r.String("executing command detail");
    ReadList(r, 4, "labels", out, [&] { s.labels.push_back(r.String("label")); });
    ReadCommandBuffers(r, out, s.commandBuffers);
    out->content.submissions.push_back(std::move(s));
  });
}

void ReadQueuedSubmissions(ByteReader& r, Decoded* out) {
  ReadList(r, kMinQueued, "queued submissions", out, [&] {
    QueuedSubmission s;
    s.family = r.U32("queued submission's queue family");
    s.queue = r.U32("queued submission's queue index");
    s.serial = r.U64("queued submission serial");
    ReadCommandBuffers(r, out, s.commandBuffers);
    out->content.queued.push_back(std::move(s));
  });
}

void ReadPipelines(ByteReader& r, Decoded* out) {
  ReadList(r, kMinPipeline, "pipelines", out, [&] {
    Pipeline p;
    p.id = r.U64("pipeline id");
    p.name = r.String("pipeline name");
    p.bindPoint = r.U32("bind point");
    p.hasFault = r.U32("fault flag") != 0;
    if (p.hasFault) {
      ShaderFaultSite& f = p.fault;
      f.stage = r.U32("fault stage");
      f.instruction = r.U32("fault instruction");
      f.spirvId = r.U32("SPIR-V id");
      f.spirvOpcode = r.U32("SPIR-V opcode");
      f.spirvOpName = r.String("SPIR-V opcode name");
      f.line = r.U32("source line");
      f.column = r.U32("source column");
      f.file = r.String("source file");
      f.irText = r.String("IR text");
    }
    ReadList(r, kMinStage, "pipeline stages", out, [&] {
      PipelineStageRecord stage;
      stage.stage = r.U32("stage");
      stage.entryPoint = r.String("entry point");
      stage.hash = r.U64("shader hash");
      ReadList(r, 8, "statistics", out, [&] {
        Statistic s;
        s.name = r.String("statistic name");
        s.value = r.String("statistic value");
        stage.statistics.push_back(std::move(s));
      });
      p.stages.push_back(std::move(stage));
    });
    out->content.pipelines.push_back(std::move(p));
  });
}

void ReadResources(ByteReader& r, Decoded* out) {
  ReadList(r, kMinResource, "resources", out, [&] {
    Resource res;
    const uint8_t kind = r.U8("resource kind");
    res.kind = kind <= 2 ? static_cast<ResourceKind>(kind) : ResourceKind::Memory;
    res.freed = r.U8("resource freed") != 0;
    res.id = r.U64("resource id");
    res.address = r.U64("resource address");
    res.size = r.U64("resource size");
    res.memoryId = r.U64("resource memory");
    res.heap = r.U32("resource heap");
    res.name = r.String("resource name");
    out->content.resources.push_back(std::move(res));
  });
}

void ReadNames(ByteReader& r, Decoded* out) {
  ReadList(r, kMinName, "object names", out, [&] {
    ObjectName n;
    n.type = r.U32("object type");
    n.handle = r.U64("object handle");
    n.name = r.String("object name");
    out->content.names.push_back(std::move(n));
  });
}

void ReadBreadcrumbs(ByteReader& r, Decoded* out) {
  ReadList(r, kMinMarker, "buffer markers", out, [&] {
    BufferMarker m;
    m.family = r.U32("marker queue family");
    m.queue = r.U32("marker queue");
    m.buffer = r.U64("marker buffer");
    m.offset = r.U64("marker offset");
    m.value = r.U32("marker value");
    m.stage = r.U64("marker stage");
    out->content.markers.push_back(m);
  });
  ReadList(r, kMinCheckpoint, "checkpoints", out, [&] {
    Checkpoint c;
    c.family = r.U32("checkpoint queue family");
    c.queue = r.U32("checkpoint queue");
    c.stage = r.U64("checkpoint stage");
    c.marker = r.U64("checkpoint marker");
    out->content.checkpoints.push_back(c);
  });
}

void ReadCapturedFrames(ByteReader& r, Decoded* out) {
  ReadList(r, kMinCapturedFrame, "captured frames", out, [&] {
    CapturedFrame f;
    f.swapchain = r.U64("captured frame swapchain");
    f.frame = r.U64("captured frame number");
    f.path = r.String("captured frame path");
    out->content.capturedFrames.push_back(std::move(f));
  });
}

// A NUL-terminated name at `offset` of the binary (0: none).
bool ReadHeaderName(std::span<const std::byte> bytes, uint32_t offset, const char* what, std::string* out,
                    std::string* error) {
  if (offset == 0) return true;
  if (offset < kVendorBinaryHeaderSize || offset >= bytes.size()) {
    *error = std::string(what) + " offset " + std::to_string(offset) + " lies outside the " +
             std::to_string(bytes.size()) + "-byte file";
    return false;
  }
  const char* p = reinterpret_cast<const char*>(bytes.data() + offset);
  const size_t n = strnlen(p, bytes.size() - offset);
  if (n == bytes.size() - offset) {
    *error = std::string(what) + " is not NUL-terminated";
    return false;
  }
  out->assign(p, n);
  return true;
}

}  // namespace

bool DecodeVendorBinary(std::span<const std::byte> bytes, Decoded* out, std::string* error) {
  *out = Decoded{};
  ByteReader header(bytes.data(), bytes.size());
  if (bytes.size() < kVendorBinaryHeaderSize) {
    *error = "the file has " + std::to_string(bytes.size()) +
             " bytes, fewer than the 56-byte VkDeviceFaultVendorBinaryHeaderVersionOne header";
    return false;
  }
  const uint32_t headerSize = header.U32("headerSize");
  const uint32_t headerVersion = header.U32("headerVersion");
  if (headerSize != kVendorBinaryHeaderSize || headerVersion != 1) {
    *error = "not a Vulkan vendor binary: headerSize " + std::to_string(headerSize) + " (expected 56), headerVersion " +
             std::to_string(headerVersion) + " (expected 1)";
    return false;
  }
  out->vendorID = header.U32("vendorID");
  out->deviceID = header.U32("deviceID");
  out->driverVersion = header.U32("driverVersion");
  for (uint8_t& b : out->pipelineCacheUUID) b = header.U8("pipelineCacheUUID");
  const uint32_t applicationNameOffset = header.U32("applicationNameOffset");
  out->applicationVersion = header.U32("applicationVersion");
  const uint32_t engineNameOffset = header.U32("engineNameOffset");
  out->engineVersion = header.U32("engineVersion");
  out->apiVersion = header.U32("apiVersion");
  if (!ReadHeaderName(bytes, applicationNameOffset, "applicationNameOffset: the application name",
                      &out->applicationName, error) ||
      !ReadHeaderName(bytes, engineNameOffset, "engineNameOffset: the engine name", &out->engineName, error))
    return false;

  // The container follows the names, at the first multiple of 8.
  size_t container = kVendorBinaryHeaderSize;
  if (engineNameOffset != 0) container = std::max<size_t>(container, engineNameOffset + out->engineName.size() + 1);
  if (applicationNameOffset != 0)
    container = std::max<size_t>(container, applicationNameOffset + out->applicationName.size() + 1);
  container = (container + 7) / 8 * 8;
  if (container + 16 > bytes.size()) {
    *error = "the file ends at byte " + std::to_string(bytes.size()) +
             " before the crashtest container header (a vendor binary of another driver, or truncated)";
    return false;
  }
  if (std::memcmp(bytes.data() + container, kDumpMagic, sizeof(kDumpMagic)) != 0) {
    *error = "no crashtest container at byte " + std::to_string(container) +
             " (magic \"CTDUMP\" missing): a vendor binary of another driver, or corrupt";
    return false;
  }
  ByteReader r(bytes.data() + container + 8, bytes.size() - container - 8);
  out->containerVersion = r.U32("container version");
  const uint32_t sectionCount = r.U32("section count");
  if (out->containerVersion != kDumpVersion) {
    *error = "container version " + std::to_string(out->containerVersion) + " is not supported (this decoder reads " +
             std::to_string(kDumpVersion) + ")";
    return false;
  }
  for (uint32_t i = 0; i < sectionCount; ++i) {
    const uint32_t type = r.U32("section type");
    r.U32("section version");
    const uint64_t payloadSize = r.U64("section payload size");
    if (!r.ok() || payloadSize > r.remaining()) {
      *error = "section " + std::to_string(i + 1) + " of " + std::to_string(sectionCount) + " (" + SectionName(type) +
               "): " + (r.ok() ? "its payload of " + std::to_string(payloadSize) + " bytes runs past the end of the file"
                               : r.error());
      return false;
    }
    const std::byte* payload = bytes.data() + container + 8 + r.offset();
    ByteReader section(payload, static_cast<size_t>(payloadSize));
    switch (type) {
      case kSectionFaults: ReadFaults(section, out); break;
      case kSectionDevice: ReadDevice(section, out); break;
      case kSectionSubmissions: ReadSubmissions(section, out); break;
      case kSectionPipelines: ReadPipelines(section, out); break;
      case kSectionResources: ReadResources(section, out); break;
      case kSectionObjectNames: ReadNames(section, out); break;
      case kSectionBreadcrumbs: ReadBreadcrumbs(section, out); break;
      case kSectionCapturedFrames: ReadCapturedFrames(section, out); break;
      case kSectionQueuedSubmissions: ReadQueuedSubmissions(section, out); break;
      default: out->unknownSections.push_back(type); break;  // "readers skip sections whose type they do not know"
    }
    if (!section.ok()) {
      *error = "section " + std::to_string(i + 1) + " (" + SectionName(type) + "): " + section.error();
      return false;
    }
    // Sections are padded to a multiple of 8 (the last one may end the file unpadded).
    const uint64_t padded = (payloadSize + 7) / 8 * 8;
    r.Skip(static_cast<size_t>(std::min<uint64_t>(padded, r.remaining())), "section payload");
  }
  if (out->faults.empty()) {
    *error = "the dump has no fault records";
    return false;
  }
  return true;
}

}  // namespace crashtest::dump
