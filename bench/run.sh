#!/usr/bin/env bash
# Prints the benchmark tables of the README "Benchmarks" section; each case in its own process so that
# peak memory is per case. Usage: bench/run.sh [BUILD_DIR] [MAX_UNITS] [platform|collectives|all]
set -euo pipefail
build=${1:-build}
max=${2:-524288}
what=${3:-all}
if [ "$what" = platform ] || [ "$what" = all ]; then
  echo "| generator | units | nodes | links | generate (s) | SimGrid platform (s) | first transfer (s) | peak RSS (GiB) |"
  echo "|---|---|---|---|---|---|---|---|"
  for generator in torus fat-tree dragonfly disaggregated; do
    for units in 8192 65536 524288; do
      [ "$units" -le "$max" ] || continue
      "$build/bin/zs_bench_platform" "$generator" "$units"
    done
  done
fi
if [ "$what" = collectives ] || [ "$what" = all ]; then
  echo
  echo "| policy | units | message | transfers | simulated (s) | busbw (GB/s) | wall (s) | transfers/s | peak RSS (GiB) | RSS per unit (KiB) |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  # Exact fidelity only: the ring stops at 1,024 units (4,096 runs past 5 minutes and 4.9 GiB).
  for case in "ring 256" "ring 1024" "tree 1024" "tree 4096" "tree 16384" "recursive 1024" "recursive 4096" \
              "recursive 16384"; do
    set -- $case
    [ "$2" -le "$max" ] || continue
    "$build/bin/zs_bench_collective" "$1" "$2"
  done
fi
