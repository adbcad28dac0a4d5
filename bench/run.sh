#!/usr/bin/env bash
# Prints the benchmark tables of docs/benchmarks.md; each case in its own process so that
# peak memory is per case. Usage: bench/run.sh [BUILD_DIR] [MAX_UNITS] [platform|collectives|headline|timeline|progress|sweep|search|all]
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
if [ "$what" = collectives ] || [ "$what" = all ]; then
  echo
  echo "| policy | units | message | patterns costed | routes | simulated (s) | busbw (GB/s) | wall (s) | peak RSS (GiB) | RSS per unit (KiB) |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for case in "ring 1024" "ring 4096" "ring 16384" "recursive 16384" "tree 16384"; do
    set -- $case
    [ "$2" -le "$max" ] || continue
    "$build/bin/zs_bench_collective" "$1" "$2" 1073741824 collapsed
  done
fi
if [ "$what" = headline ] || [ "$what" = all ]; then
  echo
  echo "| scenario | wall (s) | peak RSS (GiB) | simulated iteration (s) | collapsed |"
  echo "|---|---|---|---|---|"
  for scenario in moe-10t-16k moe-10t-512k; do
    out=$(mktemp -d)
    /usr/bin/time -f "%e %M" -o "$out/time" "$build/bin/zettasim" run "scenarios/$scenario.json" --out "$out/r" --quiet \
      > /dev/null
    read -r wall rss < "$out/time"
    python3 - "$scenario" "$wall" "$rss" "$out/r/summary.json" <<'PY'
import json, sys
name, wall, rss, path = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
s = json.load(open(path))
c = s.get("collapsed", {})
print(f"| {name} | {wall:.1f} | {rss / 1024 / 1024:.2f} | {s['iteration_time_s']:.2f} | "
      f"{c.get('simulated_ranks')} of {s['ranks']} ranks, {c.get('distance_maps')} distance maps |")
PY
    rm -rf "$out"
  done
fi
if [ "$what" = timeline ] || [ "$what" = all ]; then
  # What --timeline adds to a run: the same scenario without and with it, back to back.
  echo
  echo "| scenario | fidelity | wall without (s) | wall with (s) | added | timeline (MB) | events | peak RSS with (GiB) |"
  echo "|---|---|---|---|---|---|---|---|"
  for scenario in moe-ep-64 moe-10t-512k; do
    out=$(mktemp -d)
    /usr/bin/time -f "%e %M" -o "$out/plain" "$build/bin/zettasim" run "scenarios/$scenario.json" --out "$out/a" \
      --quiet > /dev/null
    /usr/bin/time -f "%e %M" -o "$out/with" "$build/bin/zettasim" run "scenarios/$scenario.json" --out "$out/b" \
      --quiet --timeline "$out/t.json" > "$out/said"
    read -r plain _ < "$out/plain"
    read -r with rss < "$out/with"
    events=$(sed -n 's/^timeline: .* (\([0-9]*\) events.*/\1/p' "$out/said")
    fidelity=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['fidelity'])" "$out/b/summary.json")
    /usr/bin/python3 -c "import os,sys; p,w,r,f=float(sys.argv[1]),float(sys.argv[2]),float(sys.argv[3]),sys.argv[4]
print(f'| {sys.argv[5]} | {sys.argv[7]} | {p:.1f} | {w:.1f} | {100 * (w - p) / p:+.0f}% | {os.path.getsize(f) / 1e6:.1f} | {sys.argv[6]} | {r / 1024 / 1024:.2f} |')" \
      "$plain" "$with" "$rss" "$out/t.json" "$scenario" "$events" "$fidelity"
    rm -rf "$out"
  done
fi
if [ "$what" = progress ] || [ "$what" = all ]; then
  # What progress reporting costs on the headline: CPU time with --quiet (no progress sink at all) and
  # without (reports, lines on a non-terminal stderr), alternating, the least of two runs each (hardware
  # counters are not available on these virtual machines, and wall time varies by up to 20%).
  echo
  echo "| scenario | CPU s, --quiet | CPU s, with progress | added |"
  echo "|---|---|---|---|"
  out=$(mktemp -d)
  for round in 1 2; do
    for mode in quiet progress; do
      flag=$([ $mode = quiet ] && echo --quiet || true)
      /usr/bin/time -f "%U %S" -a -o "$out/$mode.time" "$build/bin/zettasim" run scenarios/moe-10t-512k.json \
        --out "$out/r-$mode" --force $flag > /dev/null 2> /dev/null
    done
  done
  /usr/bin/python3 - "$out/quiet.time" "$out/progress.time" <<'PY'
import sys
def least(path):
    return min(sum(map(float, line.split())) for line in open(path) if line.strip())
q, p = least(sys.argv[1]), least(sys.argv[2])
print(f"| moe-10t-512k | {q:.1f} | {p:.1f} | {100 * (p - q) / q:+.1f}% |")
PY
  rm -rf "$out"
fi
if [ "$what" = sweep ] || [ "$what" = all ]; then
  # A 200-point sweep of the default scenario (seeds 1 to 200) with 2 jobs, against the same 200 scenarios
  # run one by one with `zettasim run`: the sweep's overhead over its points' own run times.
  echo
  echo "| points | jobs | sum of the points' runs (s) | sweep wall (s) | wall / (sum / jobs) |"
  echo "|---|---|---|---|---|"
  out=$(mktemp -d)
  python3 - "$out" "$PWD" <<'PY'
import json, sys
out, root = sys.argv[1], sys.argv[2]
json.dump({"kind": "sweep", "name": "overhead", "base": f"{root}/scenarios/default.json",
           "axes": [{"name": "seed", "pointer": "/seed", "range": {"from": 1, "to": 200, "steps": 200}}]},
          open(f"{out}/sweep.json", "w"))
for seed in range(1, 201):
    s = json.load(open(f"{root}/scenarios/default.json"))
    s["seed"] = seed
    for key in ("machine",):
        for name, path in s[key]["models"].items():
            s[key]["models"][name] = f"{root}/scenarios/{path}"
        s[key]["topology"] = f"{root}/scenarios/{s[key]['topology']}"
    s["workload"]["model"] = f"{root}/scenarios/{s['workload']['model']}"
    json.dump(s, open(f"{out}/point-{seed}.json", "w"))
PY
  t0=$EPOCHREALTIME
  for seed in $(seq 1 200); do
    "$build/bin/zettasim" run "$out/point-$seed.json" --out "$out/run" --force --quiet > /dev/null
  done
  t1=$EPOCHREALTIME
  "$build/bin/zettasim" sweep "$out/sweep.json" --out "$out/sweep.h5" --jobs 2 --quiet > /dev/null
  t2=$EPOCHREALTIME
  python3 -c "import sys; t0, t1, t2 = map(float, sys.argv[1:]); r, s = t1 - t0, t2 - t1
print(f'| 200 | 2 | {r:.1f} | {s:.1f} | {s / (r / 2):.2f} |')" "$t0" "$t1" "$t2"
  rm -rf "$out"
fi
if [ "$what" = search ] || [ "$what" = all ]; then
  # `zettasim search` on the moe-10t scenarios: tier 1 alone (--top 0), then with 16 finalists run one at a
  # time (--jobs 1, so that the engine's share is the finalists' own run times).
  echo
  echo "| scenario | finalists | candidates | estimated | probe traces | tier 1 (s) | candidates/s | wall (s) | peak RSS (GiB) |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for case in "moe-10t-16k 0" "moe-10t-16k 16" "moe-10t-512k 0"; do
    set -- $case
    [ "$1" != moe-10t-512k ] || [ "$max" -ge 524288 ] || continue
    out=$(mktemp -d)
    /usr/bin/time -f "%e %M" -o "$out/time" "$build/bin/zettasim" search "scenarios/$1.json" --top "$2" --jobs 1 \
      --out "$out/s" --quiet > /dev/null
    read -r wall rss < "$out/time"
    /usr/bin/python3 - "$1" "$2" "$wall" "$rss" "$out/s/search.json" <<'PY'
import json, sys
name, top, wall, rss, path = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
s = json.load(open(path))["space"]
print(f"| {name} | {top} | {s['candidates']:,} | {s['estimated']:,} | {s['probe_traces']:,} | {s['tier1_seconds']:.1f} | "
      f"{s['candidates'] / s['tier1_seconds']:,.0f} | {wall:.1f} | {rss / 1024 / 1024:.2f} |")
PY
    rm -rf "$out"
  done
fi
