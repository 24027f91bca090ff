#!/usr/bin/env python3
"""Runs vulkaninfo against the build tree's driver: it must exit 0, show the device, and print no error."""
import os
import shutil
import subprocess
import sys
import tempfile

vulkaninfo = shutil.which("vulkaninfo")
if vulkaninfo is None:
    print("vulkaninfo not installed (Debian vulkan-tools): skipped")
    sys.exit(77)
env = dict(os.environ)
env.pop("CRASHTEST_CONFIG", None)
# vulkaninfo probes Wayland; without a runtime directory it prints an error of its own.
runtime_dir = tempfile.mkdtemp(prefix="crashtest-xdg-")
env["XDG_RUNTIME_DIR"] = runtime_dir

# vulkaninfo (1.3.239, full mode) creates a device with VK_KHR_swapchain to probe presentation; the loader refused
# it with these two lines while crashtest had no window-system integration (docs/wsi.md). They must not come back.
WSI_PROBE_ERRORS = ("VK_KHR_swapchain not supported",
                    "Failed to validate extensions in list")
failures = []
for args in ([], ["--summary"]):
    run = subprocess.run([vulkaninfo] + args, env=env, capture_output=True, text=True, timeout=120)
    name = " ".join(["vulkaninfo"] + args)
    if run.returncode != 0:
        failures.append(f"{name} exited {run.returncode}")
    if "crashtest default GPU" not in run.stdout:
        failures.append(f"{name} did not show the device")
    for probe in WSI_PROBE_ERRORS:
        if probe in run.stderr:
            failures.append(f"{name}: the loader still refuses VK_KHR_swapchain (\"{probe}\")")
    if "VK_KHR_swapchain" not in run.stdout and not args:
        failures.append(f"{name} does not list VK_KHR_swapchain")
    bad = [line for line in run.stderr.splitlines() if "error" in line.lower() or "crashtest:" in line]
    if bad:
        failures.append(f"{name} printed errors:\n  " + "\n  ".join(bad[:20]))
for f in failures:
    print(f)
sys.exit(1 if failures else 0)
