#!/usr/bin/env python3
"""Tests scripts/check-cxx-format.py on a scratch git repository: lines
written before .clang-format was added are left alone, a badly formatted
line changed after it fails the check (committed or not) and names the
file and line, and the check passes once the line is formatted."""
import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "scripts", "check-cxx-format.py")

OLD_STYLE = "int  old ( int x ){return x;}\n"


def git(repo, *args):
    subprocess.run(["git", "-C", repo, "-c", "user.name=t", "-c",
                    "user.email=t@t", *args], check=True, capture_output=True)


def check(repo, clang_format):
    return subprocess.run([sys.executable, CHECK, "--repo", repo,
                           "--clang-format", clang_format],
                          capture_output=True, text=True)


def expect(what, run, code, *needles):
    out = run.stdout + run.stderr
    if run.returncode != code or any(n not in out for n in needles):
        sys.exit(f"FAIL {what}: exit {run.returncode} (wanted {code}), "
                 f"wanted {needles} in:\n{out}")
    print(f"ok   {what}")


def main():
    clang_format = sys.argv[1]
    with tempfile.TemporaryDirectory() as repo:
        git(repo, "init", "-q")
        with open(os.path.join(repo, "old.cpp"), "w") as f:
            f.write(OLD_STYLE)
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "before the style")
        with open(os.path.join(repo, ".clang-format"), "w") as f:
            f.write("BasedOnStyle: LLVM\n")
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "adopt the style")
        expect("old code is left alone", check(repo, clang_format), 0,
               "are formatted")

        # A change after the style: uncommitted, then committed.
        with open(os.path.join(repo, "old.cpp"), "a") as f:
            f.write("int f(int a) { return a; }\nint  bad ( ){return 1;}\n")
        expect("an uncommitted unformatted line fails",
               check(repo, clang_format), 1, "old.cpp: not formatted at line(s) 3")
        git(repo, "commit", "-q", "-am", "a change")
        expect("a committed unformatted line fails",
               check(repo, clang_format), 1, "old.cpp: not formatted at line(s) 3")

        with open(os.path.join(repo, "old.cpp"), "w") as f:
            f.write(OLD_STYLE + "int f(int a) { return a; }\nint bad() { return 1; }\n")
        expect("formatted, it passes", check(repo, clang_format), 0,
               "are formatted")

        with open(os.path.join(repo, "new.h"), "w") as f:
            f.write("struct  S{int a;};\n")
        git(repo, "add", "new.h")
        expect("a new file is checked whole", check(repo, clang_format), 1,
               "new.h: not formatted at line(s) 1")


if __name__ == "__main__":
    main()
