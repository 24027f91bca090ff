// `crashtest run [options] -- COMMAND ARGS...`: runs a command with crashtest as its only Vulkan driver and the
// configuration composed from the options, passes its exit status through and prints one summary line (devices,
// faults fired, dumps written). The one line a CI job needs; docs/ci.md.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "commands.h"
#include "common/run_record.h"
#include "profile/config.h"
#include "run_configuration.h"
#include "run_manifest.h"

namespace crashtest {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// As env(1) and timeout(1): the command's own status, or one of these when it did not run.
constexpr int kExitCannotRun = 125;      // crashtest run itself failed (configuration, manifest, temporary file)
constexpr int kExitNotExecutable = 126;  // COMMAND exists but cannot be executed
constexpr int kExitNotFound = 127;       // COMMAND was not found

constexpr OptionSpec kOptions[] = {
    {"device", "NAME|PROFILE", "a device to emulate: a built-in name (amd-rdna2), builtin:NAME or a profile file; "
                               "repeat for several; replaces the configuration's devices", true},
    {"config", "FILE", "the configuration to start from (default: $CRASHTEST_CONFIG, else builtin:default)"},
    {"fault", "JSON|FILE", "add a fault (or an array of faults) to the plan, as JSON or a file; repeatable", true},
    {"dump-dir", "DIR", "write vendor crash dumps to DIR (created if missing), as CRASHTEST_DUMP_DIR"},
};

// A temporary file that is removed when the run ends, whatever happens.
class TemporaryFile {
 public:
  explicit TemporaryFile(const char* suffix) {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/crashtest-run-XXXXXX" + suffix;
    // Close-on-exec: COMMAND must not inherit the descriptors.
    fd_ = mkostemps(path_.data(), static_cast<int>(std::strlen(suffix)), O_CLOEXEC);
    if (fd_ < 0) path_.clear();
  }
  ~TemporaryFile() {
    if (fd_ >= 0) close(fd_);
    if (!path_.empty()) unlink(path_.c_str());
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  bool ok() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  bool Write(const std::string& text) const {
    return write(fd_, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  }

 private:
  std::string path_;
  int fd_ = -1;
};

std::size_t CountFiles(const std::string& dir) {
  std::error_code ec;
  std::size_t n = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) ++n;
  return n;
}

// Fault ids in the order they first fired, and how many firings in all.
struct FiredFaults {
  std::size_t count = 0;
  std::vector<std::string> ids;
};

FiredFaults ReadRunRecord(const std::string& path) {
  FiredFaults fired;
  std::ifstream in(path);
  std::set<std::string> seen;
  for (std::string line; std::getline(in, line);) {
    constexpr std::string_view kFired = "fault-fired ";
    if (line.rfind(kFired, 0) != 0) continue;
    ++fired.count;
    std::string id = line.substr(kFired.size());
    if (seen.insert(id).second) fired.ids.push_back(std::move(id));
  }
  return fired;
}

std::string DeviceList(const ConfigurationResult& config) {
  std::string list;
  for (const DeviceDescription& d : config.devices) {
    if (!list.empty()) list += ", ";
    list += std::string(d.properties.deviceName);
  }
  return list;
}

// The running COMMAND, for ForwardSignal. pid_t values fit sig_atomic_t (both int on Linux).
volatile sig_atomic_t runningChild = 0;

// A CI system cancelling the job sends SIGTERM (or SIGHUP) to crashtest run: COMMAND gets it too instead of
// being left running, and crashtest run still waits for it and reports.
extern "C" void ForwardSignal(int signal) {
  if (runningChild > 0) kill(static_cast<pid_t>(runningChild), signal);
}

// Runs argv with the environment already set up; the status the shell would report.
int RunChild(const std::vector<std::string>& command) {
  std::vector<char*> argv;
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // Ctrl-C and Ctrl-\ reach the child (same process group); this process only waits for it, as system() does.
  struct sigaction ignore{};
  ignore.sa_handler = SIG_IGN;
  struct sigaction oldInt{};
  struct sigaction oldQuit{};
  sigaction(SIGINT, &ignore, &oldInt);
  sigaction(SIGQUIT, &ignore, &oldQuit);
  struct sigaction forward{};
  forward.sa_handler = &ForwardSignal;
  forward.sa_flags = SA_RESTART;
  struct sigaction oldTerm{};
  struct sigaction oldHup{};
  sigaction(SIGTERM, &forward, &oldTerm);
  sigaction(SIGHUP, &forward, &oldHup);
  const pid_t pid = fork();
  if (pid == 0) {
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGQUIT, &oldQuit, nullptr);
    sigaction(SIGTERM, &oldTerm, nullptr);
    sigaction(SIGHUP, &oldHup, nullptr);
    execvp(argv[0], argv.data());
    const int error = errno;
    std::fprintf(stderr, "crashtest run: %s: %s\n", argv[0], std::strerror(error));
    _exit(error == ENOENT ? kExitNotFound : kExitNotExecutable);
  }
  int status = 0;
  int result = kExitCannotRun;
  if (pid < 0) {
    std::cerr << "crashtest run: cannot start " << command[0] << ": " << std::strerror(errno) << '\n';
  } else {
    runningChild = pid;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    runningChild = 0;
    if (WIFEXITED(status)) result = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) result = 128 + WTERMSIG(status);  // the shell's convention
  }
  sigaction(SIGINT, &oldInt, nullptr);
  sigaction(SIGQUIT, &oldQuit, nullptr);
  sigaction(SIGTERM, &oldTerm, nullptr);
  sigaction(SIGHUP, &oldHup, nullptr);
  return result;
}

int CannotRun(const std::string& message) {
  std::cerr << "crashtest run: " << message << '\n';
  return kExitCannotRun;
}

int Run(const ParsedArgs& args) {
  if (args.positional.empty()) {
    std::cerr << "crashtest run: missing COMMAND (write it after --: crashtest run -- ctest)\n"
                 "Run 'crashtest help run' for usage.\n";
    return kExitUsage;
  }
  RunConfigurationInput input;
  input.configFile = args.Value("config");
  input.devices = args.All("device");
  input.faults = args.All("fault");
  Json composed;
  std::string error;
  if (!ComposeRunConfiguration(input, composed, error)) return CannotRun(error);

  TemporaryFile configFile(".json");
  TemporaryFile record(".record");
  if (!configFile.ok() || !record.ok()) return CannotRun(std::string("cannot create a temporary file: ") + std::strerror(errno));
  if (!configFile.Write(composed.dump(2) + "\n")) return CannotRun("cannot write " + configFile.path());

  // The driver's own loader, so that a bad configuration stops here with its messages instead of failing
  // vkCreateInstance in every process of the command.
  ConfigurationResult config;
  const bool configOk = LoadConfigurationFile(configFile.path(), /*strict=*/false, config);
  for (const Diagnostic& d : config.diagnostics.Items())
    if (d.severity != Severity::Info) std::cerr << d.Format() << '\n';
  if (!configOk) return CannotRun("the composed configuration has errors (above); nothing was run");

  std::vector<std::string> searched;
  const std::string manifest = FindDriverManifest(searched);
  if (manifest.empty()) {
    std::string where;
    for (const std::string& s : searched) where += "\n  " + s;
    return CannotRun("cannot find crashtest's driver manifest; looked at:" + where);
  }

  const std::string* dumpDir = args.Value("dump-dir");
  std::string dumps;
  if (dumpDir != nullptr) {
    std::error_code ec;
    fs::create_directories(*dumpDir, ec);
    if (ec) return CannotRun("--dump-dir " + *dumpDir + ": cannot create (" + ec.message() + ")");
    dumps = fs::absolute(*dumpDir, ec).string();
  } else if (const char* env = std::getenv("CRASHTEST_DUMP_DIR"); env != nullptr && *env != '\0') {
    dumps = env;
  }
  const std::size_t dumpsBefore = dumps.empty() ? 0 : CountFiles(dumps);

  // crashtest as the only driver: VK_DRIVER_FILES (loader 1.3.234+) and VK_ICD_FILENAMES (older loaders) name
  // it, nothing adds others; Mesa's device-select layer, which would re-sort or hide devices, is switched off.
  setenv("VK_DRIVER_FILES", manifest.c_str(), 1);
  setenv("VK_ICD_FILENAMES", manifest.c_str(), 1);
  unsetenv("VK_ADD_DRIVER_FILES");
  setenv("NODEVICE_SELECT", "1", 1);
  setenv(kConfigEnvironmentVariable, configFile.path().c_str(), 1);
  setenv(kRunRecordEnvironmentVariable, record.path().c_str(), 1);
  if (!dumps.empty()) setenv("CRASHTEST_DUMP_DIR", dumps.c_str(), 1);

  const int status = RunChild(args.positional);

  const FiredFaults fired = ReadRunRecord(record.path());
  std::string summary = "crashtest run: exit status " + std::to_string(status) + "; devices: " + DeviceList(config) +
                        "; faults fired: " + std::to_string(fired.count);
  if (!fired.ids.empty()) {
    summary += " (";
    for (std::size_t i = 0; i < fired.ids.size(); ++i) summary += (i ? ", " : "") + fired.ids[i];
    summary += ")";
  }
  if (dumps.empty()) {
    summary += "; dumps written: none (no --dump-dir)";
  } else {
    const std::size_t after = CountFiles(dumps);
    summary += "; dumps written: " + std::to_string(after > dumpsBefore ? after - dumpsBefore : 0) + " in " + dumps;
  }
  std::cerr << summary << '\n';
  return status;
}

}  // namespace

const Command& RunCommand() {
  static const Command command{
      .name = "run",
      .summary = "Run a command with crashtest as its only Vulkan driver",
      .arguments = "-- COMMAND [ARGS...]",
      .description =
          "Runs COMMAND with crashtest as the only Vulkan driver the loader sees: the driver manifest of this\n"
          "build tree or installation in VK_DRIVER_FILES and VK_ICD_FILENAMES, Mesa's device-select layer off\n"
          "(NODEVICE_SELECT=1), and CRASHTEST_CONFIG naming a configuration composed from the options: --config\n"
          "(or the inherited $CRASHTEST_CONFIG), its devices replaced by the --device options, its\n"
          "faults extended by the --fault options. The composed configuration is checked first; with errors,\n"
          "nothing runs. Every process COMMAND starts (ctest runs many) counts towards the summary.",
      .options = kOptions,
      .details =
          "Output: COMMAND's own output, then one line on stderr, e.g.\n"
          "  crashtest run: exit status 1; devices: crashtest default GPU; faults fired: 1 (gpu-hang); dumps\n"
          "  written: 1 in /ci/dumps\n"
          "\n"
          "Exit codes: COMMAND's exit status (128+N when signal N ended it); 125 crashtest run could not run it\n"
          "(configuration errors, no driver manifest); 126 COMMAND cannot be executed; 127 COMMAND not found;\n"
          "2 usage error.",
      .run = &Run,
  };
  return command;
}

}  // namespace crashtest
