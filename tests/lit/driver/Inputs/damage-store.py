"""Damages a kernel store as failures would: truncates one memory and one
kernel entry (a copy torn part way), flips the last byte of the others (a
bad disk), and leaves a half-written temporary file beside a target entry
(a writer killed before its rename). Target entries stay intact.
With --steps it damages the step entries alike, and nothing else.

Usage: damage-store.py STORE [--steps]
"""
import glob
import os
import sys


def damage(folder):
    """Truncates the first entry of `folder` and flips the last byte of the
    others."""
    entries = sorted(glob.glob(os.path.join(folder, "*", "*")))
    assert len(entries) >= 2, entries
    with open(entries[0], "r+b") as f:
        f.truncate(os.path.getsize(entries[0]) // 2)
    for entry in entries[1:]:
        with open(entry, "r+b") as f:
            f.seek(-1, os.SEEK_END)
            last = f.read(1)
            f.seek(-1, os.SEEK_END)
            f.write(bytes([last[0] ^ 0x01]))


root = os.path.join(sys.argv[1], "v1")
if sys.argv[2:] == ["--steps"]:
    damage(os.path.join(root, "steps"))
    sys.exit(0)
for stage in ("memory", "kernel"):
    damage(os.path.join(root, stage))
target = sorted(glob.glob(os.path.join(root, "target", "*", "*")))[0]
with open(target + ".tmp-deadbeef", "wb") as f:
    f.write(b"accy-kernel-store 1 target half")
