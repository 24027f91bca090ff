// VkPipelineCache: compiled pipeline stages keyed by ShaderKey. Each entry holds the optimised SPIR-V (what
// vkGetPipelineCacheData writes, so a cache reloaded in another process skips validation and optimisation and only
// lowers) and, once some pipeline of this process compiled or lowered it, the CompiledShader itself (shared, so a
// second pipeline from the same cache compiles nothing at all).
#pragma once

#include <vulkan/vulkan.h>

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "common/handle.h"
#include "common/object.h"
#include "pipeline/compiler.h"
#include "pipeline/pipeline_cache_data.h"
#include "pipeline/shader_key.h"

namespace crashtest {

class Device;
CT_DEFINE_HANDLE(PipelineCache, VkPipelineCache, VK_OBJECT_TYPE_PIPELINE_CACHE);

class PipelineCache : public Object {
 public:
  struct Entry {
    std::shared_ptr<const std::vector<uint32_t>> spirv;
    std::shared_ptr<const pipeline::CompiledShader> compiled;  // nullptr until lowered in this process
  };

  // Initial data from another device, with a wrong header or a corrupt payload is ignored (logged at warn level)
  // and the cache starts empty: the spec has vkCreatePipelineCache leave the cache initially empty when
  // pInitialData is incompatible with the device, rather than fail.
  static VkResult Create(Device& device, const VkPipelineCacheCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkPipelineCache* out);

  PipelineCache(const pipeline::CacheIdentity& identity, VkPipelineCacheCreateFlags flags);

  bool Find(const pipeline::ShaderKey& key, Entry* entry) const;
  // Adds the entry, or completes an existing one with `entry.compiled` when it has none yet.
  void Insert(const pipeline::ShaderKey& key, Entry entry);
  // vkGetPipelineCacheData.
  VkResult GetData(size_t* dataSize, void* data) const;
  // vkMergePipelineCaches: entries of the sources that this cache lacks are added.
  void MergeFrom(const PipelineCache& source);
  size_t EntryCount() const;

 private:
  // "VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT specifies that all commands that modify the created
  // VkPipelineCache will be externally synchronized": then no lock is taken.
  std::unique_lock<std::mutex> Lock() const {
    return externallySynchronized_ ? std::unique_lock<std::mutex>() : std::unique_lock<std::mutex>(mutex_);
  }
  void AddEntries(const std::vector<pipeline::CacheDataEntry>& entries);

  pipeline::CacheIdentity identity_;
  bool externallySynchronized_;
  mutable std::mutex mutex_;
  std::map<pipeline::ShaderKey, Entry> entries_;  // ordered, so two vkGetPipelineCacheData calls write the same
};

}  // namespace crashtest
