#!/usr/bin/env python3
"""Runs the X11 WSI tests under xvfb-run (Debian xvfb) when it is installed; without it the tests run without a
display and skip themselves with a message saying so."""
import os
import shutil
import subprocess
import sys

program = sys.argv[1]
xvfb = shutil.which("xvfb-run")
env = dict(os.environ)
if xvfb is None:
    print("xvfb-run not installed (Debian xvfb): the X11 tests skip")
    env.pop("DISPLAY", None)
    sys.exit(subprocess.run([program], env=env).returncode)
# -a: a free server number, so parallel runs do not collide; 24-bit TrueColor root window.
sys.exit(subprocess.run([xvfb, "-a", "-s", "-screen 0 320x240x24", program], env=env).returncode)
