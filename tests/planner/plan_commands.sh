#!/usr/bin/env bash
# zettasim plan from the command line: the planner's own build links no SimGrid and writes the folder
# zettasim plan writes; plan --predict gives zettasim run's iteration time and collective choices for the
# NCCL job (NCCL's latencies and algorithms); a job the
# healthy GPUs cannot hold exits 2 with one line.
#   plan_commands.sh ZETTASIM PLAN_WITHOUT_ENGINE SOURCE_DIR
set -euo pipefail
zettasim=$1 no_engine=$2 source=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The check can fail: zettasim itself links SimGrid. (Outputs go to files first: with pipefail, grep -q
# leaving a pipe early would fail the writer and turn a match into a failure of the test line.)
ldd "$zettasim" >"$work/zettasim.ldd"
ldd "$no_engine" >"$work/planner.ldd"
nm -C "$no_engine" >"$work/planner.nm"
grep -q libsimgrid "$work/zettasim.ldd" || fail "zettasim does not link SimGrid, so the check below proves nothing"
if grep -q libsimgrid "$work/planner.ldd"; then fail "the planner build links SimGrid"; fi
if grep -q 'zs::engine::' "$work/planner.nm"; then fail "the planner build holds engine code"; fi
grep -q 'zs::planner::make_job_plan' "$work/planner.nm" || fail "the planner build holds no planner code"

scenario=$source/scenarios/planner/gpt3-1.3b-hgx-h100-4node.json
"$zettasim" plan "$scenario" --out "$work/cli" --quiet >/dev/null
"$no_engine" "$scenario" "$work/planner" >/dev/null
for f in hostfile ranks.json launch.sbatch plan.json; do
  cmp "$work/cli/$f" "$work/planner/$f" || fail "$f differs between zettasim plan and the planner build"
done
[ "$(wc -l <"$work/cli/hostfile")" = 24 ] || fail "the hostfile has not one line per rank"

"$zettasim" plan "$scenario" --out "$work/predict" --predict --quiet >/dev/null
# The plan is of the NCCL job: zettasim run of the scenario with NCCL's latencies and algorithms gives it.
/usr/bin/python3 - "$scenario" "$work/nccl-job.json" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
here = os.path.dirname(sys.argv[1])
def absolute(v):
    if isinstance(v, dict):
        return {k: absolute(x) for k, x in v.items()}
    if isinstance(v, str) and v.startswith("../"):
        return os.path.normpath(os.path.join(here, v))
    return v
d = absolute(d)
d["policies"]["collective"] = {"name": d["policies"]["collective"], "step_latency": True, "algorithms": "nccl"}
json.dump(d, open(sys.argv[2], "w"))
PY
"$zettasim" run "$work/nccl-job.json" --out "$work/run" --quiet >/dev/null
/usr/bin/python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
plan = json.load(open(f"{work}/predict/plan.json"))
run = json.load(open(f"{work}/run/summary.json"))
p = plan["prediction"]
assert p["iteration_time_s"] == run["iteration_time_s"], (p["iteration_time_s"], run["iteration_time_s"])
assert p["mfu"] == run["mfu"]
chosen = sorted({c["algorithm"] for c in plan["collectives"]["choices"]})
assert chosen == sorted(p["collective_algorithms"]), (chosen, p["collective_algorithms"])
interval = plan["checkpoint"]["interval_s"] / p["iteration_time_s"]
assert plan["checkpoint"]["save_interval_iterations"] == round(interval), interval
args = plan["megatron_arguments"]
assert f"--save-interval {round(interval)}" in args, args
PY

/usr/bin/python3 - "$scenario" "$work/too-big.json" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
base = os.path.dirname(sys.argv[1])
d["machine"] = os.path.join(base, d["machine"])
d["workload"]["model"] = os.path.join(base, d["workload"]["model"])
d["reliability"]["failure_rates"] = os.path.join(base, d["reliability"]["failure_rates"])
d["workload"]["data_parallel"] = 4
json.dump(d, open(sys.argv[2], "w"))
PY
set +e
"$zettasim" plan "$work/too-big.json" --out "$work/too-big" 2>"$work/err" >/dev/null
rc=$?
set -e
[ $rc = 2 ] || fail "a job larger than the healthy GPUs exited $rc"
[ "$(wc -l <"$work/err")" = 1 ] || fail "expected one line, got: $(cat "$work/err")"
grep -q 'the job needs 32 units but machine "hgx-h100-4node" has 24 usable (1 nodes of the inventory are left out' "$work/err" || fail "$(cat "$work/err")"
echo "plan commands: OK"
