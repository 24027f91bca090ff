#!/usr/bin/env python3
"""Fails unless the driver library's dynamic symbol table exports exactly the three vk_icd* functions."""
import subprocess
import sys

EXPECTED = {"vk_icdNegotiateLoaderICDInterfaceVersion", "vk_icdGetInstanceProcAddr", "vk_icdGetPhysicalDeviceProcAddr"}

library = sys.argv[1]
output = subprocess.run(["nm", "-D", "--defined-only", library], check=True, capture_output=True, text=True).stdout
exported = set()
for line in output.splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] in "TtWwDdBbVvRr":
        exported.add(parts[2].split("@")[0])
if exported != EXPECTED:
    print("exported symbols differ from the three vk_icd* functions:")
    for name in sorted(exported - EXPECTED):
        print("  unexpected:", name)
    for name in sorted(EXPECTED - exported):
        print("  missing:", name)
    sys.exit(1)
print("exports:", ", ".join(sorted(exported)))
