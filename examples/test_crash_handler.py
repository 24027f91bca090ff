#!/usr/bin/env python3
"""Runs examples/crash_handler against crashtest the way a CI job would: once with a fault plan (the program must
handle the crash and write a dump we can check), once without (it must render every frame and report no crash)."""
import os
import struct
import subprocess
import sys
import tempfile


def main():
    binary, config = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, "dump")
        env = dict(os.environ, CRASHTEST_CONFIG=config)
        run = subprocess.run([binary, "--dump-dir", dump], env=env, capture_output=True, text=True, timeout=60)
        print(run.stdout, run.stderr, sep="")
        if run.returncode != 0:
            failures.append(f"with the plan: exit status {run.returncode}, expected 0")
        else:
            if "VK_ERROR_DEVICE_LOST at frame 5" not in run.stdout:
                failures.append("the loss did not happen at frame 5 (the plan's fifth submit)")
            with open(os.path.join(dump, "reports.txt")) as f:
                reports = f.read()
            for expected in ("reports: 1", "DEVICE_LOST", "MEMORY_ADDRESS", "VENDOR",
                             "shader read from an unmapped page", "address 0x7f0000 (precision 4096",
                             "TLB miss in the texture unit (code 0x21"):
                if expected not in reports:
                    failures.append(f"reports.txt lacks {expected!r}:\n{reports}")
            with open(os.path.join(dump, "vendor.bin"), "rb") as f:
                blob = f.read()
            if len(blob) < 56:
                failures.append(f"vendor.bin has {len(blob)} bytes, less than the 56-byte header")
            else:
                header_size, header_version = struct.unpack_from("<II", blob, 0)
                if (header_size, header_version) != (56, 1):
                    failures.append(f"vendor.bin header: size {header_size}, version {header_version}; expected 56, 1")
                if b"crash_handler" not in blob:
                    failures.append("vendor.bin does not name the application")

        env = {k: v for k, v in os.environ.items() if k != "CRASHTEST_CONFIG"}
        run = subprocess.run([binary, "--dump-dir", dump + "2", "--frames", "3"], env=env, capture_output=True,
                             text=True, timeout=60)
        print(run.stdout, run.stderr, sep="")
        if run.returncode != 1 or "3 frames, no crash" not in run.stdout:
            failures.append(f"without a plan: exit status {run.returncode} (expected 1, no crash)")
        if os.path.exists(dump + "2"):
            failures.append("without a crash no dump may be written")

    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
