#!/usr/bin/env python3
"""The kernel store's remote caches with a user project (tests/cmake's
project, plus a file of 16 kernels) built against the installed Accy: one
ctest test per scenario, against the servers servers.py started.

  nginx_two_directories   a build in one directory fills nginx; the same
                          project in another directory, with an empty local
                          store, compiles no kernel and writes the same
                          PTX, HSACO, host objects and stage files; every
                          step after semantic runs from the step entry its
                          semantic step fetched
  redis_two_directories   the same through redis-server (TCP, then the
                          Unix socket)
  https_own_ca            https with the CA that signed the server's
                          certificate hits; another CA is a warning and a
                          local compile
  launcher_runs_every_step  ACCY_LAUNCHER goes in front of every stage step
  password_in_cache_variable_warns  a password in the ACCY_REMOTE_CACHE
                          cache variable is a configure warning (once) that
                          does not repeat it
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "user_project", os.path.join(HERE, "..", "cmake", "user_project.py"))
user_project = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(user_project)
Project, check, run, Failure = (user_project.Project, user_project.check,
                                user_project.run, user_project.Failure)

TARGETS = "host;sm_90;gfx90a"
LIBRARIES = ("user_kernels", "sixteen_kernels")
# Kernels of the project (ops, norm, sixteen) times the stored stages.
STORED = (2 + 16) * 3


def servers(args, name):
    with open(os.path.join(args.servers, name, "urls.json")) as f:
        return json.load(f)


def project_with_sixteen(args, name):
    project = Project(args, name, targets=TARGETS)
    with open(os.path.join(project.src, "kernels", "sixteen.accy"), "w") as f:
        f.write(user_project.SIXTEEN)
    with open(os.path.join(project.src, "CMakeLists.txt"), "a") as f:
        f.write("accy_add_kernels(sixteen_kernels SOURCES "
                "kernels/sixteen.accy)\n")
    project.configure(TARGETS)
    return project


def accyc(args):
    return os.path.join(args.prefix, "bin", "accyc")


def counts(args, store):
    """The local store's (hits, misses, writes) per stored stage, the
    remote counters, and the steps served whole from step entries, from
    `accyc cache stats`."""
    local, remote = {}, {}
    for line in run([accyc(args), "cache", "stats", "--cache-dir",
                     store]).splitlines():
        fields = line.split()
        if len(fields) > 4 and fields[1].isdigit():
            if fields[0] == "steps":
                local["steps served"] = int(fields[1])
            elif fields[0] == "remote":
                remote = dict(zip(["hits", "misses", "writes", "errors",
                                   "timeouts", "corrupt"],
                                  map(int, fields[1:7])))
            elif fields[0] in ("memory", "kernel", "target"):
                local[fields[0]] = tuple(int(f) for f in fields[1:4])
    return local, remote


def products(project):
    """Every file the kernel libraries' steps wrote, but the two that name
    the source's path (the depfile and the source map) and the steps'
    records (which hold their times)."""
    files = {}
    for library in LIBRARIES:
        out = project.path(library + ".accy")
        for name in sorted(os.listdir(out)):
            path = os.path.join(out, name)
            if os.path.isfile(path) and not name.endswith(
                    (".d", ".srcmap.json", ".record.json")):
                files[os.path.join(library, name)] = open(path, "rb").read()
    return files


def step_count(project):
    """The steps after semantic of the project's sources, each of which
    keeps a step entry."""
    return 6 * sum(name.endswith(".semantic.mlirbc")
                   for library in LIBRARIES
                   for name in os.listdir(project.path(library + ".accy")))


def two_directories(args, name, writer, reader, secret):
    """Builds the project in one directory writing to `writer`, then in
    another with an empty local store reading `reader`."""
    first = project_with_sixteen(args, name + "-first")
    built = first.build(env={"ACCY_REMOTE_CACHE": writer})
    local, remote = counts(args, first.store)
    steps = step_count(first)
    check(remote.get("writes") == STORED + steps and
          remote.get("errors") == 0,
          "the first build writes every kernel and every step entry to the "
          "remote: %s" % remote)

    second = project_with_sixteen(args, name + "-second")
    check(first.src != second.src, "two directories")
    again = second.build(env={"ACCY_REMOTE_CACHE": reader})
    local, remote = counts(args, second.store)
    check(all(made[2] == 0 for stage, made in local.items()
              if stage != "steps served"),
          "the second build compiles no kernel: %s" % local)
    # Each semantic step fetched the entries of its file's later steps
    # (docs/cache.md, "Step entries"): those steps ran from them.
    check(remote.get("hits") == steps and remote.get("misses") == 0 and
          remote.get("corrupt") == 0,
          "every step comes from the remote: %s" % remote)
    check(local.get("steps served") == steps,
          "every step after semantic runs from its entry: %s" % local)
    for library in LIBRARIES:
        out = second.path(library + ".accy")
        for name in os.listdir(out):
            if re.search(r"\.(memory|kernel|target)\.mlirbc\.record\.json$", name):
                kernels = json.load(open(os.path.join(out, name)))["kernels"]
                check(kernels["compiled"] == 0 and kernels["stored"] > 0,
                      "%s's record: %s" % (name, kernels))
    mine, theirs = products(first), products(second)
    kinds = {os.path.splitext(n)[1] for n in mine}
    check({".ptx", ".hsaco", ".o"} <= kinds, "PTX, HSACO and host objects: "
          "%s" % sorted(kinds))
    check(mine.keys() == theirs.keys() and
          all(mine[n] == theirs[n] for n in mine),
          "the second directory's files are the first's; different: %s" %
          sorted(n for n in mine if mine.get(n) != theirs.get(n)))
    check(secret not in built.log + again.log, "a credential is printed")
    second.check_results(user_project.expected_output())


def nginx_two_directories(args):
    nginx = servers(args, "nginx")
    # CI writes with the password; developers read without one.
    prefix = "/cache/two-directories-%d" % os.getpid()
    two_directories(args, "nginx", nginx["write"].replace("/cache", prefix),
                    nginx["read"].replace("/cache", prefix) + "|read-only",
                    nginx["password"])


def redis_two_directories(args):
    redis = servers(args, "redis")
    check(run(redis["cli"] + ["FLUSHALL"]).strip() == "OK", "FLUSHALL")
    two_directories(args, "redis", redis["write"],
                    redis["unix"] + "|read-only", redis["password"])


def https_own_ca(args):
    nginx = servers(args, "nginx")
    url = nginx["https_write"].replace("/cache",
                                       "/cache/https-%d" % os.getpid())
    source = os.path.join(args.source, "tests", "lit", "driver", "Inputs",
                          "ok.accy")
    root = os.path.join(args.work, "https")
    shutil.rmtree(root, ignore_errors=True)

    def build(name, ca):
        store = os.path.join(root, name, "store")
        result = subprocess.run(
            [accyc(args), "build", source, "--target", "host", "-o",
             os.path.join(root, name, "out"), "--cache-dir", store,
             "--remote-cache", url + "|ca-file=" + ca],
            capture_output=True, text=True)
        check(result.returncode == 0, "%s: the build fails: %s" %
              (name, result.stderr))
        check(nginx["password"] not in result.stdout + result.stderr,
              "%s: a credential is printed" % name)
        return result, counts(args, store)[1]

    _, remote = build("writer", nginx["ca"])
    check(remote.get("writes") == 6 and remote.get("errors") == 0,
          "https with the test's CA writes: %s" % remote)
    _, remote = build("reader", nginx["ca"])
    check(remote.get("hits") == 6, "https with the test's CA hits: %s" % remote)
    result, remote = build("wrong-ca", nginx["other_ca"])
    check(remote.get("hits") == 0 and remote.get("errors") == 1,
          "another CA: one error, no hit: %s" % remote)
    check("warning: remote cache https://***@" in result.stderr and
          "certificate" in result.stderr,
          "another CA is a warning naming the certificate: " + result.stderr)
    shutil.rmtree(root, ignore_errors=True)


def launcher_runs_every_step(args):
    project = Project(args, "launcher")
    log = os.path.join(project.root, "launched.txt")
    launcher = os.path.join(project.root, "launch.py")
    with open(launcher, "w") as f:
        f.write("#!%s\nimport os, sys\nwith open(%r, 'a') as f:\n"
                "    f.write(' '.join(sys.argv[1:4]) + '\\n')\n"
                "os.execv(sys.argv[1], sys.argv[1:])\n" % (sys.executable, log))
    os.chmod(launcher, 0o755)
    run(["cmake", "-S", project.src, "-B", project.build_dir,
         "-DACCY_LAUNCHER=" + launcher])
    project.build()
    with open(log) as f:
        launched = f.read().splitlines()
    stages = sorted(line.split()[2] for line in launched)
    check(len(launched) == 14 and
          all(line.split()[0].endswith("/accyc") for line in launched),
          "the launcher runs accyc for each of 7 stages of 2 files: %s" %
          launched)
    check(stages == sorted(user_project.stage_table.STAGES * 2),
          "every stage, twice: %s" % stages)
    project.check_results(user_project.expected_output())


def password_in_cache_variable_warns(args):
    project = project_with_sixteen(args, "password-variable")
    secret = "s3cret-%d" % os.getpid()
    configured = run(["cmake", "-S", project.src, "-B", project.build_dir,
                      "-DACCY_REMOTE_CACHE=http://ci:%s@127.0.0.1:9/cache "
                      "redis://:%s@127.0.0.1:9" % (secret, secret)])
    configured = " ".join(configured.split())  # CMake wraps warnings
    check(configured.count("ACCY_REMOTE_CACHE (http://***@127.0.0.1:9/cache "
                           "redis://***@127.0.0.1:9) holds a password") == 1,
          "one warning for the two libraries, naming the URLs without the "
          "password:\n" + configured)
    check(secret not in configured, "the warning repeats the password")
    check("bearer-token-env=NAME" in configured,
          "the warning says what to write instead")
    clean = run(["cmake", "-S", project.src, "-B", project.build_dir,
                 "-DACCY_REMOTE_CACHE=http://127.0.0.1:9/cache|read-only"])
    check("holds a password" not in clean,
          "a URL without a password warns:\n" + clean)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario")
    for option in ("--prefix", "--project", "--work", "--fake-cuda",
                   "--source", "--servers"):
        parser.add_argument(option, required=True)
    return user_project.run_scenario(globals(), parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
