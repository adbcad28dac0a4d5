#!/usr/bin/env bash
# Prints the platform-build benchmark table (README "Benchmarks"); each size in its own process so that
# peak memory is per size. Usage: bench/run.sh [BUILD_DIR] [MAX_UNITS]
set -euo pipefail
build=${1:-build}
max=${2:-524288}
echo "| generator | units | nodes | links | generate (s) | SimGrid platform (s) | first transfer (s) | peak RSS (GiB) |"
echo "|---|---|---|---|---|---|---|---|"
for generator in torus fat-tree dragonfly disaggregated; do
  for units in 8192 65536 524288; do
    [ "$units" -le "$max" ] || continue
    "$build/bin/zs_bench_platform" "$generator" "$units"
  done
done
