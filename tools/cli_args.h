// Option parsing shared by the subcommands: long options only ("--name", "--name VALUE", "--name=VALUE"),
// "--" ends the options, "-h"/"--help" is accepted everywhere. Errors are returned as text rather than printed,
// so main.cpp reports every usage error the same way (exit code 2 with a hint).
#pragma once

#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace crashtest {

struct OptionSpec {
  std::string_view name;       // without the dashes, e.g. "config"
  std::string_view valueName;  // e.g. "FILE"; "" for a flag
  std::string_view help;       // one line for `crashtest help COMMAND`
  bool repeatable = false;     // may be given several times (values in ParsedArgs::All, in order)
};

struct ParsedArgs {
  std::vector<std::string> positional;
  std::set<std::string, std::less<>> flags;
  std::map<std::string, std::string, std::less<>> values;  // the last value of each option
  std::map<std::string, std::vector<std::string>, std::less<>> all;  // every value, in command-line order
  bool help = false;

  bool Has(std::string_view name) const { return flags.contains(name) || values.contains(name); }
  // nullptr when the option was not given.
  const std::string* Value(std::string_view name) const;
  // Every value of a repeatable option (empty when not given).
  std::span<const std::string> All(std::string_view name) const;
};

// False with `error` set ("unknown option '--verbos' (did you mean '--verbose'?)") when the arguments do not fit
// `options`.
bool ParseArgs(std::span<const std::string> args, std::span<const OptionSpec> options, ParsedArgs& out,
               std::string& error);

// The candidate closest to `name` when it is close enough to be a plausible typo, "" otherwise.
std::string_view SuggestName(std::string_view name, std::span<const std::string_view> candidates);

}  // namespace crashtest
