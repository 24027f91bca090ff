// The section writers of the vendor binary (one file each) and the section types and versions readers rely on.
// The layout of every section is in docs/faults.md, "Vendor binary layout"; the decoder is dump_reader.h.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "fault/dump/dump_bytes.h"
#include "fault/dump/dump_content.h"
#include "fault/report_queue.h"

namespace crashtest::dump {

enum SectionType : uint32_t {
  kSectionFaults = 1,
  kSectionDevice = 2,
  kSectionSubmissions = 3,
  kSectionPipelines = 4,
  kSectionResources = 5,
  kSectionObjectNames = 6,
  kSectionBreadcrumbs = 7,
  kSectionCapturedFrames = 8,
  kSectionQueuedSubmissions = 9,
};
// Every section is at version 1; a later version only appends fields to the section's records.
inline constexpr uint32_t kSectionVersion = 1;

inline constexpr uint32_t kFaultIdSize = 64;
inline constexpr uint32_t kFaultRecordSize = 72 + kFaultIdSize + 2 * VK_MAX_DESCRIPTION_SIZE;  // 648

// Each writes one section's payload (without the section header).
void WriteFaultsSection(ByteWriter& w, std::span<const FaultReport> reports, std::span<const std::string> faultIds);
void WriteDeviceSection(ByteWriter& w, const DeviceIdentity& device);
void WriteSubmissionsSection(ByteWriter& w, std::span<const Submission> submissions);
void WriteQueuedSubmissionsSection(ByteWriter& w, std::span<const QueuedSubmission> queued);
// A command buffer with its commands, as sections 3 and 8 list them.
void WriteCommandBuffer(ByteWriter& w, const CommandBufferRecord& commandBuffer);
void WritePipelinesSection(ByteWriter& w, std::span<const Pipeline> pipelines);
void WriteResourcesSection(ByteWriter& w, std::span<const Resource> resources);
void WriteObjectNamesSection(ByteWriter& w, std::span<const ObjectName> names);
void WriteBreadcrumbsSection(ByteWriter& w, std::span<const BufferMarker> markers,
                             std::span<const Checkpoint> checkpoints);
void WriteCapturedFramesSection(ByteWriter& w, std::span<const CapturedFrame> frames);

}  // namespace crashtest::dump
