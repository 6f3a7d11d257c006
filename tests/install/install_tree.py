#!/usr/bin/env python3
"""`cmake --install` of the whole toolchain into an empty prefix: exactly
the files of expected-files.txt, the tools run from there, and the CMake
package names no path of the build or source tree (it is relocatable)."""
import argparse
import os
import shutil
import subprocess
import sys

import installed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True, help="Accy's build tree")
    parser.add_argument("--source", required=True, help="Accy's source tree")
    parser.add_argument("--prefix", required=True, help="made afresh")
    installed.add_arguments(parser)
    args = parser.parse_args()

    shutil.rmtree(args.prefix, ignore_errors=True)
    result = subprocess.run(["cmake", "--install", args.build, "--prefix",
                             args.prefix], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        print("FAILED: cmake --install:\n" + result.stdout)
        return 1
    failures = []
    diff = installed.difference(installed.expected_files(args),
                                installed.tree_files(args.prefix))
    if diff:
        failures.append("the installed files differ from "
                        "expected-files.txt:\n" + diff)
    failures += installed.tool_failures(os.path.join(args.prefix, args.bindir),
                                     args.tools)
    package = os.path.join(args.prefix, args.libdir, "cmake", "Accy")
    for name in sorted(os.listdir(package)):
        with open(os.path.join(package, name)) as f:
            text = f.read()
        for tree in (args.build, args.source):
            if os.path.realpath(tree) in text or tree in text:
                failures.append("%s names %s" % (name, tree))
    for failure in failures:
        print("FAILED:", failure)
    if not failures:
        shutil.rmtree(args.prefix)
        print("passed: %d files installed" % len(installed.expected_files(args)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
