"""Checks that the entries of a kernel store take at most N bytes."""
import os
import sys

root, limit = sys.argv[1], int(sys.argv[2])
total = sum(os.path.getsize(os.path.join(d, f))
            for d, _, files in os.walk(os.path.join(root, "v1"))
            for f in files if os.sep + "stats" not in os.path.join(d, f)[len(root):] and ".tmp-" not in f)
if total > limit:
    sys.exit(f"store holds {total} bytes, more than {limit}")
print(f"store holds {total} bytes")
