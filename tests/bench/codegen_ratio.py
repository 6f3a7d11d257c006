#!/usr/bin/env python3
"""A compile-time regression check that holds on any machine: the target
stage's serialize pass (LLVM optimization and code generation) of a
reference file, as a multiple of the target stage's MLIR passes on the same
kernels in the same run.

Both parts scale with the machine and with the size of the kernels, so the
ratio moves only when LLVM's share of the work does: a heavier LLVM
pipeline, a backend setting that costs seconds, code generation run twice.
With LLVM's O3 pipeline, examples/kernels/classifier.accy for sm_90 gave
4.3-5.8 (5 runs, a quiet two-core machine; serialize about 250 ms); with
the kernels' own pipeline (getOptimizationPipeline in CodeGen.cpp), 3.2-3.5
(serialize about 150 ms). The check fails above LIMIT, twice the upper end:
a doubling of LLVM's time. (O3 back, 4.3-5.8, would fail a limit of 1.5
times in some runs only, so the limit stays at a doubling.)
The median of RUNS runs keeps one disturbed run from deciding.

Usage: codegen_ratio.py ACCYC FILE.accy [--target sm_90]
"""
import argparse
import statistics
import subprocess
import sys
import tempfile

REFERENCE_RATIO = 3.5
LIMIT = 2 * REFERENCE_RATIO
RUNS = 5


def stage_pass_times(accyc, source, target, out):
    """{pass: ms} of the target stage, from `--timing --stats`."""
    result = subprocess.run(
        [accyc, "build", source, "--target", target, "-o", out, "--no-cache",
         "--timing", "--stats"],
        check=True, capture_output=True, text=True)
    times = {}
    for line in result.stdout.splitlines():
        fields = line.split()
        # stage  pass  time(ms)  runs  ops-in  ops-out  heap  analysis;
        # the per-stage table's row has a status where the pass would be.
        if (len(fields) == 8 and fields[0] == "target" and
                fields[1] not in ("compiled", "reused", "failed")):
            try:
                times[fields[1]] = float(fields[2])
            except ValueError:
                pass
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("accyc")
    parser.add_argument("source")
    parser.add_argument("--target", default="sm_90")
    args = parser.parse_args()
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(RUNS):
            times = stage_pass_times(args.accyc, args.source, args.target,
                                     "%s/run%d" % (tmp, i))
            serialize = times.pop("accy-serialize", None)
            if serialize is None or not times:
                sys.exit("no per-pass times of the target stage in accyc's "
                         "--timing --stats output")
            ratios.append(serialize / sum(times.values()))
            print("run %d: serialize %.1f ms, other target-stage passes "
                  "%.1f ms, ratio %.2f" % (i, serialize, sum(times.values()),
                                           ratios[-1]))
    median = statistics.median(ratios)
    print("median ratio %.2f (limit %.1f)" % (median, LIMIT))
    if median > LIMIT:
        print("FAILED: LLVM's share of the target stage more than doubled")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
