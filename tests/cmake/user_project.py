#!/usr/bin/env python3
"""Builds tests/cmake/project with CMake against an installed Accy, in a
temporary directory, and checks one scenario (see CMakeLists.txt).

What Ninja ran is read from its own log (.ninja_log): every build step
appends one line per output it wrote.
"""
import argparse
import ctypes
import importlib.util
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "stage_table", os.path.join(HERE, "..", "..", "scripts", "stage-table.py"))
stage_table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(stage_table)

SOFTMAX_INPUT = [[1, 2, 3], [0, 0, 0]]


def softmax_rows(rows):
    out = []
    for row in rows:
        top = max(row)
        exps = [math.exp(v - top) for v in row]
        out += [e / sum(exps) for e in exps]
    return out


def expected_output(scale=2.0, sign=1.0):
    x, y = [1, 2, 3, 4], [10, 20, 30, 40]
    return {"scale_add": [a * scale + sign * b for a, b in zip(x, y)],
            "row_softmax": softmax_rows(SOFTMAX_INPUT)}


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Build:
    """What one build ran: stage steps, compiles and links."""

    def __init__(self, outputs, returncode, log):
        self.returncode = returncode
        self.log = log
        self.outputs = outputs
        self.stages = [(stem, stage) for stem, stage, _ in
                       stage_table.stage_steps([(0, 0, o) for o in outputs])]
        self.compiles = [o for o in outputs if o.endswith(".o") and
                         "CMakeFiles" in o]
        self.links = [o for o in outputs
                      if o.endswith(".a") or os.path.basename(o) == "app"]

    def stages_of(self, stem):
        return {stage for s, stage in self.stages if s == stem}

    def __str__(self):
        return "ran: " + ", ".join(self.outputs) if self.outputs else "ran nothing"


# Temporary directories of this run, removed when the scenario passes (kept
# for a look when it fails).
TEMPORARIES = []


class Project:
    def __init__(self, args, scenario, generator="Ninja", targets="host",
                 prefix=None, source=None):
        os.makedirs(args.work, exist_ok=True)
        self.root = tempfile.mkdtemp(prefix=scenario + "-", dir=args.work)
        TEMPORARIES.append(self.root)
        self.src = os.path.join(self.root, "src")
        self.build_dir = os.path.join(self.root, "build")
        shutil.copytree(source or args.project, self.src)
        self.generator = generator
        self.prefix = prefix or args.prefix
        # The project's own kernel store: a scenario compiles what it says,
        # never what another left (builds read the environment).
        self.store = os.path.join(self.root, "store")
        os.environ["ACCY_CACHE_DIR"] = self.store
        # Nor a team cache of the user's (tests/remote names its own).
        os.environ.pop("ACCY_REMOTE_CACHE", None)
        self.fake_cuda = args.fake_cuda
        self.configure(targets)

    def configure(self, targets):
        run(["cmake", "-G", self.generator, "-S", self.src, "-B",
             self.build_dir, "-DCMAKE_PREFIX_PATH=" + self.prefix,
             "-DCMAKE_BUILD_TYPE=Release", "-DACCY_TARGETS=" + targets])

    def ninja_log(self):
        path = os.path.join(self.build_dir, ".ninja_log")
        return stage_table.read_ninja_log(self.build_dir) if os.path.exists(path) else []

    def build_command(self, targets=()):
        if self.generator == "Ninja":
            return ["ninja", "-C", self.build_dir, "-j2", *targets]
        command = ["cmake", "--build", self.build_dir, "-j2"]
        return command + ["--target", *targets] if targets else command

    def build(self, expect_success=True, env=None, launcher=(), targets=()):
        """Builds (`targets`, or everything); `env` adds to the environment,
        `launcher` goes before the build command."""
        before = len(self.ninja_log())
        result = subprocess.run([*launcher, *self.build_command(targets)],
                                env=dict(os.environ, **(env or {})),
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        # CMake's Ninja generator also names each custom command output by
        # its absolute path, so the log has both spellings of one file.
        outputs = []
        for _, _, output in self.ninja_log()[before:]:
            if os.path.isabs(output):
                output = os.path.relpath(output, self.build_dir)
            if output not in outputs:
                outputs.append(output)
        build = Build(outputs, result.returncode, result.stdout)
        if expect_success:
            check(result.returncode == 0, "build failed:\n" + result.stdout)
        return build

    def path(self, *parts):
        return os.path.join(self.build_dir, *parts)

    def edit(self, relative, old, new):
        path = os.path.join(self.src, relative)
        with open(path) as f:
            text = f.read()
        check(old in text, "%s does not contain %r" % (relative, old))
        with open(path, "w") as f:
            f.write(text.replace(old, new, 1))

    def run_app(self, *args, device="host", fake_cuda=False, binary=None,
                library_path=None):
        """`fake_cuda`: libcuda.so.1 is tests/cmake/fake-cuda; `library_path`:
        the folder of another one."""
        env = dict(os.environ, ACCY_DEVICE=device)
        env["LD_LIBRARY_PATH"] = (self.fake_cuda if fake_cuda else
                                  library_path or "")
        result = subprocess.run([binary or self.path("app"), *args], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, timeout=60)
        # A crash is a negative return code (the signal); errors are 1.
        check(result.returncode in (0, 1),
              "app crashed (%d): %s %s" % (result.returncode, result.stdout,
                                           result.stderr))
        return result

    def check_results(self, expected, **run_args):
        result = self.run_app(**run_args)
        check(result.returncode == 0, "app failed: " + result.stdout)
        values = {}
        for line in result.stdout.splitlines():
            name, *numbers = line.split()
            if name in expected:
                values[name] = [float(n) for n in numbers]
        for name, want in expected.items():
            got = values.get(name)
            check(got is not None and len(got) == len(want) and
                  all(abs(g - w) <= 1e-5 * max(1.0, abs(w))
                      for g, w in zip(got, want)),
                  "%s: got %s, expected %s" % (name, got, want))


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    check(result.returncode == 0,
          "%s failed:\n%s" % (" ".join(command), result.stdout))
    return result.stdout


def check_no_work(project):
    out = run(["ninja", "-C", project.build_dir, "-n"])
    check("no work to do" in out, "a build after no change would run:\n" + out)
    again = project.build()
    check(not again.outputs, "a build after no change " + str(again))


# ---------------------------------------------------------------------------
# Scenarios
# ---------------------------------------------------------------------------

def install_tree_build_run_noop(args):
    project = Project(args, "install")
    first = project.build()
    for stem in ("ops", "norm"):
        check(first.stages_of(stem) == set(stage_table.STAGES),
              "a clean build runs every stage of %s.accy: %s" % (stem, first))
    project.check_results(expected_output())
    check_no_work(project)


def comment_edit_reruns_semantic_only(args):
    project = Project(args, "comment")
    project.build()
    project.edit("kernels/ops.accy", "kernel scale_add",
                 "// a comment, and blank lines\n\n\nkernel scale_add")
    build = project.build()
    check(build.stages == [("ops", "semantic")],
          "a comment edit runs only ops.accy's semantic step; " + str(build))
    check(not build.compiles and not build.links,
          "a comment edit compiles and links nothing; " + str(build))
    check(set(build.outputs) <= {"user_kernels.accy/ops.semantic.mlirbc",
                                 "user_kernels.accy/ops.srcmap.json"},
          "a comment edit writes nothing else; " + str(build))
    project.check_results(expected_output())
    check_no_work(project)


def body_edit_reruns_one_file(args):
    project = Project(args, "body")
    project.build()
    project.edit("kernels/ops.accy", "x * SCALE + y", "x * SCALE - y")
    build = project.build()
    check(build.stages_of("ops") == set(stage_table.STAGES),
          "a kernel edit reruns every stage of ops.accy; " + str(build))
    check(not build.stages_of("norm"),
          "a kernel edit in ops.accy leaves norm.accy alone; " + str(build))
    project.check_results(expected_output(sign=-1.0))


def import_edit_reruns_importers(args):
    project = Project(args, "import")
    project.build()
    project.edit("kernels/lib.accy", "// Imported", "// Still imported")
    build = project.build()
    check(build.stages == [("ops", "semantic")],
          "a comment edit in lib.accy reruns its importer's semantic step "
          "only; " + str(build))
    project.edit("kernels/lib.accy", "SCALE = 2.0", "SCALE = 3.0")
    build = project.build()
    check(build.stages_of("ops") == set(stage_table.STAGES) and
          not build.stages_of("norm"),
          "changing an imported const reruns ops.accy (which imports it) "
          "and not norm.accy; " + str(build))
    project.check_results(expected_output(scale=3.0))


def error_fails_with_location_and_recovers(args):
    project = Project(args, "error")
    project.build()
    project.edit("kernels/norm.accy", "softmax(x,", "softmax(undefined_name,")
    failed = project.build(expect_success=False)
    check(failed.returncode != 0, "a source with an error fails the build")
    check(re.search(r"norm\.accy:2:\d+", failed.log),
          "the failure names norm.accy:line:col:\n" + failed.log)
    check(not os.path.exists(project.path("user_kernels.accy",
                                          "norm.semantic.mlirbc")),
          "a failed stage leaves no stage file behind")
    again = project.build(expect_success=False)
    check(again.returncode != 0, "the error is reported again, not skipped")
    project.edit("kernels/norm.accy", "softmax(undefined_name,", "softmax(x,")
    project.build()
    project.check_results(expected_output())
    check_no_work(project)


def targets_and_compiler_changes_rerun_stages(args):
    # A prefix of its own: this scenario touches the compiler.
    prefix = tempfile.mkdtemp(prefix="prefix-", dir=args.work)
    TEMPORARIES.append(prefix)
    shutil.rmtree(prefix)
    shutil.copytree(args.prefix, prefix, symlinks=True)
    project = Project(args, "targets", prefix=prefix)
    project.build()
    project.configure("host;sm_90")
    build = project.build()
    for stem in ("ops", "norm"):
        stages = build.stages_of(stem)
        # The semantic step reruns too (it names the later steps' entries
        # by the targets, docs/cache.md), writes the same file and stops
        # the rebuild there.
        check({"dispatch", "target"} <= stages and
              not stages & {"contract", "tensor"},
              "adding a target reruns dispatch..target of %s.accy, not "
              "contract and tensor; %s" % (stem, build))
    check(os.path.exists(project.path("user_kernels.accy", "ops.sm_90.ptx")),
          "the new target's PTX is written")
    os.utime(os.path.join(prefix, "bin", "accyc"))
    build = project.build()
    for stem in ("ops", "norm"):
        check("semantic" in build.stages_of(stem),
              "a new compiler binary reruns %s.accy's stages; %s"
              % (stem, build))
    project.check_results(expected_output())
    check_no_work(project)


def makefile_generator(args):
    project = Project(args, "makefiles", generator="Unix Makefiles")
    project.build()
    project.check_results(expected_output())
    project.edit("kernels/ops.accy", "x * SCALE + y", "x * SCALE - y")
    project.build()
    project.check_results(expected_output(sign=-1.0))


def add_subdirectory_source_tree(args):
    """The project configured with add_subdirectory() of Accy's source tree
    instead of find_package(). Building it would build all of Accy, so this
    checks the plan: accyc is built first, and the stage steps run it."""
    os.makedirs(args.work, exist_ok=True)
    root = tempfile.mkdtemp(prefix="subdirectory-", dir=args.work)
    TEMPORARIES.append(root)
    src = os.path.join(root, "src")
    shutil.copytree(args.project, src)
    lists = os.path.join(src, "CMakeLists.txt")
    with open(lists) as f:
        text = f.read()
    with open(lists, "w") as f:
        f.write(text.replace("find_package(Accy CONFIG REQUIRED)",
                             'add_subdirectory("%s" accy)' % args.source))
    build = os.path.join(root, "build")
    run(["cmake", "-G", "Ninja", "-S", src, "-B", build,
         "-DACCY_TARGETS=host"])
    plan = run(["ninja", "-C", build, "-n", "app"]).splitlines()
    steps = [line.split("] ", 1)[1] for line in plan if "] " in line]
    accyc = steps.index("Linking CXX executable accy/driver/accyc")
    for stem in ("ops", "norm"):
        for stage in stage_table.STAGES:
            step = "Accy %s kernels/%s.accy" % (stage, stem)
            check(step in steps and steps.index(step) > accyc,
                  "'%s' is planned after accyc is linked:\n%s"
                  % (step, "\n".join(steps)))
    check(steps[-1] == "Linking CXX executable app", "the plan ends with app")


# ---------------------------------------------------------------------------
# Faults: a compiler killed while writing, two builds at once, a full disk, a
# read-only output directory, a damaged stage file (docs/cmake.md, "Faults")
# ---------------------------------------------------------------------------

OUT = "user_kernels.accy"


def output_files(project):
    """Every file of the kernels' output directory: name -> bytes, but the
    steps' records (their times differ from build to build)."""
    directory = project.path(OUT)
    files = {}
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if os.path.isfile(path) and not name.endswith(".record.json"):
            with open(path, "rb") as f:
                files[name] = f.read()
    return files


def temporaries(project):
    return [name for name in os.listdir(project.path(OUT)) if ".tmp" in name]


def failed_steps(log):
    """The outputs of the steps a Ninja build reports FAILED."""
    return [line[len("FAILED: "):].split() for line in log.splitlines()
            if line.startswith("FAILED: ")]


def killed_while_writing(args, generator):
    project = Project(args, "killed-" + generator.split()[0].lower(),
                      generator=generator)
    # A clean build killed halfway through a file: nothing it wrote counts.
    killed = project.build(expect_success=False,
                           env={"ACCY_TEST_KILL_WRITING": "norm.kernel.mlirbc"})
    check(killed.returncode != 0, "a killed compiler fails the build")
    check(not os.path.exists(project.path(OUT, "norm.kernel.mlirbc")),
          "the file being written when the compiler was killed is not there")
    project.build()
    project.check_results(expected_output())

    project.edit("kernels/ops.accy", "x * SCALE + y", "x * SCALE - y")
    before = output_files(project)
    # Killed while replacing a stage file: the old file stays whole.
    killed = project.build(expect_success=False,
                           env={"ACCY_TEST_KILL_WRITING": "ops.tensor.mlirbc"})
    check(killed.returncode != 0, "a killed compiler fails the build")
    now = output_files(project)
    check(now["ops.tensor.mlirbc"] == before["ops.tensor.mlirbc"],
          "a stage file the compiler was killed replacing keeps its old bytes")
    # Killed in the target step, after it replaced its stage file and
    # before it wrote the host object: the step runs again.
    killed = project.build(expect_success=False,
                           env={"ACCY_TEST_KILL_WRITING": "ops.host.o"})
    check(killed.returncode != 0, "a killed compiler fails the build")
    check(output_files(project)["ops.host.o"] == before["ops.host.o"],
          "the host object the compiler was killed replacing is the old one")
    build = project.build()
    if generator == "Ninja":
        check("target" in build.stages_of("ops"),
              "the killed target step runs again; " + str(build))
    project.check_results(expected_output(sign=-1.0))
    if generator == "Ninja":
        check_no_work(project)


def killed_while_writing_ninja(args):
    killed_while_writing(args, "Ninja")


def killed_while_writing_makefiles(args):
    # Make keeps no log: it is the atomic rename alone that leaves it no
    # half-written file newer than its inputs.
    killed_while_writing(args, "Unix Makefiles")


def concurrent_builds(args):
    project = Project(args, "concurrent")
    project.build()
    reference = output_files(project)
    accy_outputs = [OUT + "/ops.target.mlirbc", OUT + "/norm.target.mlirbc"]

    def two_at_once(targets):
        """Two builds of `targets` at once; what each returned. Ninja's own
        files (.ninja_log, rewritten at start-up) and CMake's archive rule
        (rm -f lib.a && ar qc lib.a ...) are not safe for two builds at once
        and may fail one of them; no Accy step may fail, and one build must
        succeed. The second starts a moment after the first, past Ninja's
        start-up."""
        runs = []
        for _ in range(2):
            runs.append(subprocess.Popen(project.build_command(targets),
                                         stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True))
            time.sleep(0.2)
        results = []
        for run_ in runs:
            log = run_.communicate()[0]
            results.append((run_.returncode, log))
        for code, log in results:
            check("accyc:" not in log and
                  not any(OUT in o for outputs in failed_steps(log)
                          for o in outputs),
                  "no Accy step fails in two builds at once:\n" + log)
            if code != 0:
                print("note: one of two builds at once failed outside "
                      "Accy:\n" + log)
        check(any(code == 0 for code, _ in results),
              "one of two builds at once succeeds:\n" +
              "\n".join(log for _, log in results))
        check(not temporaries(project),
              "no temporary file is left: %s" % temporaries(project))

    # Every Accy step of both builds at once, three times from clean.
    for _ in range(3):
        run(["ninja", "-C", project.build_dir, "-t", "clean"])
        two_at_once(accy_outputs)
        check(output_files(project) == reference,
              "two builds at once write the bytes one build writes")

    # Whole builds at once, after an edit; then one more build repairs
    # what a failed one left.
    project.edit("kernels/ops.accy", "x * SCALE + y", "x * SCALE - y")
    two_at_once([])
    project.build()
    project.check_results(expected_output(sign=-1.0))
    check_no_work(project)


SIXTEEN = "".join(
    "kernel k%02d(x: f32[N, D]) -> f32[N, D] {\n  return exp(x - max(x, axis=1, "
    "keepdims=true)) * %d.0;\n}\n\n" % (i, i + 1) for i in range(16))


def store_counts(project, accyc):
    """Per stored stage: (hits, misses, writes) of the project's store."""
    counts = {}
    for line in run([accyc, "cache", "stats", "--cache-dir",
                     project.store]).splitlines():
        fields = line.split()
        if len(fields) > 4 and fields[0] in ("memory", "kernel", "target") and fields[1].isdigit():
            counts[fields[0]] = tuple(int(f) for f in fields[1:4])
    return counts


# Runs the 16 kernels on one input and prints "kNN" and each result.
SIXTEEN_APP = """#include "sixteen.accy.h"

#include <cstdio>
#include <vector>

int main() {
  const std::vector<float> x = %s;
  accy::DeviceBuffer in(x.size() * sizeof(float)), out(x.size() * sizeof(float));
  if (!in.upload(x.data(), x.size() * sizeof(float)).ok())
    return 1;
  std::vector<float> y(x.size());
  accy::Status (*kernels[])(accy::TensorView<const float, 2>,
                            accy::TensorView<float, 2>, accy::Stream) = {%s};
  for (int k = 0; k < 16; ++k) {
    accy::Status status =
        kernels[k](in.view<float, 2>({2, 3}), out.view<float, 2>({2, 3}), {});
    if (!status.ok() || !out.download(y.data(), y.size() * sizeof(float)).ok()) {
      std::printf("error k%%02d: %%s\\n", k, status.message().c_str());
      return 1;
    }
    std::printf("k%%02d", k);
    for (float v : y)
      std::printf(" %%.6f", v);
    std::printf("\\n");
  }
  return 0;
}
""" % ("{" + ", ".join("%g" % v for row in SOFTMAX_INPUT for v in row) + "}",
       ", ".join("k%02d" % i for i in range(16)))


def sixteen_expected(scales):
    """What SIXTEEN_APP prints for kernels multiplying by `scales`."""
    rows = [[math.exp(v - max(row)) for v in row] for row in SOFTMAX_INPUT]
    return {"k%02d" % i: [v * scale for row in rows for v in row]
            for i, scale in enumerate(scales)}


def add_sixteen_kernels(project, text):
    with open(os.path.join(project.src, "kernels", "sixteen.accy"), "w") as f:
        f.write(text)
    with open(os.path.join(project.src, "sixteen_app.cpp"), "w") as f:
        f.write(SIXTEEN_APP)
    with open(os.path.join(project.src, "CMakeLists.txt"), "a") as f:
        f.write("accy_add_kernels(sixteen_kernels SOURCES kernels/sixteen.accy)\n"
                "add_executable(sixteen_app sixteen_app.cpp)\n"
                "target_link_libraries(sixteen_app PRIVATE sixteen_kernels)\n")
    project.configure("host;sm_90")


def one_kernel_edit_compiles_one_kernel(args):
    """An edit inside one kernel of a file of 16 reruns that file's seven
    steps, and each step after dispatch compiles that one kernel: the other
    15 come from the kernel store. The files are those of a cold build of
    the edited file."""
    accyc = os.path.join(args.prefix, "bin", "accyc")
    project = Project(args, "one-kernel")
    add_sixteen_kernels(project, SIXTEEN)
    project.build(targets=["sixteen_app"])
    cold = store_counts(project, accyc)
    check(all(cold[s][2] == 16 for s in cold),
          "a cold build compiles (and stores) all 16 kernels: %s" % cold)
    project.edit("kernels/sixteen.accy", "* 8.0;", "* 80.0;")
    build = project.build(targets=["sixteen_app"])
    check(build.stages_of("sixteen") == set(stage_table.STAGES),
          "the edit reruns the file's seven steps: %s" % build)
    # The images are in sixteen.images.o: the launcher's source stays the
    # same, so no C++ is compiled; the program links the object directly,
    # so the library of launchers is not archived again.
    check("sixteen_kernels.accy/sixteen.images.o" in build.outputs and
          not build.compiles and not build.links and
          "sixteen_app" in build.outputs,
          "the edit writes sixteen.images.o, compiles no C++ (neither "
          "sixteen.accy.cpp nor the program), archives nothing and "
          "relinks the program: %s" % build)
    scales = [float(i + 1) for i in range(16)]
    scales[7] = 80.0
    project.check_results(sixteen_expected(scales), device="host",
                          binary=project.path("sixteen_app"))
    # The PTX of the edited images, run by the PTX emulator.
    check(args.ptx_emulator, "this scenario needs --ptx-emulator")
    project.check_results(sixteen_expected(scales), device="cuda",
                          library_path=args.ptx_emulator,
                          binary=project.path("sixteen_app"))
    edited = store_counts(project, accyc)
    for stage in ("memory", "kernel", "target"):
        hits, _, writes = (a - b for a, b in zip(edited[stage], cold[stage]))
        check(writes == 1 and hits == 15,
              "the %s step compiles one kernel and takes 15 from the store: "
              "%d compiled, %d from the store" % (stage, writes, hits))
        # The step's own record says so too, as stage-table.py shows it.
        output = [o for o in build.outputs
                  if o.endswith("sixteen.%s.mlirbc" % stage)][0]
        counts = stage_table.kernel_counts(project.build_dir, output)
        check(stage_table.kernels_cell(counts) == "1c 15s",
              "the %s step's record: %s" % (stage, counts))

    reference = Project(args, "one-kernel-cold")
    add_sixteen_kernels(reference, SIXTEEN.replace("* 8.0;", "* 80.0;"))
    reference.build(targets=["sixteen_app"])
    out = "sixteen_kernels.accy"
    files = lambda p: {n: open(os.path.join(p.path(out), n), "rb").read()
                       for n in sorted(os.listdir(p.path(out)))
                       if os.path.isfile(os.path.join(p.path(out), n)) and
                       # these name the source's path; records, times
                       not n.endswith((".d", ".srcmap.json", ".record.json"))}
    mine, theirs = files(project), files(reference)
    check({"sixteen.images.o", "sixteen.accy.cpp"} <= mine.keys(),
          "the launcher and its images are among the files compared: %s"
          % sorted(mine))
    check(mine.keys() == theirs.keys() and
          all(mine[n] == theirs[n] for n in mine),
          "the files after the edit are those of a cold build of the edited "
          "file; different: %s" % sorted(n for n in mine if mine.get(n) != theirs.get(n)))


def limited_prefix(args, name, limit):
    """A copy of the install tree whose accyc runs with a file size limit
    of `limit` bytes (RLIMIT_FSIZE, as `ulimit -f`), or none for None."""
    os.makedirs(args.work, exist_ok=True)
    prefix = tempfile.mkdtemp(prefix=name + "-prefix-", dir=args.work)
    TEMPORARIES.append(prefix)
    shutil.rmtree(prefix)

    def link(source, target):
        try:
            os.link(source, target)
        except OSError:
            shutil.copy2(source, target)
    shutil.copytree(args.prefix, prefix, symlinks=True, copy_function=link)
    set_file_size_limit(prefix, limit)
    return prefix


def set_file_size_limit(prefix, limit):
    accyc = os.path.join(prefix, "bin", "accyc")
    real = accyc + ".real"
    if not os.path.exists(real):
        os.rename(accyc, real)
    # The interpreter ignores SIGXFSZ, and exec keeps ignored signals: the
    # compiler gets the default disposition back, which kills a process
    # that writes past the limit unless it ignores the signal itself.
    with open(accyc, "w") as f:
        f.write("#!%s\n" % sys.executable +
                "import os, resource, signal, sys\n" +
                ("resource.setrlimit(resource.RLIMIT_FSIZE, (%d, %d))\n"
                 % (limit, limit) if limit else "") +
                "signal.signal(signal.SIGXFSZ, signal.SIG_DFL)\n" +
                "os.execv(%r, [%r] + sys.argv[1:])\n" % (real, real))
    os.chmod(accyc, 0o755)


def full_disk_reports_write_error(args):
    # A file size limit stands in for a full disk (no tmpfs without root):
    # the write fails (EFBIG; ENOSPC on a full disk) on the same path. The
    # limit lets every stage file but norm's target product through.
    prefix = limited_prefix(args, "full", 8192)
    project = Project(args, "full", prefix=prefix)
    failed = project.build(expect_success=False)
    check(failed.returncode != 0, "a write that fails fails the build")
    check(re.search(r"accyc: \S*norm\.target\.mlirbc: cannot write: File too "
                    r"large", failed.log),
          "the failure names the file and the reason:\n" + failed.log)
    check("core dumped" not in failed.log and "size limit" not in failed.log,
          "the compiler reports the error, it is not killed:\n" + failed.log)
    check(not os.path.exists(project.path(OUT, "norm.target.mlirbc")),
          "the output that could not be written is not there")
    check(not temporaries(project),
          "no temporary file is left: %s" % temporaries(project))
    set_file_size_limit(prefix, None)  # space again
    project.build()
    project.check_results(expected_output())
    check_no_work(project)


def without_dac_override():
    """A launcher under which root obeys file permissions (None when that
    cannot be had), or () for other users."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if not setpriv:
        return None
    caps = "-dac_override,-dac_read_search"
    launcher = (setpriv, "--inh-caps=" + caps, "--bounding-set=" + caps)
    probe = tempfile.mkdtemp(prefix="probe-")
    try:
        os.chmod(probe, 0o555)
        result = subprocess.run([*launcher, "sh", "-c", "touch %s/x" % probe],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        return launcher if result.returncode != 0 else None
    finally:
        os.chmod(probe, 0o755)
        shutil.rmtree(probe)


def read_only_output_directory(args):
    launcher = without_dac_override()
    if launcher is None:
        print("skipped: running as root, and setpriv cannot drop "
              "CAP_DAC_OVERRIDE here, so no directory is read-only")
        return
    project = Project(args, "readonly")
    project.build()
    project.edit("kernels/ops.accy", "x * SCALE + y", "x * SCALE - y")
    out = project.path(OUT)
    os.chmod(out, 0o555)
    try:
        failed = project.build(expect_success=False, launcher=launcher)
    finally:
        os.chmod(out, 0o755)
    check(failed.returncode != 0, "a read-only output directory fails the build")
    check(re.search(r"accyc: \S*/user_kernels\.accy/ops\.\w+\.\w+: "
                    r".*Permission denied", failed.log),
          "the failure names the file and the reason:\n" + failed.log)
    project.build()
    project.check_results(expected_output(sign=-1.0))
    check_no_work(project)


def corrupt_stage_file_is_rebuilt(args):
    project = Project(args, "corrupt")
    project.build()
    good = output_files(project)

    def damage(name, change):
        path = project.path(OUT, name)
        with open(path, "rb") as f:
            data = bytearray(f.read())
        with open(path, "wb") as f:
            f.write(change(data))

    def flip(data):
        data[len(data) // 2] ^= 0x20
        return data

    for name, change in (("ops.tensor.mlirbc", flip),
                         ("norm.kernel.mlirbc", lambda d: d[:len(d) // 2])):
        damage(name, change)
        failed = project.build(expect_success=False)
        check(failed.returncode != 0, "a damaged %s fails the build" % name)
        check(re.search(re.escape(name) + r": corrupt stage file: .*removed "
                        r"it, the next build makes it again", failed.log),
              "the failure names the damaged file:\n" + failed.log)
        check(not os.path.exists(project.path(OUT, name)),
              "the damaged file is removed")
        build = project.build()
        stem, stage = name.split(".")[:2]
        check(stage in build.stages_of(stem),
              "the next build makes %s again; %s" % (name, build))
        check(output_files(project) == good,
              "after the rebuild every output is what it was")
        project.check_results(expected_output())
        check_no_work(project)


def library_loads(name):
    try:
        ctypes.CDLL(name)
        return True
    except OSError:
        return False


def runtime_errors(args):
    project = Project(args, "runtime", targets="host;sm_90")
    project.build()
    mismatch = project.run_app("mismatch")
    check(mismatch.returncode == 0 and
          "error shape-mismatch: kernel 'scale_add', parameter 'y' (f32[N]): "
          "dimension 0 is N = 3, but parameter 'x' has N = 4" in mismatch.stdout,
          "a shape mismatch is an error value naming the kernel's "
          "parameters: " + mismatch.stdout)
    project.check_results(expected_output(), device="host")
    project.check_results(expected_output(), device="auto")

    for device, library in (("cuda", "libcuda.so.1"),
                            ("hip", "libamdhip64.so")):
        if library_loads(library):
            print("skipped: %s is installed here" % library)
            continue
        missing = project.run_app(device=device)
        check(missing.returncode == 1 and
              "error device-unavailable" in missing.stdout and
              library in missing.stdout,
              "ACCY_DEVICE=%s without its driver is an error value: %s"
              % (device, missing.stdout))
    bogus = project.run_app(device="tpu")
    check(bogus.returncode == 1 and "not a device" in bogus.stdout,
          "an unknown ACCY_DEVICE is an error value: " + bogus.stdout)

    # The CUDA path against the stand-in driver: images load once, every
    # launch of the plan runs with the grid of the kernel summary.
    fake = project.run_app(device="cuda", fake_cuda=True)
    check(fake.returncode == 0 and "Fake CUDA device (sm_90)" in fake.stdout,
          "the runtime uses a CUDA driver that loads: %s %s"
          % (fake.stdout, fake.stderr))
    launches = re.findall(r"launch (\w+) grid (\d+ \d+ \d+) block "
                          r"(\d+ \d+ \d+) params([ \d]*)", fake.stderr)
    check(any(name.startswith("row_softmax_k") for name, _, _, _ in launches),
          "the kernels' launches reach the driver: " + fake.stderr)
    scale_add = [l for l in launches if l[0] == "scale_add_k0"]
    check(len(scale_add) == 1 and scale_add[0][1:3] == ("1 1 1", "256 1 1"),
          "scale_add_k0 runs once on one block of 256: " + fake.stderr)
    # Three f32[N] descriptors, N = 4: {allocated, aligned, 0, 4, 1} each.
    params = [int(p) for p in scale_add[0][3].split()]
    check(len(params) == 15 and
          all(params[i] == params[i + 1] != 0 and params[i] % 16 == 0 and
              params[i + 2:i + 5] == [0, 4, 1] for i in range(0, 15, 5)),
          "scale_add_k0's parameters are three memref descriptors: %s" % params)

    corrupt = project.path("app-corrupt")
    with open(project.path("app"), "rb") as f:
        binary = f.read()
    check(b".version" in binary, "the PTX image is embedded in the binary")
    with open(corrupt, "wb") as f:
        f.write(binary.replace(b".version", b".garbage"))
    os.chmod(corrupt, 0o755)
    broken = project.run_app(device="cuda", fake_cuda=True, binary=corrupt)
    check(broken.returncode == 1 and
          "error image-load-failed" in broken.stdout and
          "CUDA_ERROR_INVALID_PTX" in broken.stdout,
          "a corrupt image is an error value: " + broken.stdout)


def keyword_parameter_names(args):
    """Parameters named like C++ keywords and reserved names: the header
    escapes them, says the source signature, compiles and runs; the
    runtime's messages use the names the source wrote."""
    project = Project(args, "keywords",
                      source=os.path.join(HERE, "keywords"))
    project.build()
    with open(project.path("name_kernels.accy", "names.accy.h")) as f:
        header = f.read()
    view = "accy::TensorView<const float, 1> "
    for line in ("/// kernel blend(new: f32[N], class: f32[N], int: f32[N]) "
                 "-> f32[N]\n"
                 "accy::Status blend(%snew_, %sclass_, %sint_, "
                 "accy::TensorView<float, 1> result, accy::Stream stream = {});"
                 % (view, view, view),
                 "/// kernel split(stream: f32[N], __x: f32[N], x_: f32[N]) "
                 "-> (f32[N], f32[N])\n"
                 "accy::Status split(%sstream_, %sx_2, %sx_, "
                 "accy::TensorView<float, 1> result0, "
                 "accy::TensorView<float, 1> result1, "
                 "accy::Stream stream = {});" % (view, view, view),
                 "accy::Status total(accy::TensorView<const std::int32_t, 1> "
                 "int32_t, accy::TensorView<const std::int32_t, 1> float_, "):
        check(line in header, "the header has\n%s\n:\n%s" % (line, header))
    a, b, c = [1, 2, 3, 4], [10, 20, 30, 40], [5, 6, 7, 8]
    project.check_results({
        "blend": [x * y + z for x, y, z in zip(a, b, c)],
        "split0": [x + y for x, y in zip(a, b)],
        "split1": [x - z for x, z in zip(a, c)],
        "total": [101, 202, 303, 404]})
    mismatch = project.run_app("mismatch")
    check("error shape-mismatch: kernel 'blend', parameter 'class' (f32[N]): "
          "dimension 0 is N = 3, but parameter 'new' has N = 4"
          in mismatch.stdout,
          "the runtime names the parameters as the source does: "
          + mismatch.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario")
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--fake-cuda", required=True)
    parser.add_argument("--ptx-emulator",
                        help="the folder of the PTX emulator's libcuda.so.1 "
                        "(one_kernel_edit_compiles_one_kernel runs on it)")
    parser.add_argument("--source", required=True,
                        help="Accy's source tree")
    return run_scenario(globals(), parser.parse_args())


def run_scenario(scenarios, args):
    """Runs the scenario `args` names; 0 when it passes, 1 when not."""
    scenario = scenarios.get(args.scenario)
    if not callable(scenario):
        sys.exit("unknown scenario " + args.scenario)
    try:
        scenario(args)
    except Failure as failure:
        print("FAILED:", failure)
        return 1
    for path in TEMPORARIES:
        shutil.rmtree(path, ignore_errors=True)
    print("passed:", args.scenario)
    return 0


if __name__ == "__main__":
    sys.exit(main())
