#!/usr/bin/env python3
"""bench/compile_time/compare, checked both ways: a compiler against itself
gives byte-identical artifacts and ratios near 1 (of times, and of the
instructions callgrind counts), and a compiler whose PTX differs by one
byte is caught, named, and fails the command; that PTX's entries, through
ptxas where it is at hand, are reported the same.

Usage: compare_check.py COMPARE ACCYC WORKDIR
"""
import os
import re
import stat
import subprocess
import sys


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def check_ptxas_report(compare, stdout):
    """The differing PTX through ptxas: the changed compiler's PTX differs by
    a space, so every entry must be reported the same, and the bench's 8x8
    contraction tile must show its main loop of 64 FFMA an iteration."""
    sys.path.insert(0, os.path.dirname(compare))  # ptxcode.py sits beside it
    import ptxcode
    if not ptxcode.find_ptxas():
        if "no ptxas found" not in stdout:
            return [f"no ptxas: not said\n{stdout}"]
        print("compare: no ptxas here, the ptxas report is not checked")
        return []
    failures = []
    entries = re.findall(r"^    (\w+): (same|old): (.*)$", stdout, re.M)
    if not entries or any(kind != "same" for _, kind, _ in entries):
        failures.append(f"ptxas report: not every entry the same\n{stdout}")
    matmul = [text for name, _, text in entries if name == "matmul_k0"]
    if not matmul or not re.search(r"SASS loops .*\d+ \(64 FFMA\)", matmul[0]):
        failures.append(f"ptxas report: no main loop of 64 FFMA in matmul_k0\n{stdout}")
    if not re.search(r"mlp_k0: same: registers \d+, spills 0/0 bytes", stdout):
        failures.append(f"ptxas report: mlp_k0's registers and spills missing\n{stdout}")
    return failures


def main():
    compare, accyc, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    failures = []

    same = run([compare, accyc, accyc, "--rounds", "2", "--same-code"])
    if same.returncode != 0:
        failures.append(f"against itself: exit {same.returncode}\n{same.stdout}{same.stderr}")
    match = re.search(r"same code \(sm_90\): (\d+) of (\d+) artifacts byte-identical",
                      same.stdout)
    if not match or match.group(1) != match.group(2) or int(match.group(2)) < 10:
        failures.append(f"against itself: not every artifact identical\n{same.stdout}")
    total = re.search(r"^total\s+[\d.]+\s+[\d.]+\s+([\d.]+) ", same.stdout, re.M)
    if not total:
        failures.append(f"against itself: no total row\n{same.stdout}")

    # Instructions: the same compiler counts the same to within 1%, on a
    # small file (callgrind runs a build some 50 times slower).
    tiny = os.path.join(work, "tiny.accy")
    with open(tiny, "w") as f:
        f.write("kernel tiny(x: f32[N]) -> f32[N] { return x * 2.0; }\n")
    counted = run([compare, accyc, accyc, "--rounds", "0", "--instructions",
                   "--file", tiny])
    row = re.search(r"^total\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$",
                    counted.stdout, re.M)
    if counted.returncode != 0 or not row:
        failures.append(f"instructions: exit {counted.returncode}, no total row\n"
                        f"{counted.stdout}{counted.stderr}")
    elif float(row.group(1)) < 1 or not 0.99 <= float(row.group(3)) <= 1.01:
        failures.append(f"instructions: against itself not ~1.000\n{counted.stdout}")

    # A compiler whose PTX has one more byte: accyc, then a byte appended.
    changed = os.path.join(work, "accyc-changed")
    with open(changed, "w") as f:
        f.write(f"""#!/bin/sh
"{accyc}" "$@" || exit $?
out=""
while [ $# -gt 0 ]; do [ "$1" = "-o" ] && out="$2"; shift; done
for ptx in "$out"/*.ptx; do [ -f "$ptx" ] && printf ' ' >> "$ptx"; done
exit 0
""")
    os.chmod(changed, os.stat(changed).st_mode | stat.S_IXUSR)
    differs = run([compare, accyc, changed, "--rounds", "0", "--same-code"])
    if differs.returncode != 1:
        failures.append(f"changed PTX: exit {differs.returncode}, expected 1\n"
                        f"{differs.stdout}{differs.stderr}")
    if "differs: mlp.accy: mlp.sm_90.ptx" not in differs.stdout:
        failures.append(f"changed PTX: mlp.sm_90.ptx not named\n{differs.stdout}")
    failures += check_ptxas_report(compare, differs.stdout)

    for failure in failures:
        print("FAIL:", failure)
    if failures:
        sys.exit(1)
    print("compare: identical compilers agree (times, instructions), a changed "
          "PTX is named")


if __name__ == "__main__":
    main()
