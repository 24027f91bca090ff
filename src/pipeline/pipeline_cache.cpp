#include "pipeline/pipeline_cache.h"

#include <cstring>
#include <string>

#include "common/allocation.h"
#include "common/log.h"
#include "common/result.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "pipeline/frontend/spirv_validator.h"
#include "pipeline/frontend/target_environment.h"

namespace crashtest {

namespace {

pipeline::CacheIdentity IdentityOf(const Device& device) {
  const VkPhysicalDeviceProperties& properties = device.physicalDevice().description().properties;
  pipeline::CacheIdentity identity;
  identity.vendorID = properties.vendorID;
  identity.deviceID = properties.deviceID;
  std::memcpy(identity.uuid, properties.pipelineCacheUUID, VK_UUID_SIZE);
  return identity;
}

}  // namespace

PipelineCache::PipelineCache(const pipeline::CacheIdentity& identity, VkPipelineCacheCreateFlags flags)
    : Object(VK_OBJECT_TYPE_PIPELINE_CACHE),
      identity_(identity),
      externallySynchronized_((flags & VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT) != 0) {}

VkResult PipelineCache::Create(Device& device, const VkPipelineCacheCreateInfo& info,
                               const VkAllocationCallbacks* allocator, VkPipelineCache* out) {
  const VkAllocationCallbacks* chosen = ChooseAllocator(allocator, device.allocator());
  auto* cache = NewObject<PipelineCache>(chosen, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, IdentityOf(device), info.flags);
  if (cache == nullptr)
    return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreatePipelineCache: out of host memory for the cache");
  if (info.initialDataSize != 0 && info.pInitialData != nullptr) {
    std::vector<pipeline::CacheDataEntry> entries;
    std::string reason;
    try {
      if (pipeline::ReadCacheData(info.pInitialData, info.initialDataSize, cache->identity_, &entries, &reason)) {
        // The checksum catches accidental damage; validating each entry once here (not at every hit) keeps a
        // crafted blob from reaching the lowering, which trusts valid SPIR-V.
        spv_target_env env =
            pipeline::TargetEnvironmentFor(device.apiVersion(), device.IsExtensionEnabled("VK_KHR_spirv_1_4"));
        std::vector<pipeline::CacheDataEntry> valid;
        for (pipeline::CacheDataEntry& entry : entries) {
          std::string message;
          if (pipeline::ValidateSpirv(*entry.spirv, env, &message))
            valid.push_back(std::move(entry));
          else
            CT_WARN("vkCreatePipelineCache: pipeline cache %llu: dropping an entry of pInitialData: %s",
                    static_cast<unsigned long long>(cache->header.id), message.c_str());
        }
        cache->AddEntries(valid);
        CT_DEBUG("vkCreatePipelineCache: pipeline cache %llu: %zu entries from %zu bytes of pInitialData",
                 static_cast<unsigned long long>(cache->header.id), valid.size(), info.initialDataSize);
      } else {
        CT_WARN("vkCreatePipelineCache: pipeline cache %llu: ignoring pInitialData (%zu bytes), the cache starts "
                "empty: %s",
                static_cast<unsigned long long>(cache->header.id), info.initialDataSize, reason.c_str());
      }
    } catch (...) {
      DeleteObject(chosen, cache);
      throw;
    }
  }
  *out = ToHandle(cache);
  return VK_SUCCESS;
}

void PipelineCache::AddEntries(const std::vector<pipeline::CacheDataEntry>& entries) {
  auto lock = Lock();
  for (const pipeline::CacheDataEntry& entry : entries) entries_.try_emplace(entry.key, Entry{entry.spirv, nullptr});
}

bool PipelineCache::Find(const pipeline::ShaderKey& key, Entry* entry) const {
  auto lock = Lock();
  auto it = entries_.find(key);
  if (it == entries_.end()) return false;
  *entry = it->second;
  return true;
}

void PipelineCache::Insert(const pipeline::ShaderKey& key, Entry entry) {
  auto lock = Lock();
  auto [it, inserted] = entries_.try_emplace(key, entry);
  if (!inserted && it->second.compiled == nullptr) it->second.compiled = std::move(entry.compiled);
}

size_t PipelineCache::EntryCount() const {
  auto lock = Lock();
  return entries_.size();
}

VkResult PipelineCache::GetData(size_t* dataSize, void* data) const {
  std::vector<pipeline::CacheDataEntry> entries;
  {
    auto lock = Lock();
    entries.reserve(entries_.size());
    for (const auto& [key, entry] : entries_) entries.push_back({key, entry.spirv});
  }
  size_t total = pipeline::CacheDataSize(entries);
  if (data == nullptr) {
    // "If pData is NULL, then the maximum size of the data that can be retrieved from the pipeline cache, in
    // bytes, is returned in pDataSize."
    *dataSize = total;
    return VK_SUCCESS;
  }
  // "If pDataSize is less than the maximum size that can be retrieved by the pipeline cache, at most pDataSize
  // bytes will be written to pData, and VK_INCOMPLETE will be returned ... Any data written to pData is valid and
  // can be provided as the pInitialData" — so only whole entries are written; and "If pDataSize is less than what
  // is necessary to store this header, nothing will be written to pData and zero will be written to pDataSize."
  size_t written = pipeline::WriteCacheData(identity_, entries, data, *dataSize);
  *dataSize = written;
  return written < total ? VK_INCOMPLETE : VK_SUCCESS;
}

void PipelineCache::MergeFrom(const PipelineCache& source) {
  // Copy under the source's lock, insert under ours: never both locks at once, so concurrent merges in opposite
  // directions cannot deadlock.
  std::vector<std::pair<pipeline::ShaderKey, Entry>> copied;
  {
    auto lock = source.Lock();
    copied.assign(source.entries_.begin(), source.entries_.end());
  }
  auto lock = Lock();
  for (auto& [key, entry] : copied) {
    auto [it, inserted] = entries_.try_emplace(key, entry);
    if (!inserted && it->second.compiled == nullptr) it->second.compiled = entry.compiled;
  }
}

}  // namespace crashtest
