"""What an install must hold (expected-files.txt) and do (its tools run),
for install_tree.py and package.py."""
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def add_arguments(parser):
    """The install directories (CMAKE_INSTALL_*) and build type that fill in
    expected-files.txt, and the user tools (ACCY_USER_TOOLS)."""
    for name in ("bindir", "docdir", "includedir", "libdir", "mandir",
                 "config"):
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--tools", nargs="+", required=True)


def expected_files(args):
    """The sorted relative paths of expected-files.txt, filled in."""
    values = {name: getattr(args, name) for name in
              ("bindir", "docdir", "includedir", "libdir", "mandir")}
    values["config"] = args.config.lower()
    with open(os.path.join(HERE, "expected-files.txt")) as f:
        return sorted(line.strip().format(**values) for line in f
                      if line.strip() and not line.startswith("#"))


def tree_files(root):
    """The sorted relative paths of the files (and links) under `root`."""
    found = []
    for directory, _, files in os.walk(root):
        for name in files:
            found.append(os.path.relpath(os.path.join(directory, name), root))
    return sorted(found)


def difference(expected, actual):
    """'' when the lists are equal, else what is missing and what is extra."""
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    lines = ["missing: " + path for path in missing]
    lines += ["not expected: " + path for path in extra]
    return "\n".join(lines)


def tool_failures(bindir, tools):
    """What is wrong with running `TOOL --version` for each of `tools` in
    `bindir`: each must start and name itself."""
    failures = []
    for tool in tools:
        path = os.path.join(bindir, tool)
        run = subprocess.run([path, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        if run.returncode != 0 or not run.stdout.startswith(tool + " "):
            failures.append("%s --version: %s" % (path, run.stdout))
    return failures
