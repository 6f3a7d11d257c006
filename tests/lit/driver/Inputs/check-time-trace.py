"""Checks a trace of `accyc build --time-trace` of Inputs/ok.accy for the
targets given: what docs/internals.md, "Time traces", says it holds."""
import json
import sys

trace, targets = sys.argv[1], sys.argv[2].split(",")
events = json.load(open(trace))["traceEvents"]
spans = [e for e in events if e.get("ph") == "X" and not e["name"].startswith("Total ")]


def detail(e):
    return e.get("args", {}).get("detail", "")


def find(name, detail_prefix=""):
    return [e for e in spans if e["name"] == name and detail(e).startswith(detail_prefix)]


def inside(inner, outer):
    return (inner["tid"] == outer["tid"] and outer["ts"] <= inner["ts"] and
            inner["ts"] + inner["dur"] <= outer["ts"] + outer["dur"])


stages = ["semantic", "contract", "tensor", "dispatch", "memory", "kernel", "target"]
assert sorted({detail(e) for e in find("stage")}) == sorted(stages), "stage spans"

for kernel in ["scale", "rowmax"]:
    # Each kernel's runs in stage order (pipelined: no stage waits for the
    # other kernel's run of the stage before).
    ran = []
    for stage in stages[1:]:
        runs = [e for e in find(stage) if detail(e) == kernel]
        assert len(runs) == 1, f"{kernel} {stage}: {len(runs)} spans"
        assert runs[0]["dur"] > 0
        ran.append(runs[0])
    for earlier, later in zip(ran, ran[1:]):
        assert earlier["ts"] + earlier["dur"] <= later["ts"], (kernel, earlier["name"], later["name"])
    target = [e for e in find("target") if detail(e) == kernel][0]
    # Every target's code generation, in pieces, some of it perhaps on other
    # threads than the kernel's.
    for t in targets:
        pieces = find("codegen", f"{kernel}.{t} piece ")
        assert pieces, f"no code generation span for {kernel} on {t}"
        # Numbered within the target's module, from 0.
        numbers = sorted(int(detail(p).rsplit(" ", 1)[1]) for p in pieces)
        assert numbers == list(range(len(pieces))), (kernel, t, numbers)
        for p in pieces:
            assert target["ts"] <= p["ts"] <= target["ts"] + target["dur"], p

# MLIR passes inside their kernel's stage span, LLVM's passes (the new pass
# manager's and code generation's) inside a piece.
passes = find("canonicalize") + find("accy-serialize")
assert passes, "no MLIR pass spans"
kernel_runs = [e for e in spans if e["name"] in stages[1:]]
for p in passes:
    assert any(inside(p, k) for k in kernel_runs), f"{p['name']} outside every kernel's run"
pieces = find("codegen")
for name, d in [("InstCombinePass", ""), ("RunPass", "NVPTX DAG->DAG Pattern Instruction Selection")]:
    found = find(name, d)
    assert found, f"no {name} {d} span"
    for f in found:
        assert any(inside(f, p) for p in pieces), f"{name} outside every piece"
print(f"{len(spans)} spans on {len({e['tid'] for e in spans})} threads")
