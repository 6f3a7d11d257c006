#!/usr/bin/env python3
"""Prints the per-stage build table of an accy_add_kernels() project.

Reads Ninja's own record of what it ran (BUILD/.ninja_log) and shows, for
each .accy source, how long each stage's build step took in the latest
build that ran it. Usage: stage-table.py BUILD_DIR
"""
import os
import re
import sys

STAGES = ["semantic", "contract", "tensor", "dispatch", "memory", "kernel",
          "target"]
STAGE_FILE = re.compile(r"([^/]+)\.(" + "|".join(STAGES) + r")\.mlirbc$")


def read_ninja_log(build_dir):
    """[(start_ms, end_ms, output)] for every entry of the log, in order."""
    entries = []
    with open(os.path.join(build_dir, ".ninja_log")) as log:
        for line in log:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 4:
                entries.append((int(fields[0]), int(fields[1]), fields[3]))
    return entries


def stage_steps(entries):
    """[(source stem, stage, milliseconds)] of the stage steps in `entries`."""
    steps = []
    for start, end, output in entries:
        match = STAGE_FILE.search(output)
        if match:
            steps.append((match.group(1), match.group(2), end - start))
    return steps


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: stage-table.py BUILD_DIR")
    latest = {}
    for stem, stage, ms in stage_steps(read_ninja_log(sys.argv[1])):
        latest[(stem, stage)] = ms
    stems = sorted({stem for stem, _ in latest})
    width = max([len("file")] + [len(stem) + 5 for stem in stems]) + 2
    print("per-stage build steps (ms, from .ninja_log):")
    print("file".ljust(width) + "".join("%10s" % s for s in STAGES) +
          "%10s" % "total")
    for stem in stems:
        times = [latest.get((stem, s)) for s in STAGES]
        cells = "".join("%10s" % ("-" if t is None else t) for t in times)
        total = sum(t for t in times if t is not None)
        print((stem + ".accy").ljust(width) + cells + "%10d" % total)


if __name__ == "__main__":
    main()
