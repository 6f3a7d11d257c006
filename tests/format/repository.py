#!/usr/bin/env python3
"""accy-format over every .accy file of the repository: formatting reaches
its fixed point in one step, keeps every comment, leaves the semantic
product byte-identical, and finds the repository already formatted (the
files that do not parse, the diagnostics tests' inputs, must be refused)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ERROR_CODE = re.compile(r"error\[(E\d+)\]")
# accy-format's own test inputs, left unformatted on purpose (everything but
# --check still applies to them).
UNFORMATTED_ON_PURPOSE = {os.path.join("tests", "lit", "format", "Inputs", f)
                          for f in ("messy.accy", "comments.accy")}


def accy_files(source):
    """The .accy files git tracks, or every one outside build trees."""
    listed = subprocess.run(["git", "-C", source, "ls-files", "*.accy"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    if listed.returncode == 0 and listed.stdout.strip():
        return [os.path.join(source, p) for p in listed.stdout.split()]
    found = []
    for root, dirs, files in os.walk(source):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build"))
                   and d != "node_modules"]
        found += [os.path.join(root, f) for f in files if f.endswith(".accy")]
    return sorted(found)


def comments(text):
    """The comments of an Accy source, in order (strings skipped; a line
    comment without trailing white space)."""
    found, i = [], 0
    while i < len(text):
        if text[i] == '"':
            end = text.find('"', i + 1)
            i = len(text) if end < 0 else end + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            found.append(text[i:end].rstrip())
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = len(text) if end < 0 else end + 2
            found.append(text[i:end])
            i = end
        else:
            i += 1
    return found


def semantic(accyc, path, out_dir, include_dir):
    """(product bytes or None, error codes) of `accyc stage semantic`."""
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "product.semantic.mlirbc")
    run = subprocess.run([accyc, "stage", "semantic", path, "-o", out,
                          "-I", include_dir, "--no-snippet"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    if run.returncode != 0:
        return None, sorted(set(ERROR_CODE.findall(run.stdout)))
    with open(out, "rb") as f:
        return f.read(), []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--format", required=True)
    parser.add_argument("--accyc", required=True)
    parser.add_argument("--source", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="accy-format-repo-") as work:
        return check_repository(args, work)


def check_repository(args, work):
    failures, formatted_files, refused, compiled, checked = [], [], 0, 0, 0
    for n, path in enumerate(accy_files(args.source)):
        name = os.path.relpath(path, args.source)
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            original = f.read()
        first = subprocess.run([args.format, path], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
        if first.returncode != 0:
            if b"does not parse" not in first.stderr or first.stdout:
                failures.append("%s: refused without saying why: %s"
                                % (name, first.stderr.decode()))
            refused += 1
            continue
        formatted = first.stdout.decode("utf-8", "surrogateescape")
        if name not in UNFORMATTED_ON_PURPOSE:
            formatted_files.append(path)
        checked += 1
        second = subprocess.run([args.format, "-"], input=first.stdout,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if second.returncode != 0 or second.stdout != first.stdout:
            failures.append("%s: formatting twice differs from once" % name)
        if comments(formatted) != comments(original):
            failures.append("%s: comments lost or changed" % name)
        copy_dir = os.path.join(work, str(n), "formatted")
        os.makedirs(copy_dir)
        copy = os.path.join(copy_dir, os.path.basename(path))
        with open(copy, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(formatted)
        include = os.path.dirname(path)
        before = semantic(args.accyc, path, os.path.join(work, str(n), "a"),
                          include)
        after = semantic(args.accyc, copy, os.path.join(work, str(n), "b"),
                         include)
        compiled += before[0] is not None
        if before != after:
            failures.append("%s: the semantic product (or its errors %s vs "
                            "%s) changed" % (name, before[1], after[1]))
    check = subprocess.run([args.format, "--check"] + formatted_files,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
    if check.returncode != 0:
        failures.append("accy-format --check: not formatted (run accy-format "
                        "-i on them):\n" + check.stdout)
    print("%d files formatted and checked (%d semantic products compared), "
          "%d refused (parse errors)" % (checked, compiled, refused))
    for failure in failures:
        print("FAIL:", failure)
    if checked < 50 or refused == 0 or compiled < 30:
        print("FAIL: expected the repository's files, found %d formatted, "
              "%d compiled and %d refused" % (checked, compiled, refused))
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
