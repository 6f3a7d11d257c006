#!/usr/bin/env bash
# Builds Accy and runs every test (Catch2 units, lit + FileCheck per stage,
# end-to-end numerics) through ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ACCY_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
