#!/usr/bin/env bash
# The main job: builds accyc and compiles the bundled examples through all
# seven stages for every target, printing each file's per-stage table.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ACCY_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" accyc
out="$build/examples-out"
for src in "$root"/examples/kernels/*.accy; do
  echo "== $(basename "$src")"
  "$build/driver/accyc" build "$src" -I "$root/examples/kernels" \
    --target sm_80,sm_90,gfx90a,gfx942,host -o "$out" --timing
done
echo "artifacts in $out:"
ls "$out"
