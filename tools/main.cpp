// `crashtest`: the command-line companion of the driver. This file finds the subcommand, parses its options and
// prints help; the subcommands live in cmd_*.cpp. See docs/cli.md.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <exception>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include "commands.h"

namespace crashtest {
namespace {

using CommandGetter = const Command& (*)();
// The order of `crashtest --help`.
constexpr std::array<CommandGetter, 5> kCommands = {&RunCommand, &DevicesCommand, &CheckCommand, &StatsCommand,
                                                        &DecodeCommand};

const Command* FindCommand(std::string_view name) {
  for (CommandGetter get : kCommands)
    if (get().name == name) return &get();
  return nullptr;
}

void PrintVersion(std::ostream& out) {
  out << "crashtest " << CRASHTEST_VERSION << " (Vulkan headers " << VK_API_VERSION_MAJOR(VK_HEADER_VERSION_COMPLETE)
      << '.' << VK_API_VERSION_MINOR(VK_HEADER_VERSION_COMPLETE) << '.' << VK_HEADER_VERSION << ")\n";
}

void PrintOverview(std::ostream& out) {
  out << "crashtest " << CRASHTEST_VERSION
      << ": a CPU-backed Vulkan driver that stands in for a GPU and crashes when a test asks it to.\n"
         "\n"
         "Usage: crashtest SUBCOMMAND [OPTIONS] [ARGUMENTS]\n"
         "       crashtest help [SUBCOMMAND]\n"
         "       crashtest --help | --version\n"
         "\n"
         "Subcommands:\n";
  for (CommandGetter get : kCommands) {
    const Command& c = get();
    std::string name(c.name);
    name.resize(std::max<std::size_t>(name.size() + 2, 10), ' ');
    out << "  " << name << c.summary << '\n';
  }
  out << "\n"
         "Environment:\n"
         "  CRASHTEST_CONFIG    configuration file (devices, fault plan, options) the driver reads at\n"
         "                      vkCreateInstance; unset or empty: one built-in default device\n"
         "  CRASHTEST_LOG       driver log level: error, warn (default), info or debug, in any case\n"
         "  CRASHTEST_LOG_FILE  append the driver's log lines to this file instead of stderr\n"
         "  CRASHTEST_DUMP_DIR  folder where the driver also writes each device loss's vendor crash dump as a\n"
         "                      file (created if missing; overrides options.dumpDirectory); read it with\n"
         "                      'crashtest decode FILE'\n"
         "\n"
         "Exit codes:\n"
         "  0  success\n"
         "  1  the subcommand ran and found a problem (configuration errors, a failed check, a bad dump)\n"
         "  2  usage error: unknown subcommand or option, missing or extra argument\n"
         "  3  stats could not run (a shader could not be read or compiled, the device could not be loaded)\n"
         "  run passes the command's exit status through (125-127: the command could not be run)\n"
         "\n"
         "Run 'crashtest help SUBCOMMAND' for a subcommand's options and output.\n";
}

void PrintCommandHelp(const Command& c, std::ostream& out) {
  out << "Usage: crashtest " << c.name;
  for (const OptionSpec& o : c.options) {
    out << " [--" << o.name;
    if (!o.valueName.empty()) out << ' ' << o.valueName;
    out << (o.repeatable ? "]..." : "]");
  }
  if (!c.arguments.empty()) out << ' ' << c.arguments;
  out << "\n\n" << c.description << '\n';
  if (!c.options.empty()) {
    out << "\nOptions:\n";
    for (const OptionSpec& o : c.options) {
      std::string left = "--" + std::string(o.name);
      if (!o.valueName.empty()) left += ' ' + std::string(o.valueName);
      left.resize(std::max<std::size_t>(left.size() + 2, 18), ' ');
      out << "  " << left << o.help << '\n';
    }
  }
  if (!c.details.empty()) out << '\n' << c.details << '\n';
}

std::vector<std::string_view> CommandNames() {
  std::vector<std::string_view> names;
  for (CommandGetter get : kCommands) names.push_back(get().name);
  return names;
}

int UsageError(const std::string& message, std::string_view helpFor = {}) {
  std::cerr << "crashtest: " << message << '\n'
            << "Run 'crashtest " << (helpFor.empty() ? std::string("--help") : "help " + std::string(helpFor))
            << "' for usage.\n";
  return kExitUsage;
}

int UnknownCommand(std::string_view name) {
  std::string message = "unknown subcommand '" + std::string(name) + "'";
  const std::vector<std::string_view> names = CommandNames();
  if (std::string_view close = SuggestName(name, names); !close.empty())
    message += " (did you mean '" + std::string(close) + "'?)";
  return UsageError(message);
}

int Help(std::span<const std::string> args) {
  if (args.empty()) {
    PrintOverview(std::cout);
    return kExitOk;
  }
  if (args.size() > 1) return UsageError("'help' takes at most one subcommand name");
  const Command* c = FindCommand(args[0]);
  if (c == nullptr) return UnknownCommand(args[0]);
  PrintCommandHelp(*c, std::cout);
  return kExitOk;
}

int Main(std::span<const std::string> args) {
  if (args.empty()) {
    PrintOverview(std::cerr);
    return kExitUsage;
  }
  const std::string& first = args[0];
  if (first == "--help" || first == "-h") return Help({});
  if (first == "--version") {
    PrintVersion(std::cout);
    return kExitOk;
  }
  if (first == "help") return Help(args.subspan(1));
  if (!first.empty() && first[0] == '-')
    return UsageError("unknown option '" + first + "' (options go after the subcommand)");
  const Command* command = FindCommand(first);
  if (command == nullptr) return UnknownCommand(first);

  ParsedArgs parsed;
  std::string error;
  if (!ParseArgs(args.subspan(1), command->options, parsed, error))
    return UsageError(std::string(command->name) + ": " + error, command->name);
  if (parsed.help) {
    PrintCommandHelp(*command, std::cout);
    return kExitOk;
  }
  return command->run(parsed);
}

}  // namespace
}  // namespace crashtest

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    return crashtest::Main(args);
  } catch (const std::exception& e) {
    // Nothing should throw this far; if something does, say what instead of aborting with a core dump.
    std::cerr << "crashtest: internal error: " << e.what() << '\n';
    return crashtest::kExitFailure;
  }
}
