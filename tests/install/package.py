#!/usr/bin/env python3
"""`cpack` makes the Debian package and the tarball: the package is named
and versioned from the project, depends on the Debian libraries its tools
load, and both hold exactly the files of expected-files.txt. The package is
then unpacked with `dpkg -x` into WORK/root (no change to the system), its
tools run from there, and the next test builds a user project against
it."""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tarfile
import time

import installed


class Failure(Exception):
    pass


def run(command, cwd=None):
    result = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        raise Failure("%s failed:\n%s" % (" ".join(command), result.stdout))
    return result.stdout


def only(pattern):
    found = glob.glob(pattern)
    if len(found) != 1:
        raise Failure("expected one %s, found %s" % (pattern, found))
    return found[0]


def check_fields(deb, version):
    fields = {}
    for name in ("Package", "Version", "Architecture", "Depends"):
        fields[name] = run(["dpkg-deb", "--field", deb, name]).strip()
    arch = run(["dpkg", "--print-architecture"]).strip()
    want = {"Package": "accy", "Version": version, "Architecture": arch}
    for name, value in want.items():
        if fields[name] != value:
            raise Failure("%s is %r, expected %r" % (name, fields[name], value))
    depends = [d.split()[0] for d in fields["Depends"].split(", ")]
    # The tools link the C++ runtime statically (cmake/AccyLLVM.cmake): no
    # libstdc++6; zlib, as LLVM's compression does.
    for library in ("libc6", "zlib1g"):
        if library not in depends:
            raise Failure("Depends (%s) lacks %s" % (fields["Depends"], library))
    return fields


def check_list(what, expected, actual):
    diff = installed.difference(expected, actual)
    if diff:
        raise Failure("%s differs from expected-files.txt:\n%s" % (what, diff))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True, help="Accy's build tree")
    parser.add_argument("--work", required=True, help="made afresh")
    parser.add_argument("--version", required=True)
    installed.add_arguments(parser)
    args = parser.parse_args()
    try:
        shutil.rmtree(args.work, ignore_errors=True)
        out = os.path.join(args.work, "out")
        start = time.monotonic()
        # gzip instead of the package's xz: seconds instead of a minute,
        # the same files.
        run(["cpack", "-G", "DEB;TGZ", "-B", out,
             "-D", "CPACK_DEBIAN_COMPRESSION_TYPE=gzip"], cwd=args.build)
        seconds = time.monotonic() - start
        deb = only(os.path.join(out, "accy_%s_*.deb" % args.version))
        tgz = only(os.path.join(out, "accy-%s-*.tar.gz" % args.version))
        fields = check_fields(deb, args.version)
        expected = installed.expected_files(args)

        root = os.path.join(args.work, "root")
        run(["dpkg", "-x", deb, root])
        check_list("the Debian package (under /usr)", expected,
                   installed.tree_files(os.path.join(root, "usr")))
        check_list("the Debian package", ["usr/" + p for p in expected],
                   installed.tree_files(root))
        # Stripped, they still run.
        failures = installed.tool_failures(
            os.path.join(root, "usr", args.bindir), args.tools)
        if failures:
            raise Failure("\n".join(failures))
        with tarfile.open(tgz) as archive:
            names = [m.name.split("/", 1)[1] for m in archive.getmembers()
                     if not m.isdir()]
        check_list("the tarball (under its top directory)", expected, names)
    except Failure as failure:
        print("FAILED:", failure)
        return 1
    print("passed: cpack took %.1f s; %s %.1f MB, %s %.1f MB; Depends: %s"
          % (seconds, os.path.basename(deb), os.path.getsize(deb) / 1e6,
             os.path.basename(tgz), os.path.getsize(tgz) / 1e6,
             fields["Depends"]))
    shutil.rmtree(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
