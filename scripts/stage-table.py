#!/usr/bin/env python3
"""Prints the per-stage build table of an accy_add_kernels() project.

Reads Ninja's own record of what it ran (BUILD/.ninja_log) and shows, for
each .accy source, how long each stage's build step took in the latest
build that ran it, and how that step made its kernels: compiled, from the
kernel store or reused (the record each step writes beside its stage file,
STAGEFILE.record.json). Usage: stage-table.py BUILD_DIR
"""
import json
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


def kernel_counts(build_dir, output):
    """{compiled, stored, reused, failed} of the step that wrote `output`
    (relative to `build_dir`), or None without its record."""
    try:
        with open(os.path.join(build_dir, output + ".record.json")) as f:
            return json.load(f)["kernels"]
    except (OSError, ValueError, KeyError):
        return None


def kernels_cell(counts):
    """"1c 15s": compiled, stored (from the kernel store), reused."""
    if counts is None:
        return "-"
    parts = ["%d%s" % (counts.get(what, 0), what[0])
             for what in ("compiled", "stored", "reused", "failed")
             if counts.get(what, 0)]
    return " ".join(parts) or "0"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: stage-table.py BUILD_DIR")
    build_dir = sys.argv[1]
    latest, outputs = {}, {}
    entries = read_ninja_log(build_dir)
    for stem, stage, ms in stage_steps(entries):
        latest[(stem, stage)] = ms
    for _, _, output in entries:
        match = STAGE_FILE.search(output)
        if match:
            outputs[(match.group(1), match.group(2))] = output
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
    print("kernels of those steps (c: compiled, s: from the kernel store, "
          "r: reused):")
    print("file".ljust(width) + "".join("%10s" % s for s in STAGES))
    for stem in stems:
        cells = "".join("%10s" % kernels_cell(
            kernel_counts(build_dir, outputs[(stem, s)]) if (stem, s) in outputs
            else None) for s in STAGES)
        print((stem + ".accy").ljust(width) + cells)


if __name__ == "__main__":
    main()
