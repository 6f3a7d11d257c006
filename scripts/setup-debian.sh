#!/usr/bin/env bash
# scripts/setup-debian.sh [--dev]
#
# Installs every Debian package Accy needs to build and test, when missing;
# with --dev also what the development commands of the README need beyond
# that: clang-19 and its sanitizer and libFuzzer runtimes, for the
# `sanitize` and `tsan` presets and bench/fuzz/run.
# Needs root (or sudo) and Debian's package registry; nothing else from outside.
set -euo pipefail

dev=0
case "${1:-}" in
  "") ;;
  --dev) dev=1 ;;
  *) echo "usage: scripts/setup-debian.sh [--dev]" >&2; exit 2 ;;
esac

packages=(
  cmake ninja-build g++ git python3 ccache
  # The C++ style check of changed lines (tests/style).
  clang-format-19
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools lld-19
  # LLVM's static libraries link zlib and zstd; `lld` puts ld.lld on PATH,
  # which links the statically linked tools in a second (cmake/AccyLLVM.cmake).
  zlib1g-dev libzstd-dev lld
  nlohmann-json3-dev libasio-dev catch2
  # cpack's Debian package names its dependencies with dpkg-shlibdeps; the
  # man page test renders the pages with groff (tests/install).
  dpkg-dev groff-base
  # The instruction counts of bench/compile_time/compare --instructions
  # (tests/bench).
  valgrind
  # The kernel store's remote caches (libcurl, hiredis) and the servers
  # their tests start on loopback (tests/remote).
  libcurl4-openssl-dev libhiredis-dev nginx-core redis-server
  # The VS Code extension in a real VS Code (tests/vscode-e2e): headless
  # Chromium, and what code-server's native modules build with; Debian's rg
  # stands in for the binary @vscode/ripgrep would download.
  chromium ripgrep make libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev
)
if [ "$dev" -eq 1 ]; then
  # llvm-19 has llvm-symbolizer, which the sanitizers' reports use.
  packages+=(clang-19 libclang-rt-19-dev llvm-19)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done

# The accy-lsp tests drive the server with node's test runner and the npm
# packages pinned in tests/lsp/package-lock.json (ctest runs npm ci). A node
# that is already installed (with its npm, as NodeSource's package has it)
# serves; Debian's npm would conflict with it.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  missing+=(nodejs npm)
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "setup: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
