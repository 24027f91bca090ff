#!/usr/bin/env python3
"""Runs examples/crash_handler against crashtest the way a CI job would: once with a fault plan (the program must
handle the crash and write a dump we can check, the driver must write the same vendor binary into
CRASHTEST_DUMP_DIR, and `crashtest decode` must read it), once without (it must render every frame and report no
crash)."""
import json
import os
import struct
import subprocess
import sys
import tempfile


def main():
    binary, config, crashtest = sys.argv[1], sys.argv[2], sys.argv[3]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, "dump")
        driver_dumps = os.path.join(tmp, "driver-dumps")
        env = dict(os.environ, CRASHTEST_CONFIG=config, CRASHTEST_DUMP_DIR=driver_dumps)
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
            files = sorted(os.listdir(driver_dumps)) if os.path.isdir(driver_dumps) else []
            if len(files) != 1 or not files[0].endswith(".ctdump"):
                failures.append(f"CRASHTEST_DUMP_DIR holds {files}, expected one .ctdump file")
            else:
                with open(os.path.join(driver_dumps, files[0]), "rb") as f:
                    if f.read() != blob:
                        failures.append("the driver's dump file differs from vkGetDeviceFaultDebugInfoKHR's bytes")
                if "crash dump written to" not in run.stderr:
                    failures.append("the dump file's path was not logged")
            decode = subprocess.run([crashtest, "decode", os.path.join(dump, "vendor.bin")], capture_output=True,
                                    text=True, timeout=60)
            print(decode.stdout, decode.stderr, sep="")
            if decode.returncode != 0:
                failures.append(f"crashtest decode: exit status {decode.returncode}")
            for expected in ('"page-fault-frame-5"', "DEVICE_LOST | MEMORY_ADDRESS | VENDOR",
                             "shader read from an unmapped page", "address 0x7f0000 (READ_INVALID, precision 4096)",
                             'application: "crash_handler"'):
                if expected not in decode.stdout:
                    failures.append(f"crashtest decode lacks {expected!r}")
            decode = subprocess.run([crashtest, "decode", "--json", os.path.join(dump, "vendor.bin")],
                                    capture_output=True, text=True, timeout=60)
            try:
                report = json.loads(decode.stdout)
                if report["faults"][0]["address"]["address"] != "0x7f0000":
                    failures.append(f"crashtest decode --json: {report['faults'][0]}")
            except (ValueError, KeyError, IndexError) as e:
                failures.append(f"crashtest decode --json: {e}: {decode.stdout[:200]}")
            # A dump cut short (an upload that stopped half-way) is named as such, never half-decoded.
            truncated = os.path.join(tmp, "truncated.bin")
            with open(truncated, "wb") as f:
                f.write(blob[: len(blob) // 2])
            decode = subprocess.run([crashtest, "decode", truncated], capture_output=True, text=True, timeout=60)
            if decode.returncode != 1 or "not a valid crashtest crash dump" not in decode.stderr or decode.stdout:
                failures.append(f"crashtest decode of a truncated dump: exit {decode.returncode}, {decode.stderr!r}")

        env = {k: v for k, v in os.environ.items() if k not in ("CRASHTEST_CONFIG", "CRASHTEST_DUMP_DIR")}
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
