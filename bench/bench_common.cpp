#include "bench_common.h"

#include <mutex>
#include <set>

namespace crashtest::bench {

const char* intern(const std::string& message) {
  static std::mutex mutex;
  static std::set<std::string> messages;
  const std::lock_guard<std::mutex> lock(mutex);
  return messages.insert(message).first->c_str();
}

}  // namespace crashtest::bench
