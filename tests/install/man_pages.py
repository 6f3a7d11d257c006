#!/usr/bin/env python3
"""Each user tool's man page (docs/man/TOOL.1) renders without a warning,
names every option and command of the tool's --help, and documents no
option the tool does not have."""
import argparse
import os
import re
import subprocess
import sys

# `--name`, `-I`: an option of a usage text, without its `=VALUE`.
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")
# The usage itself, which a page documents and a usage need not list.
SELF = {"--help", "-h"}


def render(page):
    """The page as plain text (no hyphenation, long lines) and groff's
    warnings."""
    result = subprocess.run(
        ["groff", "-man", "-ww", "-Tascii", "-P-cbou", "-rHY=0",
         "-rLL=1000n", page],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return result.stdout, result.stderr.strip()


def sections(text):
    """{heading: body} of a rendered page (headings start in column 0)."""
    found, heading = {}, None
    for line in text.splitlines():
        if line and not line[0].isspace() and line.isupper():
            heading = line.strip()
            found[heading] = ""
        elif heading:
            found[heading] += line + "\n"
    return found


def help_commands(usage):
    """The commands a usage lists under `commands:`, first word of each."""
    block = re.search(r"^commands:\n(.*?)(?:\n\n|\Z)", usage, re.S | re.M)
    if not block:
        return []
    return re.findall(r"^  ([a-z][\w-]*)\s", block.group(1), re.M)


def check(tool, path, page):
    failures = []
    usage = subprocess.run([path, "--help"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True).stdout
    text, warnings = render(page)
    if warnings:
        failures.append("groff warns about %s:\n%s" % (page, warnings))
    parts = sections(text)
    documented = set(OPTION.findall(parts.get("OPTIONS", "")))
    for option in sorted(set(OPTION.findall(usage)) - documented):
        failures.append("%s --help has %s, which OPTIONS of %s does not "
                        "describe" % (tool, option, page))
    for option in sorted(documented - set(OPTION.findall(usage)) - SELF):
        failures.append("OPTIONS of %s describes %s, which %s --help does "
                        "not have" % (page, option, tool))
    commands = parts.get("COMMANDS", "")
    for command in help_commands(usage):
        if not re.search(r"^\s{0,8}%s\b" % re.escape(command), commands, re.M):
            failures.append("%s --help has the command %s, which COMMANDS of "
                            "%s does not describe" % (tool, command, page))
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", required=True, help="docs/man")
    parser.add_argument("tools", nargs="+", metavar="TOOL=PATH")
    args = parser.parse_args()
    failures = []
    for spec in args.tools:
        tool, path = spec.split("=", 1)
        failures += check(tool, path, os.path.join(args.pages, tool + ".1"))
    for failure in failures:
        print("FAILED:", failure)
    if not failures:
        print("passed: %d man pages" % len(args.tools))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
