"""Runs the seven stage steps of SOURCE one process each, as Ninja runs
them for accy_add_kernels, into OUTDIR, and prints one line per step:

  STAGE served|ran STATUS compiled=N stored=M

`served`: the step ran from its step entry (the store's step-hits file
grew by one byte); STATUS and the counts are the step's own record.
Usage: run-steps.py ACCYC SOURCE OUTDIR --cache-dir STORE [accyc flags...]
"""
import json
import os
import subprocess
import sys

accyc, source, out = sys.argv[1:4]
flags = sys.argv[4:]
store = flags[flags.index("--cache-dir") + 1]
hits = os.path.join(store, "v1", "step-hits")
records = out + ".records"
os.makedirs(out, exist_ok=True)
os.makedirs(records, exist_ok=True)
name = os.path.splitext(os.path.basename(source))[0]
previous = source
for stage in ("semantic", "contract", "tensor", "dispatch", "memory",
              "kernel", "target"):
    output = os.path.join(out, "%s.%s.mlirbc" % (name, stage))
    record = os.path.join(records, stage + ".json")
    before = os.path.getsize(hits) if os.path.exists(hits) else 0
    subprocess.run([accyc, "stage", stage, previous, "-o", output,
                    "--record", record] + flags, check=True)
    after = os.path.getsize(hits) if os.path.exists(hits) else 0
    with open(record) as f:
        r = json.load(f)
    print("%s %s %s compiled=%d stored=%d" % (
        stage, "served" if after == before + 1 else "ran", r["status"],
        r["kernels"]["compiled"], r["kernels"]["stored"]))
    previous = output
