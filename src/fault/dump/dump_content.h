// What a vendor binary says beyond the fault reports: the device, the failing submission, the submissions queued
// behind it, the bound pipelines, the resources that own (or owned) device addresses, the object names and the
// breadcrumbs. Filled at the loss by the device (queue/loss_description.h), written by the section writers
// (dump/*_section.cpp) and read back by the decoder (dump/dump_reader.h), so writer and reader share one picture of
// the data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace crashtest::dump {

struct DeviceIdentity {
  std::string deviceName;
  std::string driverName;
  std::string driverInfo;
  std::string profile;        // the profile's source ("builtin:NAME" or its path) and entry
  std::string driverBuild;    // crashtest's own version
  uint32_t vendorID = 0, deviceID = 0, driverVersion = 0, apiVersion = 0, driverID = 0, deviceType = 0;
};

enum class CommandState : uint8_t { Completed = 0, Executing = 1, NotRun = 2 };

struct Command {
  uint32_t index = 0;          // the submission's command number (as fault reports count them)
  std::string name;            // "vkCmdDispatch"
  std::string detail;          // "4 x 1 x 1 workgroups", "pipeline 12 \"Blur\"", a label's name
  CommandState state = CommandState::Completed;
};

struct CommandBufferRecord {
  uint64_t id = 0;
  std::string name;
  bool secondary = false;
  std::vector<Command> commands;
};

inline constexpr uint32_t kNoCommand = UINT32_MAX;

struct Submission {
  uint32_t family = 0, queue = 0;
  uint64_t serial = 0;
  uint32_t executing = kNoCommand;  // the command that was executing, or kNoCommand (between commands)
  std::string executingName;
  std::string executingDetail;
  uint64_t executingCommandBuffer = 0;  // its id
  std::vector<std::string> labels;      // the debug-utils label stack open at that command, outermost first
  std::vector<CommandBufferRecord> commandBuffers;
};

// A submission queued behind the one a queue was running when the device was lost: it had not started (every
// command "not run"; the work is abandoned with the loss).
struct QueuedSubmission {
  uint32_t family = 0, queue = 0;
  uint64_t serial = 0;
  std::vector<CommandBufferRecord> commandBuffers;
};

struct Statistic {
  std::string name;
  std::string value;
};

struct ShaderFaultSite {
  uint32_t stage = 0;        // VkShaderStageFlagBits of the faulting stage
  uint32_t instruction = 0;  // operation index (the reported instruction address)
  uint32_t spirvId = 0;
  uint32_t spirvOpcode = 0;
  std::string spirvOpName;
  uint32_t line = 0, column = 0;
  std::string file;
  std::string irText;
};

struct PipelineStageRecord {
  uint32_t stage = 0;  // VkShaderStageFlagBits
  std::string entryPoint;
  uint64_t hash = 0;
  std::vector<Statistic> statistics;
};

struct Pipeline {
  uint64_t id = 0;
  std::string name;
  uint32_t bindPoint = 0;  // VkPipelineBindPoint
  std::vector<PipelineStageRecord> stages;
  bool hasFault = false;
  ShaderFaultSite fault;
};

enum class ResourceKind : uint8_t { Memory = 0, Buffer = 1, Image = 2 };

struct Resource {
  ResourceKind kind = ResourceKind::Memory;
  bool freed = false;       // freed or destroyed before the loss (the most recent ones are kept)
  uint64_t id = 0;
  std::string name;
  uint64_t address = 0;     // device address of the first byte (memory, buffer) or of the image's binding
  uint64_t size = 0;
  uint64_t memoryId = 0;    // buffers and images: the memory they are bound to
  uint32_t heap = 0;        // memory: heap index
};

struct ObjectName {
  uint32_t type = 0;  // VkObjectType
  uint64_t handle = 0;
  std::string name;
};

struct BufferMarker {
  uint32_t family = 0, queue = 0;
  uint64_t buffer = 0;     // buffer id
  uint64_t offset = 0;
  uint32_t value = 0;
  uint64_t stage = 0;      // VkPipelineStageFlags2
};

struct Checkpoint {
  uint32_t family = 0, queue = 0;
  uint64_t stage = 0;      // VkPipelineStageFlags2: top or bottom of pipe
  uint64_t marker = 0;     // pCheckpointMarker as the application gave it
};

// A presented frame kept for a loss (options.captureLast, docs/wsi.md) and written as a PNG file when the device was
// lost.
struct CapturedFrame {
  uint64_t swapchain = 0;  // the swapchain's id
  uint64_t frame = 0;      // its present count, from 1
  std::string path;
};

struct Content {
  bool hasDevice = false;
  DeviceIdentity device;
  std::vector<Submission> submissions;
  std::vector<QueuedSubmission> queued;  // per queue in the order of `submissions`, then submission order
  std::vector<Pipeline> pipelines;
  std::vector<Resource> resources;  // those containing a reported address first
  std::vector<ObjectName> names;
  std::vector<BufferMarker> markers;
  std::vector<Checkpoint> checkpoints;
  std::vector<CapturedFrame> capturedFrames;
};

}  // namespace crashtest::dump
