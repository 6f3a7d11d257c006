#!/usr/bin/env bash
# The main job: builds Accy and installs it into a prefix inside the build
# directory, then configures, builds and runs the example user project
# (examples/mlp-app: find_package(Accy) + accy_add_kernels, one Ninja step
# per stage) and prints its results and the per-stage build table.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ACCY_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" accyc accy_runtime
prefix="$build/example-prefix"
cmake --install "$build" --prefix "$prefix" --component accy >/dev/null
app="$build/example-app"
cmake -G Ninja -S "$root/examples/mlp-app" -B "$app" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DACCY_TARGETS="host;sm_80;sm_90;gfx90a;gfx942" >/dev/null
ninja -C "$app"
echo
"$app/mlp-app"
echo
"$root/scripts/stage-table.py" "$app"
