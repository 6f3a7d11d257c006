#!/usr/bin/env python3
"""Checks that the C++ lines changed since a base commit are clang-formatted.

  scripts/check-cxx-format.py [--base REV] [--clang-format PATH] [--repo DIR]

The style is the repository's .clang-format (LLVM's). Code written before
the style was adopted is not reformatted wholesale, which would bury its
history; instead every C++ line added or changed since the commit that
added .clang-format (or since --base) must be formatted, in commits and in
uncommitted changes alike. ctest runs it (`style.cxx_format`), and so CI.

Exit 0 when those lines are formatted, 1 naming each file and line range
that is not (`git clang-format-19 BASE` formats them), 2 when it cannot
check (no git checkout, the base commit missing from a shallow clone, no
clang-format).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

EXTENSIONS = (".cpp", ".h", ".hpp", ".cc")
HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True,
                          capture_output=True, text=True).stdout


def style_commit(repo):
    """The commit that added .clang-format: the style holds from there on."""
    commits = git(repo, "log", "--diff-filter=A", "--format=%H", "--",
                  ".clang-format").split()
    return commits[-1] if commits else None


def changed_lines(repo, base):
    """{file: [(first, last)]} of the lines added or changed since base, in
    the working tree."""
    diff = git(repo, "diff", "-U0", "--no-color", "--no-ext-diff",
               "--diff-filter=AMR", base, "--",
               *[f"*{ext}" for ext in EXTENSIONS])
    ranges, current = {}, None
    for line in diff.splitlines():
        if line.startswith("+++ "):
            current = line[6:] if line.startswith("+++ b/") else None
        elif current and (m := HUNK.match(line)):
            first, count = int(m.group(1)), int(m.group(2) or "1")
            if count:
                ranges.setdefault(current, []).append((first, first + count - 1))
    return ranges


def find_clang_format(given):
    for cand in [given, shutil.which("clang-format-19"),
                 "/usr/lib/llvm-19/bin/clang-format"]:
        if cand and os.path.isfile(cand):
            return cand
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="check the lines changed since this commit "
                    "(default: the commit that added .clang-format)")
    ap.add_argument("--clang-format", help="the clang-format binary "
                    "(default: clang-format-19)")
    ap.add_argument("--repo", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    args = ap.parse_args()

    clang_format = find_clang_format(args.clang_format)
    if not clang_format:
        print("check-cxx-format: clang-format-19 not found "
              "(scripts/setup-debian.sh installs it)", file=sys.stderr)
        return 2
    try:
        git(args.repo, "rev-parse", "--git-dir")
    except (subprocess.CalledProcessError, FileNotFoundError):
        print(f"check-cxx-format: {args.repo} is not a git checkout",
              file=sys.stderr)
        return 2
    base = args.base or style_commit(args.repo)
    if not base:
        print("check-cxx-format: no commit adds .clang-format; "
              "name one with --base", file=sys.stderr)
        return 2
    try:
        git(args.repo, "cat-file", "-e", base + "^{commit}")
    except subprocess.CalledProcessError:
        print(f"check-cxx-format: commit {base} is not in this clone "
              "(a shallow clone? fetch more history)", file=sys.stderr)
        return 2

    unformatted = []
    for path, ranges in sorted(changed_lines(args.repo, base).items()):
        run = subprocess.run(
            [clang_format, "--dry-run", "--Werror",
             *[f"--lines={a}:{b}" for a, b in ranges], path],
            cwd=args.repo, capture_output=True, text=True)
        if run.returncode != 0:
            found = sorted({int(m) for m in re.findall(
                rf"^{re.escape(path)}:(\d+):\d+: (?:error|warning)",
                run.stderr, re.M)})
            unformatted.append(
                (path, [str(n) for n in found] or [f"{a}-{b}" for a, b in ranges]))

    if not unformatted:
        # A shallow clone shows its oldest commit adding every file, so the
        # check covers only what changed after that commit.
        shallow = git(args.repo, "rev-parse",
                      "--is-shallow-repository").strip() == "true"
        print(f"check-cxx-format: C++ lines changed since {base[:12]} "
              "are formatted" +
              (" (a shallow clone: since its oldest commit)" if shallow and
               not args.base else ""))
        return 0
    for path, lines in unformatted:
        print(f"{path}: not formatted at line(s) {', '.join(lines)}")
    print(f"\n{len(unformatted)} file(s) with unformatted changed lines; "
          f"`git clang-format-19 {base[:12]}` formats them")
    return 1


if __name__ == "__main__":
    sys.exit(main())
