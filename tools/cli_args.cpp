#include "cli_args.h"

#include <algorithm>
#include <utility>

#include "profile/closest_name.h"

namespace crashtest {

const std::string* ParsedArgs::Value(std::string_view name) const {
  auto it = values.find(name);
  return it == values.end() ? nullptr : &it->second;
}

std::string_view SuggestName(std::string_view name, std::span<const std::string_view> candidates) {
  std::string_view best = ClosestName(name, [&](const std::function<void(std::string_view)>& visit) {
    for (std::string_view c : candidates) visit(c);
  });
  if (best.empty()) return {};
  // Beyond a third of the word the "suggestion" is unrelated and only confuses.
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  return EditDistance(name, best) <= limit ? best : std::string_view{};
}

std::span<const std::string> ParsedArgs::All(std::string_view name) const {
  auto it = all.find(name);
  return it == all.end() ? std::span<const std::string>() : std::span<const std::string>(it->second);
}

namespace {

std::string UnknownOption(std::string_view given, std::string_view name, std::span<const OptionSpec> options) {
  std::vector<std::string_view> names;
  for (const OptionSpec& o : options) names.push_back(o.name);
  names.push_back("help");
  std::string message = "unknown option '" + std::string(given) + "'";
  if (std::string_view close = SuggestName(name, names); !close.empty())
    message += " (did you mean '--" + std::string(close) + "'?)";
  return message;
}

}  // namespace

bool ParseArgs(std::span<const std::string> args, std::span<const OptionSpec> options, ParsedArgs& out,
               std::string& error) {
  out = ParsedArgs{};
  bool optionsEnded = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (optionsEnded || arg.size() < 2 || arg[0] != '-') {
      out.positional.push_back(arg);  // "-" alone is a positional too (conventionally stdin)
      continue;
    }
    if (arg == "--") {
      optionsEnded = true;
      continue;
    }
    if (arg == "-h" || arg == "--help") {
      out.help = true;
      continue;
    }
    if (arg[1] != '-') {
      error = "unknown option '" + arg + "' (options are long: --NAME)";
      return false;
    }
    std::string_view body = std::string_view(arg).substr(2);
    std::string_view name = body;
    const std::size_t equals = body.find('=');
    if (equals != std::string_view::npos) name = body.substr(0, equals);
    auto spec = std::find_if(options.begin(), options.end(), [&](const OptionSpec& o) { return o.name == name; });
    if (spec == options.end()) {
      error = UnknownOption(arg, name, options);
      return false;
    }
    if (out.Has(name) && !spec->repeatable) {
      error = "option '--" + std::string(name) + "' given more than once";
      return false;
    }
    if (spec->valueName.empty()) {
      if (equals != std::string_view::npos) {
        error = "option '--" + std::string(name) + "' takes no value";
        return false;
      }
      out.flags.emplace(name);
    } else {
      std::string value;
      if (equals != std::string_view::npos)
        value = body.substr(equals + 1);
      else if (i + 1 < args.size())
        value = args[++i];
      // An empty value is always a mistake (an unset shell variable, "--config="), never a file or a name.
      if (value.empty()) {
        error = "option '--" + std::string(name) + "' needs a value (" + std::string(spec->valueName) + ")";
        return false;
      }
      out.all[std::string(name)].push_back(value);
      out.values.insert_or_assign(std::string(name), std::move(value));
    }
  }
  return true;
}

}  // namespace crashtest
