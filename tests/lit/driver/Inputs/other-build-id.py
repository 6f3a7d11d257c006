"""Copies an executable, giving the copy another compiler build id.

Finds the core build id after its marker ("accy-core-build-id:", then 64
hex digits; core/lib/BuildId) and reverses the digits: the copy runs the
same code but says it is another build.
"""
import sys

src, dst = sys.argv[1], sys.argv[2]
data = bytearray(open(src, "rb").read())
marker = b"accy-core-build-id:"
at = data.find(marker)
if at < 0:
    sys.exit(f"{src}: no core build id")
start = at + len(marker)
digits = data[start:start + 64]
if len(digits) != 64 or digits == digits[::-1]:
    sys.exit(f"{src}: unexpected core build id {bytes(digits)!r}")
data[start:start + 64] = digits[::-1]
with open(dst, "wb") as out:
    out.write(data)
