#!/usr/bin/env python3
"""Runs examples/compute_squares against crashtest: the buffer must come back computed (1000 of 1000 correct),
and the off-by-one kernel must lose the device with a report that names the write, its address and source line."""
import subprocess
import sys


def main():
    binary, shader_dir = sys.argv[1], sys.argv[2]
    run = subprocess.run([binary, shader_dir], capture_output=True, text=True, timeout=60)
    print(run.stdout, run.stderr, sep="")
    failures = []
    if run.returncode != 0:
        failures.append(f"exit status {run.returncode}, expected 0")
    for expected in ("values[0..7] = 7 8 11 16 23 32 43 56; 1000 of 1000 correct",
                     "squares_off_by_one.comp: VK_ERROR_DEVICE_LOST",
                     "fault: out-of-bounds write", "squares_off_by_one.comp:8", "workgroup (15,0,0), invocation 40",
                     "address WRITE_INVALID 0x", "address INSTRUCTION_POINTER_FAULT"):
        if expected not in run.stdout:
            failures.append(f"the output lacks {expected!r}")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
