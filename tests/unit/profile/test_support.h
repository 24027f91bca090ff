// Helpers shared by the profile loader tests.
#pragma once

#include <cstring>
#include <string>

#include "device/device_description.h"
#include "profile/description_access.h"
#include "profile/diagnostics.h"

namespace crashtest::test {

inline std::string DataPath(const std::string& relative) { return std::string(CRASHTEST_TEST_DATA) + "/" + relative; }

inline std::string AllMessages(const Diagnostics& diagnostics) {
  std::string s;
  for (const Diagnostic& d : diagnostics.Items()) s += d.Format() + "\n";
  return s;
}

// Reads one member of a struct the description holds; fails the test when it is absent.
template <typename T>
T Member(DeviceDescription& d, std::string_view structName, std::string_view member) {
  T value{};
  const std::byte* p = MemberBytes(d, structName, member);
  EXPECT_NE(p, nullptr) << structName << "." << member;
  if (p != nullptr) std::memcpy(&value, p, sizeof(T));
  return value;
}

}  // namespace crashtest::test
