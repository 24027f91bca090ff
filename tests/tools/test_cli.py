#!/usr/bin/env python3
"""End-to-end tests of the `crashtest` command: exit codes, messages and output of help, devices, check and decode
(bad inputs; decoding real dumps is tested with examples/crash_handler and tests/fault).

Usage: test_cli.py CRASHTEST_EXE SHARED_DATA_DIR TOOLS_DATA_DIR
"""
import json
import os
import re
import subprocess
import sys
import unittest

EXE = SHARED = OWN = ""
BUILTINS = ["amd-rdna2", "default", "intel-xe-igpu", "mali-g78", "nvidia-hopper"]


def run(*args, config=None, extra_env=None):
    """Runs crashtest with CRASHTEST_CONFIG unset (or set to `config`) so the caller's environment cannot leak in."""
    env = {k: v for k, v in os.environ.items() if k not in ("CRASHTEST_CONFIG", "CRASHTEST_DUMP_DIR")}
    if config is not None:
        env["CRASHTEST_CONFIG"] = config
    env.update(extra_env or {})
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=env, timeout=60)


def configs(name):
    return os.path.join(SHARED, "configs", name)


def profiles(name):
    return os.path.join(SHARED, "profiles", name)


def own(name):
    return os.path.join(OWN, name)


class Help(unittest.TestCase):
    def test_help_names_subcommands_environment_and_exit_codes(self):
        for args in (["--help"], ["help"], ["-h"]):
            r = run(*args)
            self.assertEqual(r.returncode, 0, args)
            for word in ("devices", "check", "CRASHTEST_CONFIG", "CRASHTEST_LOG", "CRASHTEST_DUMP_DIR",
                         "Exit codes"):
                self.assertIn(word, r.stdout, args)

    def test_unimplemented_subcommands_are_not_advertised(self):
        out = run("--help").stdout
        for name in ("demo",):
            self.assertNotIn("\n  " + name + " ", out)

    def test_subcommand_help(self):
        for args in (["help", "devices"], ["devices", "--help"]):
            r = run(*args)
            self.assertEqual(r.returncode, 0, args)
            for option in ("--verbose", "--config FILE", "--json"):
                self.assertIn(option, r.stdout, args)
        r = run("help", "check")
        self.assertEqual(r.returncode, 0)
        self.assertIn("--strict", r.stdout)
        self.assertIn("FILE", r.stdout)

    def test_version(self):
        r = run("--version")
        self.assertEqual(r.returncode, 0)
        self.assertRegex(r.stdout, r"^crashtest \d+\.\d+\.\d+")

    def test_no_arguments_is_a_usage_error(self):
        r = run()
        self.assertEqual(r.returncode, 2)
        self.assertIn("Usage:", r.stderr)

    def test_unknown_subcommand_is_named_with_a_hint(self):
        r = run("frobnicate")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown subcommand 'frobnicate'", r.stderr)
        self.assertIn("crashtest --help", r.stderr)
        r = run("devcies")
        self.assertEqual(r.returncode, 2)
        self.assertIn("did you mean 'devices'", r.stderr)
        r = run("help", "frobnicate")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown subcommand 'frobnicate'", r.stderr)

    def test_unknown_option_is_named_with_a_hint(self):
        r = run("devices", "--verbos")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown option '--verbos'", r.stderr)
        self.assertIn("did you mean '--verbose'", r.stderr)
        self.assertIn("crashtest help devices", r.stderr)
        self.assertEqual(run("--bogus").returncode, 2)
        self.assertEqual(run("devices", "-v").returncode, 2)

    def test_option_value_and_argument_errors(self):
        r = run("devices", "--config")
        self.assertEqual(r.returncode, 2)
        self.assertIn("needs a value", r.stderr)
        r = run("devices", "--json", "--json")
        self.assertEqual(r.returncode, 2)
        self.assertIn("more than once", r.stderr)
        r = run("devices", "extra")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unexpected argument 'extra'", r.stderr)
        r = run("check")
        self.assertEqual(r.returncode, 2)
        self.assertIn("missing FILE", r.stderr)
        # Empty strings usually come from an unset shell variable: say so rather than "cannot open ''".
        r = run("devices", "--config=")
        self.assertEqual(r.returncode, 2)
        self.assertIn("needs a value (FILE)", r.stderr)
        r = run("check", "")
        self.assertEqual(r.returncode, 2)
        self.assertIn("empty FILE name", r.stderr)
        r = run("devices", "--json=yes")
        self.assertEqual(r.returncode, 2)
        self.assertIn("takes no value", r.stderr)


class Devices(unittest.TestCase):
    def test_default_device_and_builtin_library(self):
        r = run("devices")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("[0] crashtest default GPU", r.stdout)
        self.assertIn("source              builtin:default", r.stdout)
        self.assertIn("VK_PHYSICAL_DEVICE_TYPE_", r.stdout)
        library = r.stdout.split("Built-in devices", 1)[1]
        for name in BUILTINS:
            self.assertRegex(library, r"\n  " + name + r" +\S")

    def test_verbose_shows_capabilities_and_dropped(self):
        r = run("devices", "--verbose")
        self.assertEqual(r.returncode, 0, r.stderr)
        for section in ("extensions (", "features enabled", "queue families (", "memory heaps (", "memory types (",
                        "machine model:", "dropped ("):
            self.assertIn(section, r.stdout)
        self.assertNotIn("dropped (", run("devices").stdout)
        # A profile asking for ray tracing, which a CPU driver will not grow soon: the drop and its reason show.
        r = run("devices", "--verbose", "--config", own("dropped.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"\n    dropped \([1-9]\d*\):\n")
        self.assertIn("\n      extension VK_KHR_ray_tracing_pipeline: not implemented", r.stdout)
        self.assertNotIn("VK_KHR_ray_tracing_pipeline (spec", r.stdout)  # not advertised

    def test_json_parses_and_matches_the_text(self):
        r = run("devices", "--json", "--verbose")
        self.assertEqual(r.returncode, 0, r.stderr)
        report = json.loads(r.stdout)
        self.assertIsNone(report["configuration"])
        self.assertEqual([b["name"] for b in report["builtins"]], BUILTINS)
        self.assertEqual([b["reference"] for b in report["builtins"]], ["builtin:" + n for n in BUILTINS])
        device = report["devices"][0]
        self.assertEqual(device["index"], 0)
        self.assertEqual(device["deviceName"], "crashtest default GPU")
        self.assertEqual(device["source"], "builtin:default")
        self.assertRegex(device["vendorID"], r"^0x[0-9a-f]{4,}$")
        self.assertRegex(device["apiVersion"], r"^\d+\.\d+\.\d+$")
        self.assertIsInstance(device["dropped"], list)
        self.assertGreater(len(device["queueFamilies"]), 0)
        self.assertGreater(len(device["memory"]["heaps"]), 0)
        self.assertIn("registerBudget", device["machine"])
        text = run("devices", "--verbose").stdout
        self.assertIn("extensions (%d):" % len(device["extensions"]), text)
        self.assertIn("dropped (%d):" % len(device["dropped"]), text)
        self.assertNotIn("dropped", json.loads(run("devices", "--json").stdout)["devices"][0])
        dropped = json.loads(run("devices", "--json", "--verbose", "--config", own("dropped.json")).stdout)
        self.assertIn({"what": "extension VK_NV_mesh_shader", "reason": "not implemented by crashtest %s" %
                       run("--version").stdout.split()[1]}, dropped["devices"][0]["dropped"])

    def test_config_option_lists_configured_devices_in_order(self):
        r = run("devices", "--json", "--config", own("builtins.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        report = json.loads(r.stdout)
        self.assertEqual([d["source"] for d in report["devices"]],
                         ["builtin:amd-rdna2", "builtin:mali-g78", "builtin:intel-xe-igpu"])
        self.assertEqual([d["index"] for d in report["devices"]], [0, 1, 2])
        self.assertNotIn("builtins", report)  # the library is listed only for the live configuration

    def test_reads_crashtest_config(self):
        r = run("devices", config=configs("two-devices.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("(from CRASHTEST_CONFIG)", r.stdout)
        self.assertIn("[0] llvmpipe", r.stdout)
        self.assertIn("[1] Hand-written Discrete GPU", r.stdout)
        self.assertIn("(profile VP_TEST_baseline_only)", r.stdout)
        self.assertIn("Built-in devices", r.stdout)

    def test_bad_configuration_fails_with_its_message(self):
        r = run("devices", config=configs("bad-options-not-object.json"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("options: expected an object, got an array", r.stderr)
        self.assertEqual(r.stdout, "")
        r = run("devices", "--json", "--config", own("bad-builtin.json"))
        self.assertEqual(r.returncode, 1)
        self.assertIn('no built-in device "rtx-9090"', r.stderr)

    def test_warnings_go_to_stderr_and_json_stays_clean(self):
        r = run("devices", "--json", "--config", configs("newer-struct.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("warning: ", r.stderr)
        self.assertEqual(len(json.loads(r.stdout)["devices"]), 1)


# Each bad configuration of tests/data/configs and the first message the loader gives for it.
BAD_CONFIGS = {
    "bad-missing-profile.json": lambda: profiles("does-not-exist.json") +
        ": cannot open (No such file or directory)",
    "bad-malformed.json": lambda: configs("bad-malformed.json") +
        ":4:3: invalid JSON: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal",
    "bad-faults-not-array.json": lambda: configs("bad-faults-not-array.json") +
        ": faults: expected an array of faults, got an object",
    "bad-options-not-object.json": lambda: configs("bad-options-not-object.json") +
        ": options: expected an object, got an array",
    "bad-unknown-option.json": lambda: configs("bad-unknown-option.json") +
        ": options.computeThread: unknown option (did you mean \"computeThreads\"?); the options are captureDirectory, "
        "captureEvery, captureLast, computeThreads, dumpDirectory, dumpSizeLimit, presentRefreshRate, shaderFaults, "
        "shaderInstructionBudget, shaderTimeoutMs, stuckWaitMs, stuckWaits",
    "bad-device-entry.json": lambda: configs("bad-device-entry.json") +
        ": devices[0].profil: unknown member (expected \"profile\" and optionally \"name\")",
    "bad-unknown-top-level.json": lambda: configs("bad-unknown-top-level.json") +
        ": fault: unknown member (expected \"devices\", \"faults\" or \"options\")",
    "bad-profile-member.json": lambda: profiles("bad-limit-type.json") +
        ": capabilities.device.properties.VkPhysicalDeviceProperties.limits.maxImageDimension2D: "
        "expected an unsigned 32-bit integer, got \"big\"",
    "bad-profile-name.json": lambda: profiles("minimal-discrete.json") +
        ": profiles: no profile \"VP_NOPE\" (available: VP_TEST_discrete, VP_TEST_baseline_only)",
}


class Check(unittest.TestCase):
    def test_every_shared_config(self):
        # Whatever is added to tests/data/configs later is checked too: "bad-*" must fail, the rest must pass.
        for name in sorted(os.listdir(os.path.join(SHARED, "configs"))):
            with self.subTest(config=name):
                r = run("check", configs(name))
                self.assertEqual(r.returncode, 1 if name.startswith("bad-") else 0, r.stdout)

    def test_good_configs(self):
        r = run("check", configs("two-devices.json"))
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(r.stdout, configs("two-devices.json") + ": OK, 2 devices\n")
        r = run("check", own("builtins.json"))
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(r.stdout, own("builtins.json") + ": OK, 3 devices\n")

    def test_bad_configs_give_exit_1_and_their_message(self):
        for name, message in BAD_CONFIGS.items():
            with self.subTest(config=name):
                r = run("check", configs(name))
                self.assertEqual(r.returncode, 1, r.stdout)
                lines = r.stdout.splitlines()
                self.assertEqual(lines[0], message())
                self.assertRegex(lines[-1], "^" + re.escape(configs(name)) + r": [1-9]\d* errors?, \d+ warnings?$")

    def test_newer_struct_warns_unless_strict(self):
        r = run("check", configs("newer-struct.json"))
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("warning: " + profiles("newer-struct.json") +
                      ": capabilities.device.features.VkPhysicalDeviceShaderObjectFeaturesEXT: unknown struct", r.stdout)
        self.assertTrue(r.stdout.endswith(configs("newer-struct.json") + ": OK, 1 device, 1 warning\n"))
        r = run("check", "--strict", configs("newer-struct.json"))
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertNotIn("warning: ", r.stdout)
        self.assertIn("unknown struct VkPhysicalDeviceShaderObjectFeaturesEXT", r.stdout)

    def test_bare_profile_files(self):
        r = run("check", profiles("minimal-discrete.json"))
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(r.stdout, profiles("minimal-discrete.json") + ": OK, 1 device\n")
        r = run("check", "--profile", "VP_TEST_baseline_only", profiles("minimal-discrete.json"))
        self.assertEqual(r.returncode, 0, r.stdout)
        r = run("check", "--profile", "VP_NOPE", profiles("minimal-discrete.json"))
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn('no profile "VP_NOPE"', r.stdout)
        r = run("check", own("profile-bad-enum.json"))
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn(own("profile-bad-enum.json") + ": capabilities.device.properties.VkPhysicalDeviceProperties."
                      "deviceType: unknown VkPhysicalDeviceType value", r.stdout)

    def test_strict_turns_unknown_struct_warning_in_profile_into_exit_1(self):
        path = own("profile-newer-struct.json")
        r = run("check", path)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("warning: " + path + ": capabilities.device.features.VkPhysicalDeviceFutureMagicFeaturesEXT: "
                      "unknown struct", r.stdout)
        self.assertTrue(r.stdout.endswith(path + ": OK, 1 device, 1 warning\n"))
        r = run("check", "--strict", path)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertTrue(r.stdout.endswith(path + ": 1 error, 0 warnings\n"))

    def test_several_files_fail_if_any_fails(self):
        r = run("check", configs("two-devices.json"), configs("bad-malformed.json"))
        self.assertEqual(r.returncode, 1)
        self.assertIn(configs("two-devices.json") + ": OK, 2 devices", r.stdout)
        self.assertIn(configs("bad-malformed.json") + ": 1 error, 0 warnings", r.stdout)

    def test_profile_option_on_a_configuration_is_a_usage_error(self):
        r = run("check", "--profile", "X", configs("two-devices.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("--profile applies to a profile file", r.stderr)

    def test_json_output(self):
        r = run("check", "--json", configs("two-devices.json"), configs("bad-unknown-option.json"),
                profiles("misspelled-extension.json"))
        self.assertEqual(r.returncode, 1, r.stdout)
        report = json.loads(r.stdout)
        self.assertFalse(report["ok"])
        self.assertFalse(report["strict"])
        files = {f["file"]: f for f in report["files"]}
        good = files[configs("two-devices.json")]
        self.assertEqual((good["ok"], good["devices"], good["errors"]), (True, 2, 0))
        bad = files[configs("bad-unknown-option.json")]
        self.assertFalse(bad["ok"])
        self.assertEqual(bad["errors"], 2)
        first = bad["messages"][0]
        self.assertEqual(first["severity"], "error")
        self.assertEqual(first["path"], "options.computeThread")
        self.assertIn('did you mean "computeThreads"', first["text"])
        warned = files[profiles("misspelled-extension.json")]
        self.assertTrue(warned["ok"])
        self.assertEqual(warned["warnings"], 2)
        malformed = json.loads(run("check", "--json", configs("bad-malformed.json")).stdout)
        message = malformed["files"][0]["messages"][0]
        self.assertEqual((message["line"], message["column"]), (4, 3))
        strict = json.loads(run("check", "--json", "--strict", profiles("misspelled-extension.json")).stdout)
        self.assertFalse(strict["ok"])
        self.assertTrue(strict["strict"])

    def test_missing_file_is_a_check_failure(self):
        missing = own("no-such-file.json")
        r = run("check", missing)
        self.assertEqual(r.returncode, 1)
        self.assertIn(missing + ": cannot open", r.stdout)

    def test_fifo_device_and_directory_are_refused_without_blocking(self):
        # Each used to block forever (a FIFO without a writer, /dev/zero) or read as empty JSON (a directory).
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            fifo = os.path.join(tmp, "config.json")
            os.mkfifo(fifo)
            for path, what in ((fifo, "a FIFO"), ("/dev/zero", "a character device"), (tmp, "a directory")):
                with self.subTest(path=path):
                    r = run("check", path)
                    self.assertEqual(r.returncode, 1, r.stdout)
                    self.assertIn(path + ": not a regular file (" + what + ")", r.stdout)
                    r = run("run", "--config", path, "--", "sh", "-c", "echo ran")
                    self.assertEqual(r.returncode, 125, r.stderr)
                    self.assertIn("not a regular file (" + what + ")", r.stderr)
                    self.assertNotIn("ran", r.stdout)

    def test_deep_nesting_is_an_error_not_a_crash(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "deep.json")
            with open(path, "w") as f:
                f.write('{"options": ' + "[" * 100000 + "]" * 100000 + "}")
            r = run("check", path)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertIn("nested deeper than 64 levels", r.stdout)
            r = run("run", "--config", path, "--", "sh", "-c", "echo ran")
            self.assertEqual(r.returncode, 125, r.stderr)


class RealExports(unittest.TestCase):
    def test_misspelt_extension_warns_and_fails_strict(self):
        path = profiles("misspelled-extension.json")
        r = run("check", path)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("warning: " + path + ": capabilities.device.extensions.VK_KHR_maintenence1: unknown extension "
                      "VK_KHR_maintenence1", r.stdout)
        self.assertIn("did you mean VK_KHR_maintenance1?", r.stdout)
        r = run("check", "--strict", path)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("did you mean VK_KHR_maintenance1?", r.stdout)

    def test_unprefixed_names_load_with_notes(self):
        path = profiles("vulkaninfo-unprefixed.json")
        r = run("check", path)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("note: " + path + ": capabilities.device.properties.VkPhysicalDeviceFragmentShadingRateProperties"
                      "KHR.maxFragmentShadingRateRasterizationSamples: \"SAMPLE_COUNT_16_BIT\" read as", r.stdout)
        # Its sample counts are single names (what the file tests), fewer than the spec's Required Limits allow:
        # warned, not refused.
        self.assertTrue(r.stdout.endswith(path + ": OK, 1 device, 2 warnings\n"), r.stdout)
        self.assertIn("framebufferDepthSampleCounts is 1; every device sets at least the bits 5 (Required Limits)",
                      r.stdout)
        r = run("check", profiles("bad-unprefixed-typo.json"))
        self.assertEqual(r.returncode, 1, r.stdout)

    def test_profile_file_as_crashtest_config(self):
        r = run("devices", config=profiles("roadmap-no-identity.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("[0] crashtest: VP_KHR_roadmap_2022\n", r.stdout)
        self.assertIn("VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU", r.stdout)
        self.assertIn("0x43525348", r.stdout)
        self.assertNotIn("unknown member", r.stderr)

    def test_verbose_says_what_was_added_and_what_was_not(self):
        r = run("devices", "--verbose", "--config", profiles("llvmpipe-mesa-22.3.6.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"\n    added \(3\):\n")
        for name in ("VK_EXT_device_fault", "VK_KHR_device_fault", "VK_KHR_pipeline_executable_properties"):
            self.assertIn("\n      extension " + name + ": crashtest offers", r.stdout)
        r = run("devices", "--verbose", "--json", "--config", profiles("exact-extensions.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        device = json.loads(r.stdout)["devices"][0]
        # No extension is added (features and formats the spec makes mandatory may be: docs/configuration.md).
        self.assertEqual([c for c in device["added"] if c["what"].startswith("extension ")], [])
        not_added = [c["what"] for c in device["dropped"] if c["what"].endswith("(not added)")]
        self.assertEqual(sorted(not_added), ["extension VK_KHR_device_fault (not added)",
                                             "extension VK_KHR_pipeline_executable_properties (not added)"])

    def test_every_builtin_offers_fault_and_statistics_extensions(self):
        r = run("devices", "--verbose", "--json", "--config", own("builtins.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        for device in json.loads(r.stdout)["devices"]:
            names = {e["name"] for e in device["extensions"]}
            for name in ("VK_EXT_device_fault", "VK_KHR_device_fault", "VK_KHR_pipeline_executable_properties"):
                self.assertIn(name, names, device["deviceName"])


class Run(unittest.TestCase):
    def test_help_and_missing_command(self):
        r = run("help", "run")
        self.assertEqual(r.returncode, 0)
        for word in ("[--device NAME|PROFILE]...", "[--config FILE] ", "[--fault JSON|FILE]...", "--dump-dir DIR", "-- COMMAND",
                     "125"):
            self.assertIn(word, r.stdout)
        self.assertIn("\n  run ", run("--help").stdout)
        r = run("run")
        self.assertEqual(r.returncode, 2)
        self.assertIn("missing COMMAND", r.stderr)

    def test_exit_status_passes_through_with_a_summary(self):
        for status in (0, 3, 77):
            r = run("run", "--", "sh", "-c", "exit %d" % status)
            self.assertEqual(r.returncode, status, r.stderr)
            last = r.stderr.splitlines()[-1]
            self.assertEqual(last, "crashtest run: exit status %d; devices: crashtest default GPU; faults fired: 0; "
                                   "dumps written: none (no --dump-dir)" % status)

    def test_child_sees_crashtest_as_its_only_driver_with_the_composed_configuration(self):
        script = ('printf "%s\\n" "$VK_ICD_FILENAMES" "$VK_DRIVER_FILES" "$NODEVICE_SELECT" "${VK_ADD_DRIVER_FILES-unset}";'
                  ' cat "$CRASHTEST_CONFIG"')
        env_extra = {"VK_ADD_DRIVER_FILES": "/somewhere/else.json"}
        r = run("run", "--device", "amd-rdna2", "--device", profiles("minimal-discrete.json"),
                "--fault", '{"id": "f1", "when": {"submit": 1}, "effect": "masked"}', "--", "sh", "-c", script,
                extra_env=env_extra)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        manifest = lines[0]
        self.assertTrue(manifest.endswith("/crashtest_icd.json"), manifest)
        self.assertTrue(os.path.isfile(manifest), manifest)
        with open(manifest) as f:
            library = json.load(f)["ICD"]["library_path"]
        self.assertTrue(os.path.isfile(library), library)
        self.assertEqual(lines[1], manifest)
        self.assertEqual(lines[2], "1")
        self.assertEqual(lines[3], "unset")
        config = json.loads("\n".join(lines[4:]))
        self.assertEqual(config["devices"], ["builtin:amd-rdna2", os.path.abspath(profiles("minimal-discrete.json"))])
        self.assertEqual(config["faults"], [{"id": "f1", "when": {"submit": 1}, "effect": "masked"}])
        self.assertIn("devices: AMD Radeon RX 6800 XT (crashtest emulation), Hand-written Discrete GPU;",
                      r.stderr.splitlines()[-1])

    def test_config_option_keeps_relative_profiles_working_and_adds_faults(self):
        r = run("run", "--config", configs("two-devices.json"), "--fault",
                '[{"id": "a", "when": {"submit": 2}, "effect": "masked"}]', "--", "sh", "-c", 'cat "$CRASHTEST_CONFIG"')
        self.assertEqual(r.returncode, 0, r.stderr)
        config = json.loads(r.stdout)
        for device in config["devices"]:
            reference = device["profile"] if isinstance(device, dict) else device
            self.assertTrue(reference.startswith("builtin:") or os.path.isabs(reference), reference)
        self.assertEqual([f["id"] for f in config["faults"]], ["later", "a"])

    def test_inherited_crashtest_config_is_the_base(self):
        r = run("run", "--device", "mali-g78", "--", "sh", "-c", 'cat "$CRASHTEST_CONFIG"',
                config=configs("two-devices.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        config = json.loads(r.stdout)
        self.assertEqual(config["devices"], ["builtin:mali-g78"])
        self.assertEqual([f["id"] for f in config["faults"]], ["later"])  # the inherited plan stays
        self.assertEqual(config["options"], {"computeThreads": 2})

    def test_dump_dir_is_created_and_passed_on(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            dumps = os.path.join(tmp, "dumps", "nested")
            r = run("run", "--dump-dir", dumps, "--", "sh", "-c", 'touch "$CRASHTEST_DUMP_DIR/one.bin"')
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(os.path.isfile(os.path.join(dumps, "one.bin")))
            self.assertTrue(r.stderr.splitlines()[-1].endswith("; dumps written: 1 in " + dumps), r.stderr)

    def test_bad_input_is_named_and_nothing_runs(self):
        cases = [
            (["--device", "amd"], "--device amd: no built-in device and no profile file of that name (did you mean "
                                  "amd-rdna2?)"),
            (["--device", "defualt"], "(did you mean default?)"),
            (["--fault", "{not json"], "--fault {not json: neither a fault in JSON"),
            (["--fault", '{"id": "x", "when": {"submit": 0}, "effect": "device-lost"}'], "faults[0].when.submit"),
            (["--config", own("no-such-file.json")], "cannot open"),
            (["--device", "builtin:nope"], 'no built-in device "nope"'),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                r = run("run", *args, "--", "sh", "-c", "echo ran")
                self.assertEqual(r.returncode, 125, r.stderr)
                self.assertIn(message, r.stderr)
                self.assertNotIn("ran", r.stdout)

    def test_missing_command_is_127(self):
        r = run("run", "--", "crashtest-no-such-command")
        self.assertEqual(r.returncode, 127, r.stderr)
        self.assertIn("crashtest-no-such-command", r.stderr)
        self.assertIn("exit status 127", r.stderr.splitlines()[-1])

    def test_signal_becomes_128_plus_n(self):
        r = run("run", "--", "sh", "-c", "kill -TERM $$")
        self.assertEqual(r.returncode, 128 + 15, r.stderr)

    def test_sigterm_to_crashtest_run_reaches_the_command(self):
        import signal
        import time
        env = {k: v for k, v in os.environ.items() if k not in ("CRASHTEST_CONFIG", "CRASHTEST_DUMP_DIR")}
        p = subprocess.Popen([EXE, "run", "--", "sh", "-c", "trap 'echo got-term; exit 7' TERM; "
                              "echo ready; while :; do sleep 0.05; done"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.assertEqual(p.stdout.readline().strip(), "ready")
        time.sleep(0.1)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 7, err)
        self.assertIn("got-term", out)
        self.assertIn("crashtest run: exit status 7;", err)

    def test_fault_from_a_file(self):
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump([{"id": "a", "when": {"submit": 1}, "effect": "masked"},
                       {"id": "b", "when": {"submit": 2}, "effect": "device-lost"}], f)
        try:
            r = run("run", "--fault", f.name, "--", "sh", "-c", 'cat "$CRASHTEST_CONFIG"')
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual([x["id"] for x in json.loads(r.stdout)["faults"]], ["a", "b"])
        finally:
            os.unlink(f.name)


class Decode(unittest.TestCase):
    def setUp(self):
        import tempfile
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, data):
        path = os.path.join(self.tmp.name, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_is_listed_with_its_help(self):
        self.assertIn("\n  decode ", run("--help").stdout)
        r = run("help", "decode")
        self.assertEqual(r.returncode, 0)
        self.assertIn("--json", r.stdout)
        self.assertIn("FILE", r.stdout)

    def test_usage_errors(self):
        self.assertEqual(run("decode").returncode, 2)
        self.assertEqual(run("decode", "a", "b").returncode, 2)

    def test_missing_empty_foreign_and_corrupt_files_exit_1_with_a_message(self):
        import struct
        cases = {
            "missing": (os.path.join(self.tmp.name, "missing.bin"), "cannot open"),
            "folder": (self.tmp.name, "not a regular file"),
            "empty": (self.write("empty.bin", b""), "fewer than the 56-byte"),
            "text": (self.write("text.bin", b"hello world" * 10), "not a Vulkan vendor binary"),
            "foreign": (self.write("foreign.bin", struct.pack("<II", 56, 1) + bytes(200)), "another driver"),
            "no sections": (self.write("cut.bin", struct.pack("<II", 56, 1) + bytes(48) + b"CTDUMP\0\0" +
                                       struct.pack("<II", 1, 3)), "section 1 of 3"),
        }
        for what, (path, message) in cases.items():
            for args in (["decode", path], ["decode", "--json", path]):
                r = run(*args)
                self.assertEqual(r.returncode, 1, (what, args, r.stderr))
                self.assertIn(message, r.stderr, what)
                self.assertEqual(r.stdout, "", what)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    EXE, SHARED, OWN = sys.argv[1:4]
    unittest.main(argv=[sys.argv[0], "-v"])
