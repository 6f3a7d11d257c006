#!/usr/bin/env python3
"""bench/gpu/run on a machine without a GPU (ctest bench.gpu.*).

build_and_check_on_host     the script builds the project (kernels.accy for
                            sm_90 and host; ptxas accepts the PTX where a
                            CUDA toolkit is installed) and the driver
                            measures the host with small shapes: every
                            check passes
fake_cuda_fails_the_checks  the driver on the stand-in libcuda.so.1, whose
                            launches compute nothing: the results stay NaN,
                            every check fails, the exit code is 1
no_cuda_device              no CUDA device: a clear message and exit code 4
emulated_cuda_passes_the_checks
                            the driver on tests/tools/ptx-emulator's
                            libcuda.so.1, which interprets the PTX: every
                            kernel really runs, every check passes, exit 0
memory_model_on_the_emulator
                            bench/gpu/run --emulated: each memory-bound
                            kernel once at 4 MiB a tensor on the emulator,
                            its DRAM bytes, sectors and bank conflicts in a
                            table and in --json, every check passing; the
                            model refuses a device that counts nothing
"""
import argparse
import ctypes
import json
import os
import shutil
import subprocess
import sys

CASES = ["softmax", "layer_norm", "cross_entropy", "cumsum", "elementwise"]


def run(cmd, env_changes):
    env = dict(os.environ)
    env.pop("ACCY_DEVICE", None)
    env.update(env_changes)
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    print("$", " ".join(cmd), f"(exit {proc.returncode})")
    print(proc.stdout)
    print(proc.stderr[-4000:], file=sys.stderr)
    return proc


def expect(condition, what):
    if not condition:
        sys.exit(f"FAILED: {what}")


def rows(stdout, name):
    return [line for line in stdout.splitlines() if line.startswith(name + " ")]


def build_and_check_on_host(args):
    proc = run([args.run, "--accy-prefix", args.prefix, "--build-dir",
                args.build, "--target", "sm_90", "--small", "--allow-host",
                "--cublas=none", "--budget-ms=20"],
               {"ACCY_DEVICE": "host"})
    expect(proc.returncode == 0, "exit 0 on the host")
    ptx = os.path.join(args.build, "bench_kernels.accy", "kernels.sm_90.ptx")
    expect(os.path.isfile(ptx), f"{ptx} was built")
    expect("device: host" in proc.stdout, "the device line names the host")
    for name in CASES:
        line = rows(proc.stdout, name)
        expect(len(line) == 1 and "host (all): ok" in line[0],
               f"one passing row for {name}")
    expect(proc.stdout.count("check: host (all): ok") == 6,
           "both small `@` shapes of f32, f16 and bf16 inputs pass")
    expect("PASS: all 11 case(s)" in proc.stdout, "the verdict")
    if "ptxas -arch=sm_90 -v" in proc.stdout:  # only with a CUDA toolkit
        expect("ptxas rejected" not in proc.stdout, "ptxas accepts the PTX")
        for kernel in ["row_softmax_k0", "matmul_k0", "matmul_bf16_k0",
                       "chain_k0"]:
            expect(any(line.split()[:2] == [kernel, "Used"]
                       for line in proc.stdout.splitlines()),
                   f"the ptxas summary lists {kernel}")


def fake_cuda_fails_the_checks(args):
    driver = os.path.join(args.build, "accy-gpu-bench")
    proc = run([driver, "--small", "--cublas=none", "--budget-ms=5"],
               {"ACCY_DEVICE": "cuda", "LD_LIBRARY_PATH": args.fake_cuda})
    expect(proc.returncode == 1, "exit 1: a tolerance check failed")
    expect("device: cuda: Fake CUDA device (sm_90)" in proc.stdout,
           "the stand-in driver was used")
    expect("peak bandwidth: unknown" in proc.stdout,
           "no peak bandwidth for a device the driver and table do not know")
    expect("fake-cuda: launch row_softmax_k0" in proc.stderr and
           "fake-cuda: launch matmul_k0" in proc.stderr,
           "the PTX loaded and the kernels were launched")
    for name in CASES:
        line = rows(proc.stdout, name)
        expect(len(line) == 1 and "FAIL:" in line[0] and "got nan" in line[0],
               f"{name} fails on results nothing wrote")
    expect("FAIL: 11 of 11 case(s)" in proc.stdout, "the verdict")


def emulated_cuda_passes_the_checks(args):
    driver = os.path.join(args.build, "accy-gpu-bench")
    counters = os.path.join(args.build, "emulator-counters.jsonl")
    if os.path.exists(counters):
        os.remove(counters)
    proc = run([driver, "--small", "--cublas=none", "--budget-ms=5"],
               {"ACCY_DEVICE": "cuda", "LD_LIBRARY_PATH": args.emulated_cuda,
                "ACCY_PTX_EMULATOR_PROFILE": counters})
    expect("device: cuda: Accy PTX emulator (sm_90)" in proc.stdout,
           "the emulator was used")
    expect("ptx-emulator:" not in proc.stderr,
           "the emulator loaded and ran every kernel without an error")
    for name in CASES:
        line = rows(proc.stdout, name)
        expect(len(line) == 1 and "host (all): ok" in line[0],
               f"{name} on the emulator matches the host")
    expect(proc.stdout.count("check: host (all): ok") == 6,
           "both small `@` shapes of f32, f16 and bf16 inputs match the "
           "host (tensor cores for the 16-bit ones)")
    expect("PASS: all 11 case(s)" in proc.stdout, "the verdict")
    expect(proc.returncode == 0, "exit 0: every check passed")
    check_emulator_counters(counters)

    # Counters that cannot be written fail the launch, naming the variable.
    proc = run([driver, "--small", "--cublas=none", "--budget-ms=5",
                "--only=softmax"],
               {"ACCY_DEVICE": "cuda", "LD_LIBRARY_PATH": args.emulated_cuda,
                "ACCY_PTX_EMULATOR_PROFILE": os.path.join(counters, "x")})
    expect(proc.returncode == 3, "exit 3: the launch failed")
    expect("(ACCY_PTX_EMULATOR_PROFILE)" in proc.stderr,
           "the message names the variable")


def check_emulator_counters(path):
    """One JSON line per launch (ACCY_PTX_EMULATOR_PROFILE), every bench
    kernel among them, with counters that agree with each other."""
    with open(path) as f:
        launches = [json.loads(line) for line in f]
    names = {launch["kernel"] for launch in launches}
    for kernel in ["row_softmax", "layer_norm", "xent", "row_cumsum",
                   "chain", "matmul", "matmul_f16", "matmul_bf16"]:
        expect(any(name.startswith(kernel + "_k") for name in names),
               f"a launch of {kernel} was counted")
    for launch in launches:
        what = f"the counters of {launch['kernel']}"
        sectors = launch["global_load_sectors"] + launch["global_store_sectors"]
        requests = (launch["global_load_requests"] +
                    launch["global_store_requests"])
        expect(requests > 0 and sectors >= requests,
               f"{what}: every request touches a sector")
        expect(launch["global_bytes_requested"] <= sectors * 32,
               f"{what}: no more bytes used than the sectors hold")
        expect(launch["distinct_sector_bytes"] <= sectors * 32,
               f"{what}: distinct sectors are among those touched")
        expect(launch["dram_read_bytes"] + launch["dram_write_bytes"] <=
               2 * launch["distinct_sector_bytes"],
               f"{what}: an L2 of 50 MiB moves each sector at most "
               "once each way")
        expect(launch["shared_wavefronts"] >=
               launch["shared_ideal_wavefronts"] >= launch["shared_requests"],
               f"{what}: a shared request takes at least its ideal "
               "wavefronts, and at least one")
        expect(launch["instructions"]["load_store"] >= requests,
               f"{what}: requests are load/store instructions")


def memory_model_on_the_emulator(args):
    table = os.path.join(args.build, "memory-model.json")
    if os.path.exists(table):
        os.remove(table)
    proc = run([args.run, "--emulated", "--no-build", "--build-dir",
                args.build, "--accy-build", args.accy_build,
                f"--json={table}"], {})
    expect(proc.returncode == 0, "exit 0: every check passed")
    expect("== on the PTX emulator" in proc.stdout, "the emulator was used")
    expect("DRAM/ideal" in proc.stdout, "the model's table is printed")
    with open(table) as f:
        kernels = json.load(f)["kernels"]
    expect([k["name"] for k in kernels] == CASES, "one entry per case")
    for k in kernels:
        what = k["name"]
        expect(k["check"] == "ok", f"{what} matches the host")
        expect(k["ideal_bytes"] >= 4 << 20, f"{what}: a few MiB at least")
        expect(k["dram_bytes"] == k["dram_read_bytes"] + k["dram_write_bytes"],
               f"{what}: DRAM bytes are reads and writes")
        # Every input is read and every output written at least once, and
        # the L2 serves what the kernel reads again.
        expect(0.99 <= k["dram_bytes"] / k["ideal_bytes"] <= 1.10,
               f"{what}: DRAM bytes near the bytes that must move")
        expect(k["l2_bytes"] >= k["dram_read_bytes"],
               f"{what}: the L2 sees at least what DRAM sends")
        expect(0.9 <= k["sector_efficiency"] <= 1.0,
               f"{what}: sectors mostly used")
        expect(k["launches"] >= 1, f"{what}: launches counted")
        # Resident warps of 64: a multiple of 1/64, and some.
        expect(0 < k["occupancy"] <= 1 and
               abs(k["occupancy"] * 64 - round(k["occupancy"] * 64)) < 1e-9,
               f"{what}: an occupancy in warps of 64")
        expect(k["occupancy_registers"] ==
               ("ptxas" if ptxas_at_hand() else "at least, PTX"),
               f"{what}: registers from ptxas where it is installed")

    driver = os.path.join(args.build, "accy-gpu-bench")
    proc = run([driver, "--json=x.json"], {})
    expect(proc.returncode == 2 and "it needs --model" in proc.stderr,
           "--json without --model is a usage error")
    proc = run([driver, "--model", "--small", "--allow-host",
                "--only=softmax"], {"ACCY_DEVICE": "host"})
    expect(proc.returncode == 3 and "the device counted nothing" in proc.stdout,
           "the model on a device that counts nothing is an error")


def ptxas_at_hand():
    return bool(shutil.which("ptxas") or
                os.access(os.path.join(os.environ.get("CUDA_HOME", "/none"),
                                       "bin", "ptxas"), os.X_OK) or
                os.access("/usr/local/cuda/bin/ptxas", os.X_OK))


def cuda_driver_loads():
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def no_cuda_device(args):
    proc = run([args.run, "--no-build", "--build-dir", args.build],
               {"ACCY_DEVICE": "host"})
    expect(proc.returncode == 4, "exit 4 when the runtime selects the host")
    expect("no CUDA device: the runtime selected 'host'" in proc.stdout,
           "the message says what was selected")
    expect("exit 4 (no CUDA device)" in proc.stdout, "the script's last line")
    if cuda_driver_loads():
        print("libcuda.so.1 loads here: not checking the missing driver")
        return
    proc = run([os.path.join(args.build, "accy-gpu-bench")], {})
    expect(proc.returncode == 4, "exit 4 without a CUDA driver")
    expect("no CUDA device: cuda: cannot load the CUDA driver" in proc.stdout,
           "the message names the driver that did not load")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=[
        "build_and_check_on_host", "fake_cuda_fails_the_checks",
        "no_cuda_device", "emulated_cuda_passes_the_checks",
        "memory_model_on_the_emulator"])
    parser.add_argument("--run", required=True)
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--fake-cuda", required=True)
    parser.add_argument("--emulated-cuda",
                        help="the directory of the PTX emulator's libcuda.so.1")
    parser.add_argument("--accy-build", help="Accy's build tree")
    args = parser.parse_args()
    globals()[args.scenario](args)


if __name__ == "__main__":
    main()
