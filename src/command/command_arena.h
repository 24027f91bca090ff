// The recorded command stream: a chunked arena of fixed-layout records. Each record is a CommandHeader followed
// by its record struct and any variable-size payload (regions, update data, labels), all in the same chunk, so
// recording a command is a bump of a pointer: no lock (command buffers are externally synchronised) and no heap
// allocation except when a chunk fills. Chunks come from the command pool's ChunkCache, which reuses them across
// resets and allocates through the pool's VkAllocationCallbacks.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "command/command_ops.h"

namespace crashtest {

struct CommandHeader {
  CommandOp op;
  uint16_t reserved;
  uint32_t size;  // bytes from this header to the next record of the chunk (header, record and payload)
};
static_assert(sizeof(CommandHeader) == 8);

inline constexpr size_t kRecordAlignment = 8;
inline constexpr size_t AlignRecord(size_t bytes) { return (bytes + kRecordAlignment - 1) & ~(kRecordAlignment - 1); }

struct CommandChunk {
  CommandChunk* next;
  // First chunk of a stream that a command buffer retired while a queue still reads it: the next retired stream
  // (CommandBuffer, "Queue holds"). The stream's own links (next) stay untouched, since the queue walks them.
  CommandChunk* retiredNext;
  uint32_t capacity;  // bytes of records the chunk holds after this header
  uint32_t used;
  std::byte* begin() { return reinterpret_cast<std::byte*>(this + 1); }
  const std::byte* begin() const { return reinterpret_cast<const std::byte*>(this + 1); }
};
static_assert(sizeof(CommandChunk) % kRecordAlignment == 0);

// Free chunks of one command pool. Not thread-safe: "the command pool ... must be externally synchronized"
// together with the command buffers allocated from it (Vulkan 1.3, 6.2 "Command Pools", Host Synchronization).
class ChunkCache {
 public:
  static constexpr uint32_t kStandardCapacity = 16 * 1024 - sizeof(CommandChunk);

  explicit ChunkCache(const VkAllocationCallbacks* allocator) : allocator_(allocator) {}
  ~ChunkCache() { Trim(); }
  ChunkCache(const ChunkCache&) = delete;
  ChunkCache& operator=(const ChunkCache&) = delete;

  // A chunk with at least `capacity` bytes, or nullptr when the allocation callbacks fail.
  CommandChunk* Take(size_t capacity);
  // Standard chunks are kept for reuse; oversized ones go back to the allocator.
  void Give(CommandChunk* chunk);
  void Release(CommandChunk* chunk);
  // Returns every cached chunk to the allocator (vkTrimCommandPool, RELEASE_RESOURCES resets).
  void Trim();
  const VkAllocationCallbacks* allocator() const { return allocator_; }

 private:
  const VkAllocationCallbacks* allocator_;
  CommandChunk* free_ = nullptr;
};

// One command buffer's stream.
class CommandArena {
 public:
  explicit CommandArena(ChunkCache& cache) : cache_(cache) {}
  ~CommandArena() { Clear(false); }
  CommandArena(const CommandArena&) = delete;
  CommandArena& operator=(const CommandArena&) = delete;

  // Space for a header, a T and `payload` more bytes (8-aligned, directly after the T); nullptr when out of
  // memory. The T is value-initialised by the caller.
  template <typename T>
  T* Append(CommandOp op, size_t payload = 0) {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= kRecordAlignment);
    size_t size = sizeof(CommandHeader) + AlignRecord(sizeof(T)) + AlignRecord(payload);
    if (current_ == nullptr || current_->capacity - current_->used < size) [[unlikely]] {
      if (!Grow(size)) return nullptr;
    }
    auto* header = reinterpret_cast<CommandHeader*>(current_->begin() + current_->used);
    header->op = op;
    header->reserved = 0;
    header->size = static_cast<uint32_t>(size);
    current_->used += static_cast<uint32_t>(size);
    ++count_;
    return reinterpret_cast<T*>(header + 1);
  }

  // Returns the chunks to the cache (or, with `release`, to the allocator).
  void Clear(bool release);
  // Hands the chunks over to the caller (who frees them with FreeChunks) and starts an empty stream.
  CommandChunk* Detach();
  uint32_t commandCount() const { return count_; }
  const CommandChunk* firstChunk() const { return first_; }

 private:
  bool Grow(size_t size);

  ChunkCache& cache_;
  CommandChunk* first_ = nullptr;
  CommandChunk* current_ = nullptr;
  uint32_t count_ = 0;
};

// Returns a detached stream (CommandArena::Detach) to the allocator, chunk by chunk.
void FreeChunks(CommandChunk* first, const VkAllocationCallbacks* allocator);

// The payload that follows a record T.
template <typename P, typename T>
P* PayloadOf(T* record) {
  return reinterpret_cast<P*>(reinterpret_cast<std::byte*>(record) + AlignRecord(sizeof(T)));
}
template <typename P, typename T>
const P* PayloadOf(const T* record) {
  return reinterpret_cast<const P*>(reinterpret_cast<const std::byte*>(record) + AlignRecord(sizeof(T)));
}

// Visits every record of a stream (given by its first chunk) in recording order: visit(const CommandHeader&,
// const void* record). A visitor returning bool stops the walk by returning false, and then nothing of the stream
// is read again.
template <typename Visit>
void ForEachRecord(const CommandChunk* first, Visit&& visit) {
  for (const CommandChunk* chunk = first; chunk != nullptr; chunk = chunk->next) {
    const std::byte* p = chunk->begin();
    const std::byte* end = p + chunk->used;
    while (p < end) {
      const auto* header = reinterpret_cast<const CommandHeader*>(p);
      const uint32_t size = header->size;
      if constexpr (std::is_same_v<decltype(visit(*header, static_cast<const void*>(header + 1))), bool>) {
        if (!visit(*header, static_cast<const void*>(header + 1))) return;
      } else {
        visit(*header, static_cast<const void*>(header + 1));
      }
      p += size;
    }
  }
}
template <typename Visit>
void ForEachRecord(const CommandArena& arena, Visit&& visit) {
  ForEachRecord(arena.firstChunk(), std::forward<Visit>(visit));
}

}  // namespace crashtest
