#include "common/live_objects.h"

#include "common/result.h"

#include <deque>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace crashtest::live_objects {

namespace {

// Destroyed objects remembered for attribution; older ones are forgotten (then reported as unknown handles).
constexpr size_t kRememberedDestroyed = 4096;

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void*, Entry> live;
  // A destroyed object and the sequence number of its destruction (the same address may be destroyed again).
  std::unordered_map<const void*, std::pair<Entry, uint64_t>> destroyed;
  std::deque<std::pair<const void*, uint64_t>> destroyedOrder;  // oldest first
  uint64_t sequence = 0;
};

Registry& registry() {
  // An object, not a leaked pointer: the loader unloads the driver at vkDestroyInstance, and a heap registry would
  // then be unreachable (a leak to LeakSanitizer and to the host).
  static Registry instance;
  return instance;
}

}  // namespace

void Add(const void* object, const Entry& entry) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.live[object] = entry;
  // The address now belongs to a new object: it is no longer a destroyed one.
  r.destroyed.erase(object);
}

void SetAddress(const void* object, VkDeviceAddress address) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (auto it = r.live.find(object); it != r.live.end()) it->second.address = address;
}

bool Remove(const void* object, VkObjectType type) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.live.find(object);
  if (it == r.live.end() || it->second.type != type) return false;
  const uint64_t sequence = ++r.sequence;
  r.destroyed[object] = {it->second, sequence};
  r.live.erase(it);
  r.destroyedOrder.emplace_back(object, sequence);
  while (r.destroyedOrder.size() > kRememberedDestroyed) {
    const auto [oldest, when] = r.destroyedOrder.front();
    r.destroyedOrder.pop_front();
    // Unless it was destroyed again since (a later entry of the queue then names it).
    if (auto old = r.destroyed.find(oldest); old != r.destroyed.end() && old->second.second == when)
      r.destroyed.erase(old);
  }
  return true;
}

State Find(const void* object, VkObjectType type, Entry* out) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (auto it = r.live.find(object); it != r.live.end() && it->second.type == type) {
    if (out != nullptr) *out = it->second;
    return State::Live;
  }
  if (auto it = r.destroyed.find(object); it != r.destroyed.end() && it->second.first.type == type) {
    if (out != nullptr) *out = it->second.first;
    return State::Destroyed;
  }
  return State::Unknown;
}

bool RequireLive(const void* object, const void* handle, VkObjectType type, const char* command, const char* what,
                 const char* vuid) {
  const State state = Find(object, type);
  if (state == State::Live) [[likely]] return true;
  ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: %p is not a live %s%s (%s)", command, handle, what,
              state == State::Destroyed ? " (destroyed)" : "", vuid);
  return false;
}

}  // namespace crashtest::live_objects
