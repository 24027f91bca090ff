// The breadcrumbs a queue leaves as it executes: the last VK_AMD_buffer_marker write and the last
// VK_NV_device_diagnostic_checkpoints marker reached. Written by whichever thread runs the queue's work, read after
// a loss by vkGetQueueCheckpointData(2)NV and the crash dump, possibly while the queue finishes its command: every
// field is a relaxed atomic (no lock, no allocation per command), published by an acquire/release flag.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>

#include "fault/dump/dump_content.h"

namespace crashtest {

class QueueBreadcrumbs {
 public:
  void Marker(uint64_t bufferId, uint64_t offset, uint32_t value, VkPipelineStageFlags2 stage) {
    markerBuffer_.store(bufferId, std::memory_order_relaxed);
    markerOffset_.store(offset, std::memory_order_relaxed);
    markerValue_.store(value, std::memory_order_relaxed);
    markerStage_.store(stage, std::memory_order_relaxed);
    hasMarker_.store(true, std::memory_order_release);
  }
  void Checkpoint(uint64_t marker) {
    checkpoint_.store(marker, std::memory_order_relaxed);
    hasCheckpoint_.store(true, std::memory_order_release);
  }
  // The last checkpoint reached; false when none was.
  bool LastCheckpoint(uint64_t* marker) const {
    if (!hasCheckpoint_.load(std::memory_order_acquire)) return false;
    *marker = checkpoint_.load(std::memory_order_relaxed);
    return true;
  }
  // The queue's entries of the dump's breadcrumbs section.
  void Describe(uint32_t family, uint32_t queue, dump::Content& content) const {
    if (hasMarker_.load(std::memory_order_acquire))
      content.markers.push_back({family, queue, markerBuffer_.load(std::memory_order_relaxed),
                                 markerOffset_.load(std::memory_order_relaxed),
                                 markerValue_.load(std::memory_order_relaxed),
                                 markerStage_.load(std::memory_order_relaxed)});
    uint64_t marker = 0;
    if (LastCheckpoint(&marker)) {
      content.checkpoints.push_back({family, queue, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, marker});
      content.checkpoints.push_back({family, queue, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, marker});
    }
  }

 private:
  std::atomic<bool> hasMarker_{false};
  std::atomic<bool> hasCheckpoint_{false};
  std::atomic<uint64_t> markerBuffer_{0}, markerOffset_{0}, markerStage_{0}, checkpoint_{0};
  std::atomic<uint32_t> markerValue_{0};
};

}  // namespace crashtest
