#include "fault/vendor_binary.h"

#include <algorithm>

#include "fault/dump/dump_bytes.h"
#include "fault/dump/dump_sections.h"

namespace crashtest {

namespace {

// One section: u32 type, u32 version, u64 payload size, the payload, zero padding to a multiple of 8.
template <typename WritePayload>
void Section(dump::ByteWriter& w, uint32_t type, uint32_t* count, WritePayload&& writePayload) {
  w.U32(type);
  w.U32(dump::kSectionVersion);
  const size_t payloadSizeField = w.size();
  w.U64(0);
  const size_t payloadStart = w.size();
  writePayload();
  w.PatchU64(payloadSizeField, w.size() - payloadStart);
  w.Align(8);
  ++*count;
}

}  // namespace

std::vector<std::byte> BuildVendorBinary(const FaultIdentity& identity, std::span<const FaultReport> reports,
                                         std::span<const std::string> faultIds, const dump::Content& content,
                                         uint64_t sizeLimit) {
  // Lists stop short of the cap by the room the section and list headers after them need, so the whole binary
  // stays within it (the names in the header aside: they are the application's).
  constexpr size_t kTailReserve = 1024;
  dump::ByteWriter w(static_cast<size_t>(std::max(sizeLimit, kMinDumpSizeLimit)) - kTailReserve);
  // VkDeviceFaultVendorBinaryHeaderVersionOneKHR, 56 bytes, tightly packed
  // (VUID-VkDeviceFaultVendorBinaryHeaderVersionOneEXT-headerSize-07340: headerSize must be 56).
  w.U32(kVendorBinaryHeaderSize);
  w.U32(VK_DEVICE_FAULT_VENDOR_BINARY_HEADER_VERSION_ONE_KHR);
  w.U32(identity.vendorID);
  w.U32(identity.deviceID);
  w.U32(identity.driverVersion);
  w.Raw(identity.pipelineCacheUUID.data(), VK_UUID_SIZE);
  const size_t applicationNameOffsetField = w.size();
  w.U32(0);
  w.U32(identity.applicationVersion);
  const size_t engineNameOffsetField = w.size();
  w.U32(0);
  w.U32(identity.engineVersion);
  w.U32(identity.apiVersion);
  // "applicationNameOffset ... zero, or an offset from the base address of the crash dump header to a
  // null-terminated UTF-8 string containing the name of the application".
  if (!identity.applicationName.empty()) {
    w.PatchU32(applicationNameOffsetField, static_cast<uint32_t>(w.size()));
    w.CString(identity.applicationName);
  }
  if (!identity.engineName.empty()) {
    w.PatchU32(engineNameOffsetField, static_cast<uint32_t>(w.size()));
    w.CString(identity.engineName);
  }
  w.Align(8);

  // crashtest's container: magic, version, section count, then the sections in the order of their importance,
  // so what the size cap cuts is the least useful.
  w.Raw(kDumpMagic, sizeof(kDumpMagic));
  w.U32(kDumpVersion);
  const size_t sectionCountField = w.size();
  w.U32(0);
  uint32_t sections = 0;
  Section(w, dump::kSectionFaults, &sections, [&] { dump::WriteFaultsSection(w, reports, faultIds); });
  if (content.hasDevice)
    Section(w, dump::kSectionDevice, &sections, [&] { dump::WriteDeviceSection(w, content.device); });
  Section(w, dump::kSectionSubmissions, &sections, [&] { dump::WriteSubmissionsSection(w, content.submissions); });
  Section(w, dump::kSectionPipelines, &sections, [&] { dump::WritePipelinesSection(w, content.pipelines); });
  Section(w, dump::kSectionResources, &sections, [&] { dump::WriteResourcesSection(w, content.resources); });
  Section(w, dump::kSectionBreadcrumbs, &sections,
          [&] { dump::WriteBreadcrumbsSection(w, content.markers, content.checkpoints); });
  if (!content.capturedFrames.empty())
    Section(w, dump::kSectionCapturedFrames, &sections,
            [&] { dump::WriteCapturedFramesSection(w, content.capturedFrames); });
  Section(w, dump::kSectionObjectNames, &sections, [&] { dump::WriteObjectNamesSection(w, content.names); });
  if (!content.queued.empty())
    Section(w, dump::kSectionQueuedSubmissions, &sections,
            [&] { dump::WriteQueuedSubmissionsSection(w, content.queued); });
  w.PatchU32(sectionCountField, sections);
  return w.Take();
}

}  // namespace crashtest
