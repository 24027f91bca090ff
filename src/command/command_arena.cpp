#include "command/command_arena.h"

#include <algorithm>
#include <new>

#include "common/allocation.h"

namespace crashtest {

CommandChunk* ChunkCache::Take(size_t capacity) {
  if (capacity <= kStandardCapacity && free_ != nullptr) {
    CommandChunk* chunk = free_;
    free_ = chunk->next;
    chunk->next = nullptr;
    chunk->retiredNext = nullptr;
    chunk->used = 0;
    return chunk;
  }
  size_t bytes = std::max<size_t>(capacity, kStandardCapacity);
  void* memory = AllocateHostMemory(allocator_, sizeof(CommandChunk) + bytes, alignof(std::max_align_t),
                                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (memory == nullptr) return nullptr;
  return new (memory) CommandChunk{nullptr, nullptr, static_cast<uint32_t>(bytes), 0};
}

void ChunkCache::Give(CommandChunk* chunk) {
  if (chunk->capacity != kStandardCapacity) {
    Release(chunk);
    return;
  }
  chunk->next = free_;
  free_ = chunk;
}

void ChunkCache::Release(CommandChunk* chunk) { FreeHostMemory(allocator_, chunk); }

void ChunkCache::Trim() {
  while (free_ != nullptr) {
    CommandChunk* next = free_->next;
    Release(free_);
    free_ = next;
  }
}

bool CommandArena::Grow(size_t size) {
  CommandChunk* chunk = cache_.Take(size);
  if (chunk == nullptr) return false;
  if (current_ != nullptr)
    current_->next = chunk;
  else
    first_ = chunk;
  current_ = chunk;
  return true;
}

void CommandArena::Clear(bool release) {
  while (first_ != nullptr) {
    CommandChunk* next = first_->next;
    if (release)
      cache_.Release(first_);
    else
      cache_.Give(first_);
    first_ = next;
  }
  current_ = nullptr;
  count_ = 0;
}

CommandChunk* CommandArena::Detach() {
  CommandChunk* first = first_;
  first_ = current_ = nullptr;
  count_ = 0;
  return first;
}

void FreeChunks(CommandChunk* first, const VkAllocationCallbacks* allocator) {
  while (first != nullptr) {
    CommandChunk* next = first->next;
    FreeHostMemory(allocator, first);
    first = next;
  }
}

}  // namespace crashtest
