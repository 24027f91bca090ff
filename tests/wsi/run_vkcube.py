#!/usr/bin/env python3
"""Debian's vkcube (vulkan-tools) against crashtest under Xvfb (docs/wsi.md, "Tests"):

1. vkcube --c N exits 0 on crashtest, and its last frame, captured as a PNG (CRASHTEST_CAPTURE_DIR), shows the cube
   as lavapipe draws it;
2. with a device-lost fault at the 5th present, vkcube stops on its own check of vkQueuePresentKHR's result
   (an assertion: exit by SIGABRT) after crashtest has said why, and the crash dump names the frames kept for the
   loss (options.captureLast), which exist.

Seeing lavapipe's frames: Debian's lavapipe has no frame capture, and the only Debian tool that reads a window
(xwd, x11-apps) is not a dependency; but Xvfb keeps its screen in an XWD file with -fbdir, which this script reads
(frame_compare.py) while vkcube runs on lavapipe. The cube turns 4 degrees per frame and a grab cannot be tied to
a frame number, so crashtest's frame is compared with many grabs of lavapipe's run (several turns):

- robust statistics of the non-background samples: coverage, bounding box, mean colour, each within the range
  lavapipe's grabs span (widened by a tolerance for the angle between grabs);
- the mean absolute difference (0-255 per channel) between each of crashtest's frames and the closest of
  lavapipe's grabs: lavapipe's run passes every angle several times, so some grab shows a crashtest frame's very
  angle, and a correct frame then differs only at a few edge samples.

Exit 77 (skipped) without vkcube or xvfb-run. Run as: run_vkcube.py CRASHTEST_MANIFEST CRASHTEST_TOOL."""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import frame_compare  # noqa: E402

LAVAPIPE = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
FRAMES = 30             # crashtest's frames (vkcube --c): 120 degrees of turn
LAVAPIPE_FRAMES = 400   # lavapipe's run: several turns, grabbed as it goes
MIN_GRABS = 24
LAVAPIPE_RUNS = 4       # lavapipe runs at most, until MIN_GRABS grabs are read
SCREEN = 640            # the X screen; vkcube's window is 500 x 500 inside it
WINDOW = 500
# Mean absolute difference (0-255 per channel) to the closest lavapipe grab: some crashtest frame has the same
# angle as a grab (the same frame number, or 90 frames apart: a whole turn) and must match it but for a few edge
# samples; every frame must be near some grab. For scale: red and blue swapped, the picture mirrored, the cube 20%
# darker or shifted by 8 pixels each give 2 to 4, an empty frame 7.
MATCH = 1.0
MAX_DIFFERENCE = 6.0
CANDIDATES = 6          # the grabs nearest by statistics that are compared sample by sample
COVERAGE_SLACK = 0.15   # relative
BOX_SLACK = 16          # pixels
COLOUR_SLACK = 10.0     # 0-255
LOST_AT_PRESENT = 5


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def vulkan_env(manifest, extra=None):
    env = dict(os.environ)
    for name in ("VK_ICD_FILENAMES", "VK_DRIVER_FILES", "CRASHTEST_CONFIG", "CRASHTEST_CAPTURE_DIR",
                 "CRASHTEST_DUMP_DIR", "VK_INSTANCE_LAYERS"):
        env.pop(name, None)
    env["VK_ICD_FILENAMES"] = manifest
    env["NODEVICE_SELECT"] = "1"
    env.update(extra or {})
    return env


def window_origin(path):
    """The top-left corner of vkcube's window: the first sample that is not the (black) root window."""
    with open(path, "rb") as f:
        data = f.read()
    grid = frame_compare.xwd_grid_from_bytes(data, SCREEN, SCREEN, 0, 0, step=1)
    for y, row in enumerate(grid.pixels):
        for x, p in enumerate(row):
            if p != (0, 0, 0):
                return x, y
    return None


def grab_lavapipe(fbdir, work):
    """Runs vkcube on lavapipe and reads Xvfb's screen file while it runs; returns the grids of the grabs (only
    grabs read twice alike, so never a frame half drawn)."""
    screen_file = os.path.join(fbdir, "Xvfb_screen0")
    process = subprocess.Popen(["vkcube", "--c", str(LAVAPIPE_FRAMES)], env=vulkan_env(LAVAPIPE),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    raw, origin = [], None
    while process.poll() is None:
        with open(screen_file, "rb") as f:
            first = f.read()
        with open(screen_file, "rb") as f:
            second = f.read()
        if first == second and (not raw or raw[-1] != first):
            raw.append(first)
        time.sleep(0.005)
    output = process.communicate()[0]
    if process.returncode != 0:
        fail("vkcube on lavapipe exited %d:\n%s" % (process.returncode, output))
    grids = []
    for data in raw:
        if origin is None:
            path = os.path.join(work, "first-grab.xwd")
            with open(path, "wb") as f:
                f.write(data)
            origin = window_origin(path)
            if origin is None:
                continue
        grid = frame_compare.xwd_grid_from_bytes(data, WINDOW, WINDOW, origin[0], origin[1])
        if frame_compare.statistics(grid)["coverage"] > 0:
            grids.append(grid)
    return grids


def closest(mine, mine_stats, grabs, grab_stats):
    """The smallest difference between `mine` and a grab, among the grabs whose statistics are nearest."""
    def distance(t):
        if "box" not in t or "box" not in mine_stats:
            return float("inf")
        return abs(t["coverage"] - mine_stats["coverage"]) * 1000 + sum(
            abs(a - b) for a, b in zip(t["box"], mine_stats["box"]))
    nearest = sorted(range(len(grabs)), key=lambda i: distance(grab_stats[i]))[:CANDIDATES]
    return min(frame_compare.difference(mine, grabs[i]) for i in nearest)


def compare(crashtest_pngs, grabs):
    theirs = [frame_compare.statistics(g) for g in grabs]
    mine = [frame_compare.png_grid(p) for p in crashtest_pngs]
    mine_stats = [frame_compare.statistics(g) for g in mine]
    stats = mine_stats[-1]
    report = ["crashtest's last frame (%s): coverage %.3f, box %s, mean colour (%.1f, %.1f, %.1f)"
              % (os.path.basename(crashtest_pngs[-1]), stats["coverage"], stats.get("box"),
                 *stats.get("mean", (0, 0, 0)))]
    coverage = [t["coverage"] for t in theirs]
    report.append("lavapipe, %d grabs: coverage %.3f-%.3f" % (len(grabs), min(coverage), max(coverage)))
    problems = []
    if stats["background"] != theirs[0]["background"]:
        problems.append("background %s, lavapipe's %s" % (stats["background"], theirs[0]["background"]))
    if not min(coverage) * (1 - COVERAGE_SLACK) <= stats["coverage"] <= max(coverage) * (1 + COVERAGE_SLACK):
        problems.append("coverage %.3f outside lavapipe's %.3f-%.3f" % (stats["coverage"], min(coverage),
                                                                     max(coverage)))
    if "box" not in stats:
        problems.append("the last frame shows no cube")
    else:
        for i, name in enumerate(("left", "top", "right", "bottom")):
            values = [t["box"][i] for t in theirs]
            report.append("  %s: crashtest %d, lavapipe %d-%d" % (name, stats["box"][i], min(values), max(values)))
            if not min(values) - BOX_SLACK <= stats["box"][i] <= max(values) + BOX_SLACK:
                problems.append("bounding box %s %d outside lavapipe's %d-%d" % (name, stats["box"][i], min(values),
                                                                                max(values)))
        for i, name in enumerate(("red", "green", "blue")):
            values = [t["mean"][i] for t in theirs]
            report.append("  mean %s: crashtest %.1f, lavapipe %.1f-%.1f" % (name, stats["mean"][i], min(values),
                                                                             max(values)))
            if not min(values) - COLOUR_SLACK <= stats["mean"][i] <= max(values) + COLOUR_SLACK:
                problems.append("mean %s %.1f outside lavapipe's %.1f-%.1f" % (name, stats["mean"][i], min(values),
                                                                             max(values)))
    best = [closest(m, ms, grabs, theirs) for m, ms in zip(mine, mine_stats)]
    report.append("difference to the closest lavapipe grab (0-255 per channel), per crashtest frame: " +
                  " ".join("%.2f" % b for b in best))
    if min(best) > MATCH:
        problems.append("no crashtest frame matches a lavapipe grab within %.1f (closest %.2f)" % (MATCH, min(best)))
    if max(best) > MAX_DIFFERENCE:
        problems.append("frame %d is %.2f from every lavapipe grab (at most %.1f)" % (
            best.index(max(best)) + 1, max(best), MAX_DIFFERENCE))
    return report, problems


def run_crashtest(manifest, work):
    captures = os.path.join(work, "frames")
    process = subprocess.run(["vkcube", "--c", str(FRAMES)],
                             env=vulkan_env(manifest, {"CRASHTEST_CAPTURE_DIR": captures, "CRASHTEST_LOG": "warn"}),
                             capture_output=True, text=True, timeout=600)
    print("vkcube --c %d on crashtest: exit %d" % (FRAMES, process.returncode))
    if process.stderr.strip():
        print("its stderr (crashtest warnings name what the driver does not do):\n" + process.stderr)
    if process.returncode != 0:
        fail("vkcube exited %d on crashtest:\n%s%s" % (process.returncode, process.stdout, process.stderr))
    # A draw state the rasteriser does not handle is logged as a warning: vkcube must need none.
    warnings = [line for line in process.stderr.splitlines() if line.startswith("crashtest:")]
    if warnings:
        fail("crashtest warned while vkcube ran:\n" + "\n".join(warnings[:20]))
    frames = sorted(glob.glob(os.path.join(captures, "*.png")))
    if len(frames) != FRAMES:
        fail("%d frames captured, expected %d" % (len(frames), FRAMES))
    return frames


def run_device_lost(manifest, tool, work):
    config = os.path.join(work, "lost.json")
    with open(config, "w") as f:
        json.dump({"faults": [{"id": "lost-at-present", "when": {"present": LOST_AT_PRESENT},
                               "effect": "device-lost"}],
                   "options": {"captureEvery": 0, "captureLast": 2}}, f)
    captures, dumps = os.path.join(work, "lost-frames"), os.path.join(work, "dumps")
    process = subprocess.run(["vkcube", "--c", "50"],
                             env=vulkan_env(manifest, {"CRASHTEST_CONFIG": config, "CRASHTEST_CAPTURE_DIR": captures,
                                                       "CRASHTEST_DUMP_DIR": dumps}),
                             capture_output=True, text=True, timeout=600)
    print("vkcube --c 50 on crashtest, device lost at present %d: exit %d\n%s"
          % (LOST_AT_PRESENT, process.returncode, process.stderr))
    # vkcube checks vkQueuePresentKHR's result with assert(): VK_ERROR_DEVICE_LOST aborts it.
    if process.returncode != -signal.SIGABRT:
        fail("vkcube exited %d, expected to abort (-%d) on VK_ERROR_DEVICE_LOST" % (process.returncode,
                                                                                 signal.SIGABRT))
    expected = "fault 'lost-at-present' fired at present %d: device lost" % LOST_AT_PRESENT
    if expected not in process.stderr:
        fail("crashtest did not say \"%s\"" % expected)
    if "demo_draw: Assertion" not in process.stderr:
        fail("vkcube did not stop at its check of the present's result in demo_draw")
    frames = sorted(glob.glob(os.path.join(captures, "*-before-loss.png")))
    wanted = ["frame%06d-before-loss.png" % n for n in (LOST_AT_PRESENT - 2, LOST_AT_PRESENT - 1)]
    if [f[-len(w):] for f, w in zip(frames, wanted)] != wanted or len(frames) != 2:
        fail("frames kept for the loss: %s, expected %s" % (frames, wanted))
    dump_files = glob.glob(os.path.join(dumps, "*"))
    if len(dump_files) != 1:
        fail("expected one crash dump in %s, found %s" % (dumps, dump_files))
    decoded = subprocess.run([tool, "decode", "--json", dump_files[0]], capture_output=True, text=True, timeout=60)
    if decoded.returncode != 0:
        fail("crashtest decode failed:\n" + decoded.stdout + decoded.stderr)
    named = [f["path"] for f in json.loads(decoded.stdout).get("capturedFrames", [])]
    if named != frames:
        fail("the dump names %s, the folder holds %s" % (named, frames))
    print("the crash dump names the frames kept for the loss: " + ", ".join(os.path.basename(n) for n in named))


def inner(manifest, tool, fbdir):
    work = tempfile.mkdtemp(prefix="crashtest-vkcube-")
    try:
        frames = run_crashtest(manifest, work)
        # How many of lavapipe's frames the polling reads twice alike depends on the machine's load (under a
        # sanitizer's preload and a busy CI machine, one run of 400 frames gave 18): more runs add more angles.
        grabs = []
        for _ in range(LAVAPIPE_RUNS):
            grabs += grab_lavapipe(fbdir, work)
            if len(grabs) >= MIN_GRABS:
                break
        if len(grabs) < MIN_GRABS:
            fail("only %d whole frames of lavapipe's vkcube were read in %d runs (at least %d needed)"
                 % (len(grabs), LAVAPIPE_RUNS, MIN_GRABS))
        report, problems = compare(frames, grabs)
        print("\n".join(report))
        if problems:
            shutil.copy(frames[-1], os.path.join(tempfile.gettempdir(), "crashtest-vkcube-last-frame.png"))
            fail("crashtest's frame does not show lavapipe's cube: " + "; ".join(problems))
        run_device_lost(manifest, tool, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("PASS")


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--inner":
        return inner(sys.argv[2], sys.argv[3], sys.argv[4])
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    xvfb = shutil.which("xvfb-run")
    if shutil.which("vkcube") is None or xvfb is None:
        print("vkcube (vulkan-tools) or xvfb-run (xvfb) not installed: skipped")
        sys.exit(77)
    fbdir = tempfile.mkdtemp(prefix="crashtest-xvfb-")
    try:
        # -a: a free server number; -br: a black root window, so vkcube's window is easy to find; -noreset: the
        # server would reset when the first vkcube disconnects, and refuse the next for a while; -fbdir: the
        # screen in a file (XWD), which is how lavapipe's frames are read.
        server = "-screen 0 %dx%dx24 -br -noreset -fbdir %s" % (SCREEN, SCREEN, fbdir)
        run = subprocess.run([xvfb, "-a", "-s", server, sys.executable, os.path.abspath(__file__), "--inner",
                              sys.argv[1], sys.argv[2], fbdir])
        sys.exit(run.returncode)
    finally:
        shutil.rmtree(fbdir, ignore_errors=True)


if __name__ == "__main__":
    main()
