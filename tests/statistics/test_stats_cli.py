#!/usr/bin/env python3
"""End-to-end tests of `crashtest stats`: output, JSON, devices, errors and the --compare exit status CI gates on.

Usage: test_stats_cli.py CRASHTEST_EXE SHADER_CORPUS_DIR BUILTIN_DEVICES_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

EXE = SHADERS = DEVICES = ""


def run(*args):
    env = {k: v for k, v in os.environ.items() if k != "CRASHTEST_CONFIG"}
    return subprocess.run([EXE, "stats", *args], capture_output=True, text=True, env=env, timeout=60)


def shader(name):
    return os.path.join(SHADERS, name)


def stats_json(*args):
    r = run(*args, "--json")
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return json.loads(r.stdout)


class Help(unittest.TestCase):
    def test_help_answers(self):
        for args in (["stats", "--help"], ["help", "stats"]):
            r = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 0)
            for word in ("--device NAME|PROFILE", "--stage STAGE", "--entry NAME", "--json", "--compare",
                         "--fail-on LIST", "Exit codes", "regression", "spills,fills,scratchSize,registers"):
                self.assertIn(word, r.stdout, args)

    def test_listed_in_the_overview(self):
        r = subprocess.run([EXE, "--help"], capture_output=True, text=True, timeout=60)
        self.assertIn("\n  stats ", r.stdout)


class Single(unittest.TestCase):
    def test_text_names_every_statistic(self):
        r = run(shader("stats_pressure_96.comp.spv"), "--device", "mali-g78")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('compute shader "main" on Mali-G78', r.stdout)
        for name in ("Instructions", "ALU instructions", "Register demand", "Registers", "Spills", "Fills",
                     "Scratch size", "Workgroup memory size", "Subgroups per core", "Estimated cycles",
                     "Code size", "Shader hash"):
            self.assertIn("\n  " + name + " ", r.stdout)
        self.assertIn("Register budget exceeded          yes", r.stdout)
        self.assertIn("(limited by registers)", r.stdout)

    def test_json_matches_text(self):
        d = stats_json(shader("saxpy.comp.spv"), "--device", "amd-rdna2", "--dialect", "crashtest")
        self.assertEqual(d["stage"], "compute")
        self.assertEqual(d["entryPoint"], "main")
        self.assertEqual(d["subgroupSize"], 64)
        self.assertEqual(d["deviceSource"], "builtin:amd-rdna2")
        s = d["statistics"]
        self.assertRegex(s["hash"], r"^0x[0-9a-f]{16}$")
        self.assertIs(s["registerBudgetExceeded"], False)
        self.assertEqual(s["registers"] % 8, 0)
        self.assertEqual(d["dialect"], "crashtest")
        text = run(shader("saxpy.comp.spv"), "--device", "amd-rdna2", "--dialect", "crashtest").stdout
        self.assertIn("  Instructions" + " " * (34 - len("Instructions")) + str(s["instructions"]) + "\n", text)

    def test_device_by_name_prefix_and_profile_file_agree(self):
        by_name = stats_json(shader("reduce.comp.spv"), "--device", "mali-g78")["statistics"]
        by_prefix = stats_json(shader("reduce.comp.spv"), "--device", "builtin:mali-g78")["statistics"]
        by_file = stats_json(shader("reduce.comp.spv"), "--device", os.path.join(DEVICES, "mali-g78.json"))
        self.assertEqual(by_name, by_prefix)
        self.assertEqual(by_name, by_file["statistics"])
        self.assertTrue(by_file["deviceSource"].endswith("mali-g78.json"))

    def test_default_device(self):
        d = stats_json(shader("saxpy.comp.spv"))
        self.assertEqual(d["deviceSource"], "builtin:default")

    def test_devices_differ_where_models_differ(self):
        mali = stats_json(shader("stats_pressure_96.comp.spv"), "--device", "mali-g78")["statistics"]
        amd = stats_json(shader("stats_pressure_96.comp.spv"), "--device", "amd-rdna2",
                         "--dialect", "crashtest")["statistics"]
        self.assertEqual(mali["instructions"], amd["instructions"])
        self.assertGreater(mali["spills"], 0)
        self.assertEqual(amd["spills"], 0)
        self.assertNotEqual(mali["hash"], amd["hash"])

    def test_identical_spirv_identical_output(self):
        a = stats_json(shader("stats_identical_a.comp.spv"))
        b = stats_json(shader("stats_identical_b.comp.spv"))
        self.assertEqual(a["statistics"], b["statistics"])

    def test_stage_from_the_entry_point_and_graphics_stages(self):
        d = stats_json(shader("phong.frag.spv"))
        self.assertEqual(d["stage"], "fragment")
        self.assertNotIn("workgroupMemorySize", d["statistics"])
        self.assertEqual(stats_json(shader("skinning.vert.spv"), "--stage", "vert")["stage"], "vertex")

    def test_ir_listing_explains_the_numbers(self):
        r = run(shader("stats_pressure_96.comp.spv"), "--device", "mali-g78", "--ir")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("; register demand", r.stdout)
        self.assertIn("; live ", r.stdout)
        self.assertIn("spill %", r.stdout)


class Dialects(unittest.TestCase):
    RADV = ["Driver pipeline hash", "SGPRs", "VGPRs", "Spilled SGPRs", "Spilled VGPRs", "Code size", "LDS size",
            "Scratch size", "Subgroups per SIMD", "Hash", "Instructions", "Copies", "Branches", "Latency",
            "Inverse Throughput", "VMEM Clause", "SMEM Clause", "Pre-Sched SGPRs", "Pre-Sched VGPRs"]

    def test_each_vendor_device_speaks_its_driver_s_words(self):
        r = run(shader("stats_array_96.comp.spv"), "--device", "amd-rdna2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("radv statistics", r.stdout)
        for name in self.RADV:
            self.assertIn("\n  " + name + " ", r.stdout)
        self.assertNotIn("Subgroups per core", r.stdout)
        nvidia = stats_json(shader("stats_shared_4k.comp.spv"), "--device", "nvidia-hopper")
        self.assertEqual(nvidia["dialect"], "nvidia")
        self.assertEqual(set(nvidia["statistics"]), {"registerCount", "binarySize", "stackSize", "localMemorySize",
                                                     "sharedMemorySize"})
        self.assertEqual(nvidia["statistics"]["sharedMemorySize"], 4096)
        intel = stats_json(shader("saxpy.comp.spv"), "--device", "intel-xe-igpu")
        self.assertEqual(intel["dialect"], "anv")
        self.assertIn("sendCount", intel["statistics"])
        self.assertEqual(stats_json(shader("saxpy.comp.spv"))["dialect"], "crashtest")
        self.assertEqual(stats_json(shader("saxpy.comp.spv"), "--device", "mali-g78")["dialect"], "crashtest")

    def test_units_follow_the_dialect(self):
        # RADV's scratch is per subgroup (64 invocations on amd-rdna2), ours per invocation; 96 floats = 384 bytes.
        ours = stats_json(shader("stats_array_96.comp.spv"), "--device", "amd-rdna2", "--dialect", "crashtest")
        radv = stats_json(shader("stats_array_96.comp.spv"), "--device", "amd-rdna2")
        self.assertEqual(ours["statistics"]["scratchSize"], 384)
        self.assertEqual(radv["statistics"]["scratchSize"], 384 * 64)
        self.assertEqual(radv["statistics"]["vgprs"], ours["statistics"]["registers"])
        self.assertEqual(radv["statistics"]["sgprs"], ours["statistics"]["scalarRegisters"])
        self.assertEqual(radv["statistics"]["driverPipelineHash"], ours["statistics"]["hash"])
        # The 48-float array stays in registers on the AMD model: no scratch in either dialect.
        self.assertEqual(stats_json(shader("stats_array_48.comp.spv"), "--device", "amd-rdna2")
                         ["statistics"]["scratchSize"], 0)

    def test_dialect_option_and_its_gate(self):
        d = stats_json(shader("saxpy.comp.spv"), "--dialect", "radv")
        self.assertEqual(d["dialect"], "radv")
        self.assertIn("vgprs", d["statistics"])
        r = run("--compare", shader("stats_compare_before.comp.spv"), shader("stats_compare_after.comp.spv"),
                "--device", "amd-rdna2", "--json")
        g = json.loads(r.stdout)["gated"]
        self.assertEqual(g, ["spilledSgprs", "spilledVgprs", "scratchSize", "vgprs", "subgroupsPerSimd"])
        r = run(shader("saxpy.comp.spv"), "--dialect", "amdgpu")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown dialect 'amdgpu'", r.stderr)
        r = run("--compare", shader("saxpy.comp.spv"), shader("saxpy.comp.spv"), "--device", "amd-rdna2",
                "--fail-on", "spills")
        self.assertEqual(r.returncode, 2)
        self.assertIn("radv statistics", r.stderr)

    def test_ir_listing_marks_uniform_values(self):
        r = run(shader("stats_uniform_loop.comp.spv"), "--device", "amd-rdna2", "--ir")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(", uniform\n", r.stdout)
        self.assertIn("; scalar registers: demand", r.stdout)


class Errors(unittest.TestCase):
    def test_missing_and_bad_files(self):
        # 3: could not run, distinct from 1 (a regression was found).
        r = run(shader("no-such-shader.spv"))
        self.assertEqual(r.returncode, 3)
        self.assertIn("no-such-shader.spv: cannot open", r.stderr)
        with tempfile.NamedTemporaryFile(suffix=".spv") as f:
            f.write(b"not spir-v at all, just text....")
            f.flush()
            r = run(f.name)
            self.assertEqual(r.returncode, 3)
            self.assertIn("not a SPIR-V binary", r.stderr)

    def test_unknown_device_names_the_choices(self):
        r = run(shader("saxpy.comp.spv"), "--device", "mali-g87")
        self.assertEqual(r.returncode, 3)
        self.assertIn("mali-g87", r.stderr)
        self.assertIn("mali-g78", r.stderr)
        r = run(shader("saxpy.comp.spv"), "--device", "amd")  # a vendor is what people type
        self.assertEqual(r.returncode, 3)
        self.assertIn('no built-in device "amd" (did you mean builtin:amd-rdna2?)', r.stderr)

    def test_wrong_entry_point_and_stage(self):
        r = run(shader("saxpy.comp.spv"), "--entry", "mian")
        self.assertEqual(r.returncode, 3)
        self.assertIn('no entry point named "mian" (the module has "main")', r.stderr)
        r = run(shader("phong.frag.spv"), "--stage", "comp")
        self.assertEqual(r.returncode, 3)
        self.assertIn("phong.frag.spv", r.stderr)
        r = run(shader("phong.frag.spv"), "--stage", "pixel")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown stage 'pixel'", r.stderr)

    def test_argument_counts(self):
        self.assertEqual(run().returncode, 2)
        r = run("--compare", shader("saxpy.comp.spv"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("--compare takes two files or two directories", r.stderr)
        with tempfile.TemporaryDirectory() as tmp:
            r = run("--compare", tmp, shader("saxpy.comp.spv"))
            self.assertEqual(r.returncode, 2)
            self.assertIn("not one of each", r.stderr)
        r = run("--fail-on", "spills", shader("saxpy.comp.spv"))
        self.assertEqual(r.returncode, 2)


class Compare(unittest.TestCase):
    BEFORE = "stats_compare_before.comp.spv"
    AFTER = "stats_compare_after.comp.spv"

    def test_regression_fails(self):
        r = run("--compare", shader(self.BEFORE), shader(self.AFTER))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("REGRESSION", r.stdout)
        self.assertRegex(r.stdout, r"\d+ regressions?: .*spills")
        self.assertRegex(r.stdout, r"\n  Spills +0 +\d+ +\+\d+")

    def test_improvement_passes(self):
        r = run("--compare", shader(self.AFTER), shader(self.BEFORE))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("no regression", r.stdout)

    def test_identical_passes_with_zero_deltas(self):
        r = run("--compare", shader("stats_identical_a.comp.spv"), shader("stats_identical_b.comp.spv"),
                "--json", "--fail-on", "all")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        d = json.loads(r.stdout)
        self.assertEqual(d["regressions"], [])
        self.assertTrue(all(v == 0 for v in d["deltas"].values()))

    def test_json_lists_deltas_and_regressions(self):
        r = run("--compare", shader(self.BEFORE), shader(self.AFTER), "--json", "--device", "mali-g78")
        self.assertEqual(r.returncode, 1)
        d = json.loads(r.stdout)
        self.assertIn("spills", d["regressions"])
        before, after = d["before"]["statistics"], d["after"]["statistics"]
        self.assertEqual(d["deltas"]["spills"], after["spills"] - before["spills"])
        self.assertEqual(d["gated"], ["spills", "fills", "scratchSize", "registers", "subgroupsPerCore"])
        self.assertEqual(d["thresholds"][0], {"key": "spills", "threshold": "+0"})

    def test_fail_on_chooses_the_gate(self):
        args = ["--compare", shader(self.BEFORE), shader(self.AFTER)]
        self.assertEqual(run(*args, "--fail-on", "none").returncode, 0)
        self.assertEqual(run(*args, "--fail-on", "instructions").returncode, 1)
        # Loop trip count only: same instruction count, more cycles.
        loops = ["--compare", shader("stats_loop_8.comp.spv"), shader("stats_loop_64.comp.spv")]
        self.assertEqual(run(*loops, "--fail-on", "instructions").returncode, 0)
        self.assertEqual(run(*loops, "--fail-on", "estimatedCycles").returncode, 1)
        r = run(*args, "--fail-on", "spils")
        self.assertEqual(r.returncode, 2)
        self.assertIn("did you mean 'spills'", r.stderr)


    def test_threshold_tolerates_what_it_says(self):
        args = ["--compare", shader(self.BEFORE), shader(self.AFTER), "--json"]
        strict = json.loads(run(*args).stdout)
        grew = {k: strict["deltas"][k] for k in strict["regressions"]}
        self.assertTrue(grew)
        # Exactly the growth is tolerated; one less is not.
        loose = ",".join("%s=+%d" % (k, abs(v)) for k, v in grew.items())
        r = run(*args, "--threshold", loose)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(json.loads(r.stdout)["regressions"], [])
        first, amount = next(iter(grew.items()))
        if abs(amount) > 1:
            tight = run(*args, "--threshold", "%s=+%d" % (first, abs(amount) - 1))
            self.assertEqual(tight.returncode, 1)
            self.assertIn(first, json.loads(tight.stdout)["regressions"])
        # A statistic named in --threshold is gated even when --fail-on leaves it out.
        loops = ["--compare", shader("stats_loop_8.comp.spv"), shader("stats_loop_64.comp.spv")]
        self.assertEqual(run(*loops, "--threshold", "estimatedCycles=+0").returncode, 1)
        self.assertEqual(run(*loops, "--threshold", "estimatedCycles=100000%").returncode, 0)

    def test_threshold_errors(self):
        args = ["--compare", shader(self.BEFORE), shader(self.AFTER)]
        r = run(*args, "--threshold", "regsters=+4")
        self.assertEqual(r.returncode, 2)
        self.assertIn("did you mean 'registers'", r.stderr)
        for bad in ("registers=lots", "registers=-1", "registers"):
            self.assertEqual(run(*args, "--threshold", bad).returncode, 2, bad)
        self.assertEqual(run(shader(self.BEFORE), "--threshold", "registers=1").returncode, 2)


class Many(unittest.TestCase):
    def test_files_and_directories_give_a_summary_table_and_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "sub"))
            for name, target in (("saxpy.comp.spv", "saxpy.comp.spv"), ("sub/reduce.comp.spv", "reduce.comp.spv"),
                                 ("phong.frag.spv", "phong.frag.spv")):
                with open(shader(target), "rb") as src, open(os.path.join(tmp, name), "wb") as dst:
                    dst.write(src.read())
            with open(os.path.join(tmp, "notes.txt"), "w") as f:
                f.write("not a shader")
            r = run(tmp, "--device", "amd-rdna2")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("3 shaders on AMD Radeon RX 6800 XT", r.stdout)
            # The AMD device reports in RADV's words (its dialect).
            self.assertRegex(r.stdout, r"\n  shader +stage +instructions +vgprs +spilledVgprs +subgroupsPerSimd +latency\n")
            self.assertRegex(r.stdout, r"sub/reduce\.comp\.spv +compute +\d+ +\d+ +\d+ +\d+ +\d+\n")
            self.assertIn("3 analysed, 0 failed", r.stdout)
            d = stats_json(tmp, shader("skinning.vert.spv"))
            self.assertEqual(len(d["shaders"]), 4)
            self.assertEqual(d["failed"], [])
            # One bad file: the rest is still reported, and the exit status says "could not run".
            with open(os.path.join(tmp, "broken.spv"), "wb") as f:
                f.write(b"garbage!")
            r = run(tmp, "--json")
            self.assertEqual(r.returncode, 3)
            d = json.loads(r.stdout)
            self.assertEqual(len(d["shaders"]), 3)
            self.assertEqual(d["failed"], [os.path.join(tmp, "broken.spv")])
        with tempfile.TemporaryDirectory() as empty:
            r = run(empty)
            self.assertEqual(r.returncode, 3)
            self.assertIn("no .spv files", r.stderr)

    def test_compare_directories_matches_by_name(self):
        with tempfile.TemporaryDirectory() as tmp:
            before, after = os.path.join(tmp, "before"), os.path.join(tmp, "after")
            for folder, files in ((before, {"kernel.spv": Compare.BEFORE, "same.spv": "saxpy.comp.spv",
                                            "gone.spv": "reduce.comp.spv"}),
                                  (after, {"kernel.spv": Compare.AFTER, "same.spv": "saxpy.comp.spv",
                                           "new.spv": "reduce.comp.spv"})):
                os.makedirs(folder)
                for name, source in files.items():
                    with open(shader(source), "rb") as src, open(os.path.join(folder, name), "wb") as dst:
                        dst.write(src.read())
            r = run("--compare", before, after)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertRegex(r.stdout, r"\n  kernel\.spv +REGRESSION +.*spills 0 -> \d+ REGRESSION")
            self.assertRegex(r.stdout, r"\n  same\.spv +ok +-\n")
            self.assertIn("  added:   new.spv\n", r.stdout)
            self.assertIn("  removed: gone.spv\n", r.stdout)
            self.assertIn("2 compared, 1 with regressions, 1 added, 1 removed, 0 failed", r.stdout)
            d = json.loads(run("--compare", before, after, "--json").stdout)
            self.assertEqual(d["regressedShaders"], 1)
            self.assertEqual([s["shader"] for s in d["shaders"]], ["kernel.spv", "same.spv"])
            self.assertIn("spills", d["shaders"][0]["regressions"])
            self.assertEqual((d["added"], d["removed"]), (["new.spv"], ["gone.spv"]))
            self.assertEqual(run("--compare", after, after).returncode, 0)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    EXE, SHADERS, DEVICES = sys.argv[1:4]
    unittest.main(argv=[sys.argv[0], "-v"])
