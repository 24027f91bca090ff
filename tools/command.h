// A subcommand of the `crashtest` tool: its help text, its options and the function that runs it. main.cpp
// owns the list (commands.h) and does the dispatch, argument parsing and help, so each subcommand file only
// describes itself and does its work.
#pragma once

#include <span>
#include <string_view>

#include "cli_args.h"

namespace crashtest {

// Exit codes, shared by every subcommand and documented in `crashtest --help` and docs/cli.md.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the command ran and found a problem (bad configuration, failed check)
inline constexpr int kExitUsage = 2;    // the command line itself is wrong

struct Command {
  std::string_view name;
  std::string_view summary;      // one line for the overview in `crashtest --help`
  std::string_view arguments;    // after the options in the usage line, e.g. "FILE..."; "" when none
  std::string_view description;  // paragraphs for `crashtest help NAME`, after the usage line
  std::span<const OptionSpec> options;
  std::string_view details;      // output, exit codes: after the options in `crashtest help NAME`
  int (*run)(const ParsedArgs& args);
};

}  // namespace crashtest
