// Helpers of the fault unit tests: planned faults written in a line.
#pragma once

#include <string>

#include "fault/fault_engine.h"

namespace crashtest::test {

inline PlannedFault Fault(std::string id, FaultTriggerKind kind, FaultEffect effect, uint64_t count = 1) {
  PlannedFault f;
  f.id = std::move(id);
  f.when.kind = kind;
  f.when.count = count;
  f.effect = effect;
  return f;
}

}  // namespace crashtest::test
