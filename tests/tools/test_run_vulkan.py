#!/usr/bin/env python3
"""`crashtest run` with real Vulkan programs through the real loader: the crash handler example with a fault from
the command line (the summary counts it), vulkaninfo seeing crashtest as its only driver, the driver's log level in
any case and its log file.

Usage: test_run_vulkan.py CRASHTEST_EXE CRASH_HANDLER_EXE PROFILES_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

EXE = CRASH_HANDLER = PROFILES = ""
DRIVER_VARIABLES = ("CRASHTEST_CONFIG", "CRASHTEST_DUMP_DIR", "CRASHTEST_LOG", "CRASHTEST_LOG_FILE",
                    "VK_ICD_FILENAMES", "VK_DRIVER_FILES", "NODEVICE_SELECT")


def run(*args, extra_env=None, cwd=None):
    # Nothing of the test environment's driver set-up may leak in: `crashtest run` must do it all itself.
    env = {k: v for k, v in os.environ.items() if k not in DRIVER_VARIABLES}
    env.update(extra_env or {})
    return subprocess.run([EXE, "run", *args], capture_output=True, text=True, env=env, timeout=120, cwd=cwd)


def summary(result):
    return result.stderr.splitlines()[-1]


class CrashHandler(unittest.TestCase):
    def test_fault_from_the_command_line_fires_and_is_counted(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = run("--fault", '{"id": "lose-at-2", "when": {"submit": 2}, "effect": "device-lost"}',
                    "--", CRASH_HANDLER, "--dump-dir", os.path.join(tmp, "handler"), "--frames", "4")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)  # the handler handled the crash
            self.assertIn("VK_ERROR_DEVICE_LOST at frame 2", r.stdout)
            self.assertIn("; faults fired: 1 (lose-at-2);", summary(r))
            self.assertTrue(summary(r).startswith("crashtest run: exit status 0; devices: crashtest default GPU;"))

    def test_without_faults_the_programs_status_passes_through(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = run("--device", "intel-xe-igpu", "--", CRASH_HANDLER, "--dump-dir", os.path.join(tmp, "d"),
                    "--frames", "2")
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)  # "no crash" is this program's failure
            self.assertIn("2 frames, no crash", r.stdout)
            self.assertIn("; faults fired: 0;", summary(r))
            self.assertIn("devices: Intel(R) Xe Graphics (TGL GT2) (crashtest emulation)", summary(r))

    def test_masked_faults_of_several_processes_are_all_counted(self):
        with tempfile.TemporaryDirectory() as tmp:
            script = ('"$0" --dump-dir "$1/a" --frames 3 >/dev/null; "$0" --dump-dir "$1/b" --frames 3 >/dev/null; '
                      'exit 0')
            r = run("--fault", '{"id": "m", "when": {"submit": 1}, "effect": "masked"}',
                    "--", "sh", "-c", script, CRASH_HANDLER, tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("; faults fired: 2 (m);", summary(r))

    def test_log_level_in_any_case_and_log_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "logs", "crashtest.log")
            os.makedirs(os.path.dirname(log))
            r = run("--fault", '{"id": "lose-at-1", "when": {"submit": 1}, "effect": "device-lost"}',
                    "--", CRASH_HANDLER, "--dump-dir", os.path.join(tmp, "d"), "--frames", "2",
                    extra_env={"CRASHTEST_LOG": "DEBUG", "CRASHTEST_LOG_FILE": log})
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertNotIn("is not one of", r.stderr)
            self.assertNotIn("crashtest: warning: fault", r.stderr)  # in the file, not on stderr
            with open(log) as f:
                text = f.read()
            self.assertIn("crashtest: warning: fault 'lose-at-1' fired", text)
            # Info lines only appear above the default level (warn): DEBUG in capitals was understood.
            self.assertIn("crashtest: info: device created", text)

    def test_unwritable_log_file_falls_back_to_stderr(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = run("--fault", '{"id": "x", "when": {"submit": 1}, "effect": "device-lost"}',
                    "--", CRASH_HANDLER, "--dump-dir", os.path.join(tmp, "d"), "--frames", "1",
                    extra_env={"CRASHTEST_LOG_FILE": os.path.join(tmp, "missing", "dir", "log")})
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("CRASHTEST_LOG_FILE=", r.stderr)
            self.assertIn("crashtest: warning: fault 'x' fired", r.stderr)


@unittest.skipIf(shutil.which("vulkaninfo") is None, "vulkaninfo is not installed")
class Vulkaninfo(unittest.TestCase):
    def vulkaninfo(self, *run_args, summary_only=True):
        with tempfile.TemporaryDirectory() as tmp:
            args = ["vulkaninfo"] + (["--summary"] if summary_only else [])
            return run(*run_args, "--", *args, extra_env={"XDG_RUNTIME_DIR": tmp}, cwd=tmp)

    def test_only_crashtest_devices_are_seen(self):
        r = self.vulkaninfo("--device", "mali-g78", "--device", "default")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Mali-G78", r.stdout)
        self.assertIn("crashtest default GPU", r.stdout)
        self.assertNotIn("llvmpipe", r.stdout)
        self.assertEqual(r.stdout.count("deviceName"), 2, r.stdout)

    def test_every_device_offers_fault_and_statistics_extensions_through_the_loader(self):
        for device in ("mali-g78", os.path.join(PROFILES, "llvmpipe-mesa-22.3.6.json")):
            with self.subTest(device=device):
                r = self.vulkaninfo("--device", device, summary_only=False)
                self.assertEqual(r.returncode, 0, r.stderr)
                for name in ("VK_EXT_device_fault", "VK_KHR_pipeline_executable_properties"):
                    self.assertIn(name, r.stdout)

    def test_profile_without_identity(self):
        r = self.vulkaninfo("--device", os.path.join(PROFILES, "roadmap-no-identity.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("crashtest: VP_KHR_roadmap_2022", r.stdout)
        self.assertIn("0x43525348", r.stdout)
        self.assertIn("PHYSICAL_DEVICE_TYPE_DISCRETE_GPU", r.stdout)
        self.assertRegex(r.stdout, r"driverName\s*=\s*crashtest\n")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    EXE, CRASH_HANDLER, PROFILES = (os.path.abspath(a) for a in sys.argv[1:4])
    unittest.main(argv=[sys.argv[0], "-v"])
