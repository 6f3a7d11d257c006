"""Damages every step entry of a kernel store: truncates the first (a copy
torn part way) and flips the last byte of the others (a bad disk)."""
import glob
import os
import sys

entries = sorted(glob.glob(os.path.join(sys.argv[1], "v1", "steps", "*", "*")))
assert len(entries) >= 2, entries
with open(entries[0], "r+b") as f:
    f.truncate(os.path.getsize(entries[0]) // 2)
for entry in entries[1:]:
    with open(entry, "r+b") as f:
        f.seek(-1, os.SEEK_END)
        last = f.read(1)
        f.seek(-1, os.SEEK_END)
        f.write(bytes([last[0] ^ 0x01]))
