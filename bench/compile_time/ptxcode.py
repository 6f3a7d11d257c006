"""What ptxas makes of a PTX file, per entry: the figures a compile-time
change reports side by side to show that the generated code stayed as fast
(issue notes, docs/internals.md "The LLVM pipeline").

Per entry:
  - registers, spill stores and loads (bytes) and static shared memory
    (bytes), from `ptxas -v`;
  - SASS instructions, from the size of the entry's `.text.NAME` section;
  - loops: for each loop of the PTX (a label and a later branch back to
    it), the instructions of its body; and on sm_90, for each loop of the
    SASS, its instructions and fused multiply-adds (FFMA), which say
    whether ptxas unrolled it (a contraction's 8x8 tile is 64 FFMA an
    iteration).

No CUDA disassembler is needed: an sm_90 instruction is 16 bytes; a branch
has opcode 0x947 in its low 12 bits and its target, in 4-byte units from
the next instruction, in bits 16-23 (low) and 34 up (high, signed). That
layout is read off ptxas's own output, not a document, so it is checked on
every entry: each ends with a branch to itself after its EXIT, and where
that branch does not decode to itself the SASS loops are reported as
unknown. Other architectures report PTX loops only.
"""
import os
import re
import shutil
import struct
import subprocess
import tempfile

SASS_BRANCH = 0x947
SASS_FFMA = (0x223, 0x823)  # register and immediate forms


def find_ptxas():
    for cand in [shutil.which("ptxas"),
                 os.path.join(os.environ.get("CUDA_HOME", "/nonexistent"), "bin", "ptxas"),
                 "/usr/local/cuda/bin/ptxas"]:
        if cand and os.path.isfile(cand):
            return cand
    return None


def ptx_arch(ptx):
    match = re.search(r"^\.target\s+(sm_\d+a?)", ptx, re.M)
    return match.group(1) if match else None


def is_instruction(line):
    """Whether a line of PTX ends an instruction: a call spans several lines
    and ends with `);`; directives (`.param`) and labels do not count."""
    code = line.split("//")[0].strip()
    return code.endswith(";") and not code.startswith(".")


def ptx_loops(ptx):
    """{entry: [instructions of each loop body]} from the PTX text."""
    result = {}
    for match in re.finditer(r"^\.visible \.entry (\w+)\(.*?^\}$", ptx, re.M | re.S):
        lines = [line.strip() for line in match.group(0).splitlines()]
        labels, loops = {}, []
        for i, line in enumerate(lines):
            label = re.match(r"^(\$L__\w+):", line)
            if label:
                labels[label.group(1)] = i
                continue
            branch = re.search(r"\bbra(?:\.uni)?\s+(\$L__\w+);", line)
            if branch and branch.group(1) in labels:
                body = lines[labels[branch.group(1)] + 1:i + 1]
                loops.append(sum(1 for b in body if is_instruction(b)))
        result[match.group(1)] = loops
    return result


def elf_sections(data):
    """{name: bytes} of a 64-bit little-endian ELF file's sections."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def header(i):
        # name, type, flags, addr, offset, size
        return struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)

    names_offset = header(shstrndx)[4]
    sections = {}
    for i in range(shnum):
        name, _, _, _, offset, size = header(i)
        end = data.index(b"\0", names_offset + name)
        sections[data[names_offset + name:end].decode()] = data[offset:offset + size]
    return sections


def sass_loops(code):
    """[(instructions, FFMA)] of each loop of one entry's sm_90 code, or None
    when the branch layout does not hold for it (see the module comment)."""
    words = [int.from_bytes(code[i:i + 16], "little") for i in range(0, len(code), 16)]

    def target(i):
        high = (words[i] >> 34) & ((1 << 48) - 1)
        if high >> 47:
            high -= 1 << 48
        return i + 1 + (((words[i] >> 16) & 0xFF) + 256 * high) // 4

    branches = [i for i, w in enumerate(words) if w & 0xFFF == SASS_BRANCH]
    if not branches or target(branches[-1]) != branches[-1]:
        return None
    loops = []
    for i in branches[:-1]:
        start = target(i)
        if 0 <= start < i:
            body = words[start:i + 1]
            loops.append((len(body), sum(1 for w in body if w & 0xFFF in SASS_FFMA)))
    return loops


def entry_code(ptx_path, ptxas):
    """{entry: {...}} for a PTX file (see the module comment); raises
    RuntimeError with ptxas's message where it rejects the file."""
    with open(ptx_path) as f:
        ptx = f.read()
    arch = ptx_arch(ptx)
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "code.cubin")
        done = subprocess.run([ptxas, f"-arch={arch}", "-v", ptx_path, "-o", cubin],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"ptxas rejects {ptx_path}: {done.stderr.strip()}")
        with open(cubin, "rb") as f:
            sections = elf_sections(f.read())
    entries, current = {}, None
    for line in done.stderr.splitlines():
        name = re.search(r"Compiling entry function '(\w+)'", line)
        if name:
            current = entries.setdefault(name.group(1), {})
        if current is None:
            continue
        spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if spills:
            current["spills"] = (int(spills.group(1)), int(spills.group(2)))
        used = re.search(r"Used (\d+) registers", line)
        if used:
            current["registers"] = int(used.group(1))
            smem = re.search(r"(\d+) bytes smem", line)
            current["shared"] = int(smem.group(1)) if smem else 0
            current = None
    loops = ptx_loops(ptx)
    for name, entry in entries.items():
        code = sections.get(".text." + name, b"")
        entry["sass"] = len(code) // 16
        entry["ptx_loops"] = loops.get(name, [])
        entry["sass_loops"] = sass_loops(code) if arch == "sm_90" else None
    return entries


def describe(entry):
    stores, loads = entry.get("spills", (0, 0))
    text = (f"registers {entry.get('registers', '?')}, spills {stores}/{loads} bytes, "
            f"shared {entry.get('shared', 0)} bytes, SASS {entry['sass']}")
    if entry["sass_loops"] is not None:
        text += "; SASS loops " + (", ".join(
            f"{n} ({ffma} FFMA)" for n, ffma in entry["sass_loops"]) or "none")
    return text + "; PTX loops " + (", ".join(map(str, entry["ptx_loops"])) or "none")


def report(old_ptx, new_ptx, ptxas):
    """Lines comparing two PTX files entry by entry."""
    try:
        old, new = entry_code(old_ptx, ptxas), entry_code(new_ptx, ptxas)
    except RuntimeError as error:
        return [f"    {error}"]
    lines = []
    for name in sorted(set(old) | set(new)):
        before = describe(old[name]) if name in old else "(none)"
        after = describe(new[name]) if name in new else "(none)"
        if before == after:
            lines.append(f"    {name}: same: {before}")
        else:
            lines.append(f"    {name}: old: {before}")
            lines.append(f"    {' ' * len(name)}  new: {after}")
    return lines
