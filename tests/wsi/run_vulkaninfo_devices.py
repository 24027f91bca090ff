#!/usr/bin/env python3
"""vulkaninfo (full output) on every built-in device (`crashtest devices --json` lists them; each runs alone, named
by a configuration {"devices": ["builtin:NAME"]}): it exits 0, shows the device and VK_KHR_swapchain, and prints
nothing on stderr but vulkaninfo's own notice that DISPLAY is not set. Then the same under Xvfb (when xvfb-run is
installed), where vulkaninfo also queries the xcb and Xlib surfaces of every device: nothing at all on stderr, and
the device's presentable surfaces listed.

Run as: run_vulkaninfo_devices.py CRASHTEST_TOOL (the environment names the driver, as for every loader test)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

DISPLAY_NOTICE = "'DISPLAY' environment variable not set... skipping surface info"


def builtin_devices(tool):
    listing = subprocess.run([tool, "devices", "--json"], capture_output=True, text=True, timeout=60,
                             env={k: v for k, v in os.environ.items() if k != "CRASHTEST_CONFIG"})
    if listing.returncode != 0:
        raise SystemExit("crashtest devices --json failed:\n" + listing.stderr)
    return [device["name"] for device in json.loads(listing.stdout)["builtins"]]


def check(tool, with_display):
    vulkaninfo = shutil.which("vulkaninfo")
    work = tempfile.mkdtemp(prefix="crashtest-vulkaninfo-")
    failures = []
    try:
        for name in builtin_devices(tool):
            config = os.path.join(work, name + ".json")
            with open(config, "w") as f:
                json.dump({"devices": ["builtin:" + name]}, f)
            env = dict(os.environ)
            env["CRASHTEST_CONFIG"] = config
            env["XDG_RUNTIME_DIR"] = work  # vulkaninfo probes Wayland; without the folder it prints an error
            if not with_display:
                env.pop("DISPLAY", None)
            run = subprocess.run([vulkaninfo], env=env, capture_output=True, text=True, timeout=300)
            what = "vulkaninfo on builtin:%s (%s)" % (name, "Xvfb" if with_display else "no DISPLAY")
            stderr = [line for line in run.stderr.splitlines() if line.strip() and
                      (with_display or line.strip() != DISPLAY_NOTICE)]
            problems = []
            if run.returncode != 0:
                problems.append("exit %d" % run.returncode)
            if stderr:
                problems.append("stderr:\n    " + "\n    ".join(stderr[:20]))
            if "\nGPU0:" not in run.stdout or "VK_KHR_swapchain" not in run.stdout:
                problems.append("the device or its VK_KHR_swapchain is missing from the output")
            if with_display and ("Presentable Surfaces" not in run.stdout or
                                 "VK_KHR_xcb_surface" not in run.stdout.split("Presentable Surfaces", 1)[1]):
                problems.append("no presentable xcb surface listed")
            print("%s: %s" % (what, "; ".join(problems) if problems else "ok (%d lines)" % len(run.stdout.splitlines())))
            failures += problems
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return failures


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--with-display":
        sys.exit(1 if check(sys.argv[2], True) else 0)
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    if shutil.which("vulkaninfo") is None:
        print("vulkaninfo not installed (Debian vulkan-tools): skipped")
        sys.exit(77)
    failed = bool(check(sys.argv[1], False))
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        print("xvfb-run not installed (Debian xvfb): the runs with a display are skipped")
    else:
        run = subprocess.run([xvfb, "-a", sys.executable, os.path.abspath(__file__), "--with-display", sys.argv[1]])
        failed = failed or run.returncode != 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
