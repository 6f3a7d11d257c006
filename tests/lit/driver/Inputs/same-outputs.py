"""Checks that two output directories hold the same files, byte for byte.

NAME.stamps.json holds timings and is left out; every other file (stage
files, PTX, HSACO, host objects, generated sources) must be in both and
identical.
"""
import filecmp
import os
import sys

a, b = sys.argv[1], sys.argv[2]
names = lambda d: {n for n in os.listdir(d) if not n.endswith(".stamps.json") and not n.endswith(".d")}
left, right = names(a), names(b)
if left != right:
    sys.exit(f"different files: only in {a}: {sorted(left - right)}, only in {b}: {sorted(right - left)}")
differ = [n for n in sorted(left) if not filecmp.cmp(os.path.join(a, n), os.path.join(b, n), shallow=False)]
if differ:
    sys.exit(f"files differ between {a} and {b}: {differ}")
print(f"{len(left)} files identical")
