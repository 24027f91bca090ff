#!/usr/bin/env python3
"""Writes the crashtest(1) man page from the tool's own help (`crashtest --help`, `crashtest help SUBCOMMAND`), so
the page can never disagree with the program. The help text is plain text laid out for a terminal; it goes into
the page as indented, unfilled paragraphs under one section per subcommand.

Usage: gen_man_page.py CRASHTEST_EXE VERSION OUTPUT"""
import re
import subprocess
import sys


def roff_escape(line):
    line = line.replace("\\", "\\e")
    # A line starting with "." or "'" would be a roff request.
    if line.startswith((".", "'")):
        line = "\\&" + line
    return line.replace("-", "\\-")


def block(text):
    out = [".nf"]
    for line in text.rstrip("\n").split("\n"):
        out.append(roff_escape(line) if line else ".sp")
    out.append(".fi")
    return out


def help_text(exe, *args):
    return subprocess.run([exe, *args], check=True, capture_output=True, text=True).stdout


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    exe, version, output = sys.argv[1:]
    overview = help_text(exe, "--help")
    summary = overview.split("\n", 1)[0].split(": ", 1)[-1]
    commands = re.findall(r"^  ([a-z][a-z-]*)  ", overview.split("Subcommands:", 1)[1].split("\n\n", 1)[0], re.M)
    page = [
        '.TH CRASHTEST 1 "" "crashtest %s" "User Commands"' % version,
        ".SH NAME",
        "crashtest \\- " + roff_escape(summary.rstrip(".")),
        ".SH SYNOPSIS",
    ]
    page += block(overview.split("Usage: ", 1)[1].split("\n\n", 1)[0])
    page += [".SH DESCRIPTION"]
    page += block(overview.split("\n\n", 2)[2])
    for command in commands:
        page += [".SH " + command.upper().replace("-", "\\-")]
        page += block(help_text(exe, "help", command))
    page += [".SH FILES",
             ".TP", "\\fBcrashtest_icd.x86_64.json\\fR",
             "The driver manifest, under the data directory's \\fIvulkan/icd.d\\fR, where the Vulkan loader finds it.",
             ".TP", "\\fBcrashtest/schema/config.schema.json\\fR",
             "The JSON schema of the configuration file, under the data directory.",
             ".SH SEE ALSO",
             "\\fBvulkaninfo\\fR(1); docs/cli.md, docs/configuration.md, docs/faults.md and docs/ci.md in the sources."]
    with open(output, "w", encoding="utf-8") as f:
        f.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
