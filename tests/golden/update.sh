#!/usr/bin/env bash
# Writes tests/golden anew from a build's zettasim: every shipped scenario's run outputs, goodput outputs for
# those with a reliability section, the planner's folder for scenarios/planner's small cluster, and a timeline.
# Run from anywhere; review the diff before committing it.
#   tests/golden/update.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$root" && realpath "${1:-build}")/bin/zettasim
cd "$root"
for scenario in scenarios/*.json; do
  name=$(basename "$scenario" .json)
  "$bin" run "$scenario" --out "tests/golden/$name" --force --quiet >/dev/null
  rm -f "tests/golden/$name/.zettasim-output"
  if grep -q '"reliability"' "$scenario"; then
    "$bin" goodput "$scenario" --out "tests/golden/$name-goodput" --force --quiet >/dev/null
    rm -f "tests/golden/$name-goodput/.zettasim-output"
  fi
done
# The planner's folder for the small cluster (the large one's would be megabytes).
"$bin" plan scenarios/planner/gpt3-1.3b-hgx-h100-4node.json --out tests/golden/plan-gpt3-1.3b-hgx-h100-4node \
  --force --quiet >/dev/null
rm -f tests/golden/plan-gpt3-1.3b-hgx-h100-4node/.zettasim-output
# A timeline of two ranks of the timeline test case (tests/output/timeline_json_test.cpp runs the same).
tmp=$(mktemp -d)
mkdir -p tests/golden/timeline-offload-pp4-ocs
"$bin" run tests/output/data/offload-pp4-ocs.json --out "$tmp/out" --quiet \
  --timeline tests/golden/timeline-offload-pp4-ocs/timeline.json --timeline-ranks dp=0,tp=0,pp=0..1 \
  --timeline-links 4 >/dev/null
rm -rf "$tmp"
echo "tests/golden written by $bin"
