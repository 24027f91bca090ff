// The bytes vkGetPipelineCacheData returns and vkCreatePipelineCache reads back (format in docs/compiler.md,
// "Pipeline caches"):
//
//   VkPipelineCacheHeaderVersionOne (32 bytes): headerSize 32, headerVersion 1, vendorID, deviceID,
//                                               pipelineCacheUUID of the emulated device
//   payload header (24 bytes): magic "CTPC", format version, compiler version, entry count,
//                              FNV-1a 64 checksum of the entry bytes
//   entries: key (two little-endian u64), SPIR-V word count (u32), reserved (u32, 0), the optimised SPIR-V words
//
// Written in host byte order, like the header ("the first bytes are ... the host's endianness", 1.3 spec,
// vkGetPipelineCacheData); a blob is only ever read back by the same device description on the same host type.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "pipeline/shader_key.h"

namespace crashtest::pipeline {

struct CacheIdentity {
  uint32_t vendorID = 0;
  uint32_t deviceID = 0;
  uint8_t uuid[VK_UUID_SIZE] = {};
};

struct CacheDataEntry {
  ShaderKey key;
  std::shared_ptr<const std::vector<uint32_t>> spirv;  // optimised SPIR-V: lowering is all a hit still runs
};

inline constexpr size_t kCacheHeaderBytes = 32;          // VkPipelineCacheHeaderVersionOne
inline constexpr size_t kCachePayloadHeaderBytes = 24;
inline constexpr size_t kCacheEntryHeaderBytes = 24;
inline constexpr uint32_t kCachePayloadMagic = 0x43505443;  // "CTPC" in a little-endian dump
inline constexpr uint32_t kCachePayloadVersion = 1;

// Bytes the whole cache takes.
size_t CacheDataSize(std::span<const CacheDataEntry> entries);

// Writes the header and then as many whole entries as fit into `capacity` bytes, so that whatever is written is
// itself valid cache data. Returns the bytes written: 0 when not even the header fits.
size_t WriteCacheData(const CacheIdentity& identity, std::span<const CacheDataEntry> entries, void* out,
                      size_t capacity);

// Parses data written by WriteCacheData for `expected`. Returns false with `reason` when the data is not usable
// (another device or driver, a wrong header, a corrupt or truncated payload); `entries` is then empty.
bool ReadCacheData(const void* data, size_t size, const CacheIdentity& expected, std::vector<CacheDataEntry>* entries,
                   std::string* reason);

}  // namespace crashtest::pipeline
