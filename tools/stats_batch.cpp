#include "stats_batch.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <system_error>

#include "cli_args.h"

namespace crashtest {
namespace {

namespace fs = std::filesystem;
using statistics::Better;
using statistics::StatisticDescriptor;

}  // namespace

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

bool CollectStatsInputs(const std::string& path, std::vector<StatsInput>& out, std::string& error) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) {
    out.push_back({path, fs::path(path).filename().string()});
    return true;  // reading it reports a missing or unreadable file
  }
  std::vector<StatsInput> found;
  fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != ".spv") continue;
    found.push_back({it->path().string(), it->path().lexically_relative(path).generic_string()});
  }
  if (ec) {
    error = path + ": cannot read the directory (" + ec.message() + ")";
    return false;
  }
  if (found.empty()) {
    error = path + ": no .spv files in the directory";
    return false;
  }
  std::sort(found.begin(), found.end(), [](const StatsInput& a, const StatsInput& b) { return a.relative < b.relative; });
  out.insert(out.end(), found.begin(), found.end());
  return true;
}

bool ParseThresholds(const std::string& list, StatisticDialect dialect, std::vector<Tolerance>& out,
                     std::string& error) {
  std::stringstream items(list);
  for (std::string item; std::getline(items, item, ',');) {
    const std::size_t equals = item.find('=');
    const std::string key = item.substr(0, equals);
    const StatisticDescriptor* d = statistics::FindStatistic(key, dialect);
    if (d == nullptr || d->better == Better::Neither) {
      std::vector<std::string_view> keys;
      for (const StatisticDescriptor& s : statistics::AllStatistics(dialect))
        if (s.better != Better::Neither) keys.push_back(s.key);
      error = "--threshold: unknown or ungated statistic '" + key + "'";
      if (std::string_view close = SuggestName(key, keys); !close.empty())
        error += " (did you mean '" + std::string(close) + "'?)";
      return false;
    }
    std::string amount = equals == std::string::npos ? std::string() : item.substr(equals + 1);
    Tolerance t;
    t.statistic = d;
    if (!amount.empty() && amount.front() == '+') amount.erase(0, 1);
    if (!amount.empty() && amount.back() == '%') {
      t.percent = true;
      amount.pop_back();
    }
    const char* first = amount.data();
    const char* last = amount.data() + amount.size();
    auto [end, ec] = std::from_chars(first, last, t.amount);
    if (amount.empty() || ec != std::errc() || end != last || t.amount < 0) {
      error = "--threshold: '" + item + "': expected KEY=N, KEY=+N or KEY=N% with N >= 0 (how much worse KEY may get)";
      return false;
    }
    out.erase(std::remove_if(out.begin(), out.end(), [&](const Tolerance& o) { return o.statistic == d; }),
              out.end());
    out.push_back(t);
  }
  return true;
}

bool Regressed(const StatisticDescriptor& d, double before, double after, const Tolerance* tolerance) {
  double worse = 0;
  if (d.better == Better::Lower) worse = after - before;
  else if (d.better == Better::Higher) worse = before - after;
  if (worse <= 0) return false;
  if (tolerance == nullptr) return true;
  if (!tolerance->percent) return worse > tolerance->amount;
  // Relative to BEFORE; from 0 any worsening is infinitely many percent.
  return before == 0 || 100.0 * worse / std::abs(before) > tolerance->amount;
}

}  // namespace crashtest
