#!/usr/bin/env python3
"""Smoke test of the benchmark suites: run each suite once, with a tiny time budget, against one ICD manifest.

Fails (exit 1) when a suite's process crashes or exits non-zero, prints no JSON, runs no benchmark, or skips a
benchmark with a message that does not start with "unsupported:". Exit 77 (meson's "skipped") when the manifest
does not exist yet. No timing is asserted.
"""
import argparse
import json
import os
import subprocess
import sys

# Suite name -> --benchmark_filter regex. Every suite must produce at least one benchmark.
SUITES = {
    "startup": "^BM_Startup",
    "recording": "^BM_Record",
    "submit": "^BM_SubmitWait",
    "copy": "^BM_(CopyBuffer|Memcpy)",
    "pipeline": "^BM_(Compute|Graphics)Pipeline",
    "dispatch": "^BM_Dispatch/",
    "pipeline-then-dispatch": "^BM_PipelineThenDispatch/(saxpy|reduce)\\.comp",  # lavapipe JITs each: keep it short
    "faults": "^BM_Fault",
}


def run_suite(binary, env, name, pattern):
    """Returns a list of problems (empty when the suite passed)."""
    command = [binary, "--benchmark_filter=" + pattern, "--benchmark_min_time=0.001",
               "--benchmark_format=json"]
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=240)
    except subprocess.TimeoutExpired:
        return ["%s: timed out after 240 s" % name]
    if done.returncode != 0:
        return ["%s: exited with %d; stderr:\n%s" % (name, done.returncode, done.stderr[-4000:])]
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError as error:
        return ["%s: output is not JSON (%s); stderr:\n%s" % (name, error, done.stderr[-4000:])]
    benchmarks = report.get("benchmarks", [])
    if not benchmarks:
        return ["%s: no benchmark matched %s" % (name, pattern)]
    problems = []
    for entry in benchmarks:
        message = entry.get("error_message", "")
        if entry.get("error_occurred") and not message.startswith("unsupported:"):
            problems.append("%s: %s failed: %s" % (name, entry.get("name"), message))
        state = "skip (%s)" % message if entry.get("error_occurred") else "ok"
        print("  %-50s %s" % (entry.get("name"), state))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("binary", help="path of crashtest-bench")
    parser.add_argument("--manifest", required=True, help="ICD manifest to run against")
    parser.add_argument("--probe", help="path of startup_probe")
    args = parser.parse_args()
    if not os.path.exists(args.manifest):
        print("bench-smoke: manifest %s does not exist (yet); skipping" % args.manifest)
        return 77
    env = dict(os.environ, VK_ICD_FILENAMES=args.manifest, NODEVICE_SELECT="1",
               MESA_SHADER_CACHE_DISABLE="true")
    env.pop("VK_DRIVER_FILES", None)
    if args.probe:
        env["CRASHTEST_BENCH_PROBE"] = args.probe
    problems = []
    for name, pattern in SUITES.items():
        print("suite %s:" % name)
        problems += run_suite(args.binary, env, name, pattern)
    for problem in problems:
        print("FAIL " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
