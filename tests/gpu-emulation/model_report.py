#!/usr/bin/env python3
"""The memory model of every kernel a gpu-emulation executable links.

Runs EXECUTABLE --model (each kernel once at a few MiB on the PTX
emulator; the other sizes check the numerics) with ACCY_PTX_EMULATOR_PROFILE
pointing at a file of its own, and prints per kernel what the emulator
counted for its launches (entries `<kernel>_k<N>`) against the bytes it
must move: DRAM bytes through the emulator's L2 model, the sector bytes
the blocks' L1 sent to the L2, the share of the sector bytes requests
touched that the lanes used and the shared-memory wavefronts beyond the
ideal per request (bank conflicts). Exit 1 when a
run fails or the counters are inconsistent.

usage: model_report.py EXECUTABLE [--module NAME] [--json FILE]
                       [--expect KERNEL:SECTORS ...]
  --expect mlp:0.7   fail unless kernel mlp uses at least 70% of the
                     sector bytes its requests touch (a floor a kernel
                     change reached, kept from regressing)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def launches_of(kernel, launches):
    return [l for l in launches if l["kernel"].startswith(kernel + "_k") and
            l["kernel"][len(kernel) + 2:].isdigit()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("executable")
    parser.add_argument("--module")
    parser.add_argument("--json")
    parser.add_argument("--expect", action="append", default=[])
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        counters = os.path.join(tmp, "counters.jsonl")
        env = dict(os.environ, ACCY_PTX_EMULATOR_PROFILE=counters)
        command = [args.executable, "--model"]
        if args.module:
            command += ["--module", args.module]
        proc = subprocess.run(command, env=env, capture_output=True, text=True)
        print(proc.stdout, end="")
        print(proc.stderr, end="", file=sys.stderr)
        launches = []
        if os.path.exists(counters):
            with open(counters) as f:
                launches = [json.loads(line) for line in f]

    problems = [] if proc.returncode == 0 else ["a kernel run failed"]
    rows = []
    for line in proc.stdout.splitlines():
        if not line.startswith("model: "):
            continue
        _, kernel, ideal, label = line.split(" ", 3)
        ideal = int(ideal.split("=")[1])
        mine = launches_of(kernel, launches)
        if not mine:
            problems.append(f"{kernel}: no launch was counted")
            continue
        total = lambda key: sum(l[key] for l in mine)
        sectors = 32 * (total("global_load_sectors") +
                        total("global_store_sectors"))
        l2 = sectors + 32 * (total("global_atomic_sectors") -
                             total("l1_hit_sectors"))
        dram = total("dram_read_bytes") + total("dram_write_bytes")
        shared = total("shared_requests")
        row = {"name": kernel, "shape": label[label.index("["):],
               "launches": len(mine), "ideal_bytes": ideal,
               "dram_bytes": dram, "l2_bytes": l2,
               "sector_efficiency":
                   total("global_bytes_requested") / sectors if sectors else 1,
               "bank_conflicts":
                   (total("shared_wavefronts") -
                    total("shared_ideal_wavefronts")) / shared
                   if shared else 0}
        if (total("global_bytes_requested") > sectors or l2 < 0 or
                total("dram_read_bytes") > l2):
            problems.append(f"{kernel}: inconsistent counters")
        rows.append(row)

    print(f"\n{'kernel':24} {'launches':>8} {'ideal MB':>9} {'DRAM/ideal':>10}"
          f" {'L2/ideal':>8} {'sectors':>8} {'conflicts':>9}  shape")
    for r in rows:
        print(f"{r['name']:24} {r['launches']:8} {r['ideal_bytes'] / 1e6:9.2f}"
              f" {r['dram_bytes'] / r['ideal_bytes']:9.2f}x"
              f" {r['l2_bytes'] / r['ideal_bytes']:7.2f}x"
              f" {100 * r['sector_efficiency']:7.1f}%"
              f" {r['bank_conflicts']:9.2f}  {r['shape']}")
    print("(DRAM: through the emulator's 50 MiB L2, cold at the start of "
          "the call; L2: the sector bytes the blocks' L1 sent to the L2; "
          "sectors: the share of the sector bytes requests touched used; "
          "conflicts: shared wavefronts beyond the ideal per request)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"kernels": rows}, f, indent=1)
    if not rows:
        problems.append("no kernel was modelled")
    for expectation in args.expect:
        kernel, floor = expectation.split(":")
        row = next((r for r in rows if r["name"] == kernel), None)
        if not row or row["sector_efficiency"] < float(floor):
            problems.append(f"{kernel} uses less than {float(floor):.0%} of "
                            "its sector bytes")
    for problem in problems:
        print(f"FAILED: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
