#!/usr/bin/env python3
"""Runs the CI recipes of docs/ci.md: reads the GitHub Actions and GitLab CI jobs out of the page, checks that they
run the same commands, then runs those commands in a scratch workspace laid out as the recipes assume (the engine
of tests/ci/engine, ci/crashtest.json from the page, crashtest as third_party/crashtest). Two steps are not run:
the package installation (each package must be installed instead) and the build of crashtest (the build tree the
tests run from stands in for crashtest-build; the meson options the recipe passes must exist).

Usage: test_ci_recipes.py SOURCE_DIR BUILD_DIR CRASH_HANDLER_EXE"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

SOURCE = BUILD = CRASH_HANDLER = ""
DRIVER_VARIABLES = ("CRASHTEST_CONFIG", "CRASHTEST_DUMP_DIR", "CRASHTEST_LOG", "CRASHTEST_LOG_FILE",
                    "VK_ICD_FILENAMES", "VK_DRIVER_FILES", "NODEVICE_SELECT", "VK_INSTANCE_LAYERS")


def fenced_block(page, heading, language):
    section = page.split("\n## " + heading + "\n", 1)[1]
    return section.split("```" + language + "\n", 1)[1].split("\n```", 1)[0]


def github_commands(block):
    commands = []
    lines = block.split("\n")
    for i, line in enumerate(lines):
        if line.strip() != "run: |":
            continue
        indent = len(line) - len(line.lstrip()) + 2
        for body in lines[i + 1:]:
            if not body.startswith(" " * indent):
                break
            commands.append(body.strip())
    return commands


def gitlab_commands(block):
    script = block.split("  script:\n", 1)[1]
    commands = []
    for line in script.split("\n"):
        if not line.startswith("    - "):
            break
        commands.append(line[len("    - "):].strip())
    return commands


def main():
    failures = []
    with open(os.path.join(SOURCE, "docs", "ci.md"), encoding="utf-8") as f:
        page = f.read()
    github = github_commands(fenced_block(page, "GitHub Actions", "yaml"))
    gitlab = gitlab_commands(fenced_block(page, "GitLab CI", "yaml"))
    if github != gitlab:
        failures.append("the recipes differ:\n  GitHub: %s\n  GitLab: %s" % (github, gitlab))
    config = page.split("```json\n", 1)[1].split("\n```", 1)[0]
    with open(os.path.join(SOURCE, "meson_options.txt"), encoding="utf-8") as f:
        meson_options = set(re.findall(r"option\('([a-z_]+)'", f.read()))

    with tempfile.TemporaryDirectory() as workspace:
        subprocess.run(["cp", "-r", os.path.join(SOURCE, "tests", "ci", "engine", "."), workspace], check=True)
        os.makedirs(os.path.join(workspace, "ci"))
        with open(os.path.join(workspace, "ci", "crashtest.json"), "w", encoding="utf-8") as f:
            f.write(config)
        os.makedirs(os.path.join(workspace, "third_party"))
        os.symlink(SOURCE, os.path.join(workspace, "third_party", "crashtest"))
        env = {k: v for k, v in os.environ.items() if k not in DRIVER_VARIABLES}
        env["ENGINE_TEST_PROGRAM"] = CRASH_HANDLER
        output = ""
        for command in github:
            words = shlex.split(command)
            if words[:2] == ["apt-get", "update"]:
                continue
            if words[:2] == ["apt-get", "install"]:
                for package in [w for w in words[2:] if not w.startswith("-")]:
                    status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True,
                                            text=True).stdout
                    if "install ok installed" not in status:
                        failures.append("package %s of the recipe is not installed here" % package)
                continue
            if words[:2] == ["meson", "setup"]:
                build_dir, source_dir = words[2], words[3]
                if os.path.realpath(os.path.join(workspace, source_dir)) != os.path.realpath(SOURCE):
                    failures.append("meson setup builds %s, not crashtest" % source_dir)
                for option in [w[2:].split("=")[0] for w in words[4:] if w.startswith("-D")]:
                    if option not in meson_options:
                        failures.append("meson option -D%s does not exist" % option)
                os.symlink(BUILD, os.path.join(workspace, build_dir))
                continue
            if words[:2] == ["meson", "compile"]:
                for built in ("crashtest_icd.json", os.path.join("tools", "crashtest")):
                    if not os.path.exists(os.path.join(workspace, words[3], built)):
                        failures.append("meson compile should have produced " + built)
                continue
            r = subprocess.run(["bash", "-ec", command], cwd=workspace, env=env, capture_output=True, text=True,
                               timeout=600)
            output = r.stdout + r.stderr
            print("$ " + command + "\n" + output)
            if r.returncode != 0:
                failures.append("`%s` exited with %d" % (command, r.returncode))
                break
        else:
            last = output.strip().splitlines()[-1] if output.strip() else ""
            if not last.startswith("crashtest run: exit status 0; devices: AMD Radeon RX 6800 XT (crashtest "
                                   "emulation), Mali-G78 (crashtest emulation); faults fired: 1 (lost-at-frame-2)"):
                failures.append("unexpected summary line: " + last)
            for artefact in ("crash-dumps", "crashtest.log", os.path.join("build", "frames")):
                if not os.path.exists(os.path.join(workspace, artefact)):
                    failures.append("artefact %s was not produced" % artefact)
            log = os.path.join(workspace, "crashtest.log")
            if os.path.exists(log):
                with open(log, encoding="utf-8") as f:
                    if "fault 'lost-at-frame-2' fired" not in f.read():
                        failures.append("crashtest.log does not record the fault")

    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    SOURCE, BUILD, CRASH_HANDLER = (os.path.abspath(a) for a in sys.argv[1:4])
    sys.exit(main())
