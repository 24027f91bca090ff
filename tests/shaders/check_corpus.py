#!/usr/bin/env python3
"""shader-corpus-valid: spirv-val over every corpus module, then the corpus's own promises.

Fails (exit 1) on any spirv-val error and on any broken promise: a source file not compiled, a missing header
comment, a module missing from corpus.txt, too few shaders or stages, a construct the compiler issue lists
that no shader exercises any more, or a stats family whose defining property no longer holds.
"""
import argparse
import os
import subprocess
import sys

STAGES = ("comp", "vert", "frag", "geom", "tesc", "tese")
# Constructs the compiler issue requires the corpus to exercise, as manifest tags.
REQUIRED_TAGS = ("atomics", "barrier", "bda", "calls", "demote", "derivatives", "fp16", "fp64", "glsl450",
                 "image", "int16", "int64", "loop", "push_constants", "sampling", "shared", "specconst",
                 "subgroup", "switch", "terminate")
MIN_SHADERS, MIN_COMPUTE = 48, 28
SHARED_EXPECTED = {"stats_shared_1k.comp.spv": 1024, "stats_shared_4k.comp.spv": 4096,
                   "stats_shared_16k.comp.spv": 16384}
PRESSURE = (4, 16, 32, 64, 96, 160)


def parse_manifest(path):
    entries = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) < 3:
                raise ValueError(f"{path}:{number}: expected '<file> <stage> <tags> key=value...'")
            entry = {"stage": fields[1], "tags": set(fields[2].split(","))}
            for kv in fields[3:]:
                key, _, value = kv.partition("=")
                entry[key] = value
            if fields[0] in entries:
                raise ValueError(f"{path}:{number}: {fields[0]} listed twice")
            entries[fields[0]] = entry
    return entries


def source_files(source_dir):
    found = []
    for sub in ("", "stats"):
        directory = os.path.join(source_dir, sub)
        for name in sorted(os.listdir(directory)):
            if name.rsplit(".", 1)[-1] in STAGES:
                found.append(os.path.join(sub, name) if sub else name)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spirv-val", required=True)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("modules", nargs="+")
    args = parser.parse_args()
    errors = []

    # 1. spirv-val on every module.
    for module in args.modules:
        result = subprocess.run([args.spirv_val, "--target-env", "vulkan1.3", module],
                                capture_output=True, text=True)
        if result.returncode != 0:
            errors.append(f"spirv-val rejected {os.path.basename(module)}:\n{result.stdout}{result.stderr}")

    # 2. Every source is compiled and carries a header comment naming itself.
    built = {os.path.basename(m) for m in args.modules}
    for rel in source_files(args.source_dir):
        spv = ("stats_" + os.path.basename(rel) if rel.startswith("stats") else rel) + ".spv"
        if spv not in built:
            errors.append(f"{rel} is not compiled: add it to tests/shaders/meson.build")
        with open(os.path.join(args.source_dir, rel), encoding="utf-8") as f:
            first = f.readline()
        # identical_b is a byte copy of identical_a, so its header names both files.
        if not first.startswith("// ") or rel not in first:
            errors.append(f"{rel}: first line must be a header comment '// {rel} — what it exercises'")

    # 3. The manifest lists exactly the built modules.
    manifest = parse_manifest(args.manifest)
    if set(manifest) != built:
        errors.append(f"corpus.txt and the build disagree: only in manifest {sorted(set(manifest) - built)}, "
                      f"only built {sorted(built - set(manifest))}")

    # 4. Size and coverage of the general corpus.
    general = {k: v for k, v in manifest.items() if "stats" not in v["tags"]}
    compute = [k for k, v in general.items() if v["stage"] == "comp"]
    if len(general) < MIN_SHADERS or len(compute) < MIN_COMPUTE:
        errors.append(f"corpus has {len(general)} shaders ({len(compute)} compute); "
                      f"needs >= {MIN_SHADERS} ({MIN_COMPUTE} compute)")
    stages = {v["stage"] for v in general.values()}
    for stage in STAGES:
        if stage not in stages:
            errors.append(f"no shader of stage {stage}")
    tags = set().union(*(v["tags"] for v in general.values())) if general else set()
    for tag in REQUIRED_TAGS:
        if tag not in tags:
            errors.append(f"no shader exercises '{tag}' any more")
    for name, entry in manifest.items():
        if entry["stage"] == "comp" and entry.get("local_size", "-") == "-":
            errors.append(f"{name}: compute shader without a workgroup size in corpus.txt")

    # 5. Stats families keep their defining property.
    for name, expected in SHARED_EXPECTED.items():
        got = manifest.get(name, {}).get("shared_bytes")
        if got != str(expected):
            errors.append(f"{name}: declared shared memory is {got}, expected {expected}")
    for n in PRESSURE:
        if f"stats_pressure_{n:02d}.comp.spv" not in manifest:
            errors.append(f"stats_pressure_{n:02d}.comp.spv missing")
    by_name = {os.path.basename(m): m for m in args.modules}
    pair = [by_name.get(f"stats_identical_{s}.comp.spv") for s in "ab"]
    if None in pair:
        errors.append("identical_a/identical_b pair missing")
    else:
        with open(pair[0], "rb") as a, open(pair[1], "rb") as b:
            if a.read() != b.read():
                errors.append("stats_identical_a.comp.spv and stats_identical_b.comp.spv differ")
    for name in ("stats_compare_before.comp.spv", "stats_compare_after.comp.spv",
                 "stats_loop_none.comp.spv", "stats_loop_8.comp.spv", "stats_loop_64.comp.spv"):
        if name not in manifest:
            errors.append(f"{name} missing")
    loop_tags = {s: manifest.get(f"stats_loop_{s}.comp.spv", {}).get("tags", set()) for s in ("none", "8", "64")}
    if "loop" in loop_tags["none"]:
        errors.append("stats_loop_none.comp.spv contains a loop; it must be the straight-line body")
    for s in ("8", "64"):
        if "loop" not in loop_tags[s]:
            errors.append(f"stats_loop_{s}.comp.spv has no loop (was it unrolled?)")

    for error in errors:
        print("FAIL: " + error, file=sys.stderr)
    if errors:
        return 1
    print(f"ok: {len(args.modules)} modules valid; {len(general)} corpus shaders ({len(compute)} compute), "
          f"{len(manifest) - len(general)} stats shaders")
    return 0


if __name__ == "__main__":
    sys.exit(main())
