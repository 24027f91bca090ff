// `crashtest stats` at CI scale: the SPIR-V files of a directory, and tolerances per statistic for --compare
// (`--threshold registers=+4,spills=0,estimatedCycles=5%`).
#pragma once

#include <string>
#include <vector>

#include "device/device_description.h"
#include "statistics/statistic_table.h"

namespace crashtest {

// A path on the command line: one .spv file, or a directory whose *.spv files (recursively) are taken in name
// order. `relative` is the name a file is matched by between two directories ("sub/blur.comp.spv"; the file name
// for a single file).
struct StatsInput {
  std::string path;
  std::string relative;
};
bool CollectStatsInputs(const std::string& path, std::vector<StatsInput>& out, std::string& error);
bool IsDirectory(const std::string& path);

// How much worse a gated statistic may get before it counts as a regression.
struct Tolerance {
  const statistics::StatisticDescriptor* statistic = nullptr;
  double amount = 0;     // absolute, or percent of the BEFORE value
  bool percent = false;
};
// "registers=+4,spills=0,estimatedCycles=5%": false with `error` set (naming the item, with a did-you-mean).
// Keys are the dialect's (statistics/statistic_table.h).
bool ParseThresholds(const std::string& list, StatisticDialect dialect, std::vector<Tolerance>& out,
                     std::string& error);

// True when `after` is worse than `before` by more than the tolerance (0 when `tolerance` is null).
bool Regressed(const statistics::StatisticDescriptor& d, double before, double after, const Tolerance* tolerance);

}  // namespace crashtest
