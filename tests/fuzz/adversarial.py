#!/usr/bin/env python3
"""Re-runs the adversarial input categories (docs/robustness.md): malformed SPIR-V modules, malformed
configurations / profiles / fault plans, malformed crash dumps. Generates CASES seeded mutations per category from
the fuzzers' seeds, feeds each file to the sanitized entry point (build-fuzz's libFuzzer executable, one process
per file) and, with --tool, to the `crashtest` command (stats / check / decode), and counts: accepted, clean errors,
silent rejections (no message), crashes, hangs, leaks.

Usage: tests/fuzz/adversarial.py [--cases N] [--seed S] [--tool build/tools/crashtest] [--keep DIR]
                                 [--no-entry] [--seeds CATEGORY=DIR]... [CATEGORY...]
Run from the source root after scripts/fuzz has built build-fuzz. Without build-fuzz (its clang build is long on a
busy machine), --no-entry --tool build/tools/crashtest runs the cases through the plain build's command only, with
--seeds spirv=build/tests/shaders and --seeds dump=DIR (dumps a lost device wrote into CRASHTEST_DUMP_DIR)."""
import argparse
import concurrent.futures
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

HANG_SECONDS = 20


def words_of(data):
    n = len(data) // 4
    return list(struct.unpack('<%dI' % n, data[:n * 4]))


def bytes_of(words):
    return struct.pack('<%dI' % len(words), *words)


def instructions(words):
    at, out = 5, []
    while at < len(words):
        count = words[at] >> 16
        if count == 0 or at + count > len(words):
            break
        out.append((at, count))
        at += count
    return out


def mutate_spirv(data, rng):
    w = words_of(data)
    ins = instructions(w)
    kind = rng.randrange(9)
    if kind == 0:  # truncated at a word
        w = w[:rng.randrange(len(w))]
    elif kind == 1:  # bit flips
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(w))
            w[i] ^= 1 << rng.randrange(32)
    elif kind == 2:  # a word replaced by an extreme or random value
        w[rng.randrange(len(w))] = rng.choice([0, 1, 0xffffffff, 0x7fffffff, 0x80000000, rng.getrandbits(32)])
    elif kind == 3 and ins:  # an instruction's word count
        at, count = rng.choice(ins)
        w[at] = (w[at] & 0xffff) | (rng.choice([0, 1, count - 1, count + 1, 0xffff]) & 0xffff) << 16
    elif kind == 4:  # the id bound
        w[3] = rng.choice([0, 1, 2, w[3] - 1, 0xffffffff, 0x400000])
    elif kind == 5 and len(ins) > 2:  # two instructions swapped
        (a, ca), (b, cb) = sorted(rng.sample(ins, 2))
        w = w[:a] + w[b:b + cb] + w[a + ca:b] + w[a:a + ca] + w[b + cb:]
    elif kind == 6 and ins:  # an instruction duplicated
        at, count = rng.choice(ins)
        w = w[:at + count] + w[at:at + count] + w[at + count:]
    elif kind == 7 and ins:  # an instruction removed
        at, count = rng.choice(ins)
        w = w[:at] + w[at + count:]
    elif ins:  # an operand of an instruction set to another id or a constant
        at, count = rng.choice(ins)
        if count > 1:
            w[at + rng.randrange(1, count)] = rng.choice([0, 1, w[3] - 1, w[3], w[3] + 1, rng.randrange(max(w[3], 1))])
    return bytes_of(w)


def extreme_json(rng):
    return rng.choice([
        None, True, -1, 0, 2 ** 64, -(2 ** 63) - 1, 1e308, 0.5, "", "x" * 100000, "\u0000", [], {}, [[[[[]]]]],
        {"a": {"b": {"c": [1, 2, 3]}}}, "builtin:default", "builtin:nonexistent", "/dev/zero", "../../etc/passwd",
        "VK_FORMAT_R8G8B8A8_UNORM", "VK_SAMPLE_COUNT_1_BIT", ["VK_QUEUE_GRAPHICS_BIT"], 4294967296, 18446744073709551615,
    ])


def paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, prefix + (i,))


def replace_at(value, path, new):
    if not path:
        return new
    value[path[0]] = replace_at(value[path[0]], path[1:], new)
    return value


def mutate_json(data, rng):
    kind = rng.randrange(6)
    if kind == 0:  # truncated
        return data[:rng.randrange(len(data))]
    if kind == 1:  # bytes changed, including invalid UTF-8 and NUL
        b = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            b[rng.randrange(len(b))] = rng.choice([0, 0xff, 0xc3, ord('"'), ord('{'), ord(']'), ord(','), rng.randrange(256)])
        return bytes(b)
    if kind == 2:  # deep nesting
        depth = rng.choice([65, 200, 5000, 100000])
        return b'[' * depth + b']' * depth if rng.random() < 0.5 else b'{"devices":' + b'[' * depth + b']' * depth + b'}'
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return data[::-1]
    all_paths = list(paths(doc))
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(all_paths)
        try:
            doc = replace_at(doc, path, extreme_json(rng))
        except (KeyError, IndexError, TypeError):
            pass
        all_paths = list(paths(doc))
    if kind == 4 and isinstance(doc, dict):  # a repeated member name
        return json.dumps(doc).replace('{', '{"faults": [], ', 1).encode()
    return json.dumps(doc).encode()


def mutate_dump(data, rng):
    b = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0:
        return bytes(b[:rng.randrange(len(b))])
    if kind == 1:
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return bytes(b)
    # a size or count field (8-aligned 32- or 64-bit) set to an extreme
    at = rng.randrange(len(b) // 4) * 4
    value = rng.choice([0, 1, 0xffffffff, 0x7fffffff, 0xffffffffffffffff, 1 << 40, len(b), len(b) + 1])
    if at + 8 <= len(b) and rng.random() < 0.5:
        b[at:at + 8] = struct.pack('<Q', value & 0xffffffffffffffff)
    else:
        b[at:at + 4] = struct.pack('<I', value & 0xffffffff)
    return bytes(b)


CATEGORIES = {
    'spirv': (['build-fuzz/seeds/spirv'], mutate_spirv, 'stats', '.spv'),
    'config': (['tests/data/configs', 'tests/data/profiles', 'tests/fault/data'], mutate_json, 'check', '.json'),
    'dump': (['build-fuzz/seeds/dump'], mutate_dump, 'decode', '.dump'),
}


def classify_entry(exe, case):
    env = dict(os.environ, CRASHTEST_FUZZ_OUTCOME='1', CRASHTEST_LOG='error',
               ASAN_OPTIONS='detect_leaks=1', UBSAN_OPTIONS='halt_on_error=1:print_stacktrace=1')
    try:
        r = subprocess.run([exe, '-timeout=%d' % HANG_SECONDS, '-rss_limit_mb=2048', '-malloc_limit_mb=1024', str(case)],
                           capture_output=True, text=True, errors='replace', env=env, timeout=HANG_SECONDS * 3)
    except subprocess.TimeoutExpired:
        return 'hang'
    out = r.stderr
    if 'LeakSanitizer' in out:
        return 'leak'
    if 'libFuzzer: timeout' in out:
        return 'hang'
    if r.returncode != 0 or 'runtime error:' in out:
        return 'crash'
    if 'outcome: accepted' in out:
        return 'accepted'
    if 'outcome: error: \n' in out or 'outcome: error: ' not in out:
        return 'silent'
    return 'clean error'


def classify_tool(tool, command, case):
    try:
        r = subprocess.run([tool, command, str(case)], capture_output=True, text=True, errors='replace',
                           env=dict(os.environ, CRASHTEST_LOG='error'), timeout=HANG_SECONDS * 3)
    except subprocess.TimeoutExpired:
        return 'hang'
    if r.returncode < 0 or r.returncode > 3:
        return 'crash'
    if r.returncode == 0:
        return 'accepted'
    return 'clean error' if (r.stderr.strip() or r.stdout.strip()) else 'silent'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--cases', type=int, default=300)
    parser.add_argument('--seed', type=int, default=18)
    parser.add_argument('--tool', help='the crashtest command to run the cases through as well')
    parser.add_argument('--keep', help='write the cases here instead of a temporary directory')
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--no-entry', action='store_true', help='skip the sanitized entry points (no build-fuzz)')
    parser.add_argument('--seeds', action='append', default=[], metavar='CATEGORY=DIR',
                        help="a category's seed folder instead of build-fuzz's (repeatable)")
    parser.add_argument('categories', nargs='*', choices=[[]] + list(CATEGORIES), help='default: all')
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix='crashtest-adversarial-'))
    failures = []
    seed_override = dict(item.split('=', 1) for item in args.seeds)
    if args.no_entry and not args.tool:
        parser.error('--no-entry needs --tool')
    for name, (seed_dirs, mutate, command, suffix) in CATEGORIES.items():
        if args.categories and name not in args.categories:
            continue
        if name in seed_override:
            seed_dirs = [seed_override[name]]
        seeds = sorted(p for d in seed_dirs for p in Path(d).iterdir()
                       if p.is_file() and (name == 'config' or p.suffix in (suffix, '.ctdump')))
        out = work / name
        out.mkdir(parents=True, exist_ok=True)
        cases = []
        for i in range(args.cases):
            case = out / ('%04d%s' % (i, suffix))
            case.write_bytes(mutate(rng.choice(seeds).read_bytes(), rng))
            cases.append(case)
        runs = [] if args.no_entry else [('entry point',
                                           lambda c: classify_entry('build-fuzz/tests/fuzz/fuzz_' + name, c))]
        if args.tool:
            runs.append(('crashtest ' + command, lambda c, command=command: classify_tool(args.tool, command, c)))
        for label, classify in runs:
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                results = list(pool.map(classify, cases))
            counts = {k: results.count(k) for k in ['accepted', 'clean error', 'silent', 'crash', 'hang', 'leak']}
            print('%-6s %-16s %d cases: %s' % (name, label, len(cases),
                                                ', '.join('%s %d' % (k, v) for k, v in counts.items())))
            failures += [(name, label, str(c), r) for c, r in zip(cases, results)
                         if r in ('silent', 'crash', 'hang', 'leak')]
    for f in failures:
        print('  %s via %s: %s: %s' % f)
    print('cases in', work)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
