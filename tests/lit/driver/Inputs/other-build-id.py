"""Copies an executable, giving the copy another linker build id.

Finds the NT_GNU_BUILD_ID note (namesz 4, type 3, name "GNU") and inverts
its bytes: the copy runs the same code but says it is another build.
"""
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
data = bytearray(open(src, "rb").read())
marker = struct.pack("<I", 3) + b"GNU\0"
at = data.find(marker)
if at < 8 or struct.unpack_from("<I", data, at - 8)[0] != 4:
    sys.exit(f"{src}: no GNU build id note")
size = struct.unpack_from("<I", data, at - 4)[0]
start = at + len(marker)
data[start:start + size] = bytes(b ^ 0xFF for b in data[start:start + size])
with open(dst, "wb") as out:
    out.write(data)
