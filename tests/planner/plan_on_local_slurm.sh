#!/usr/bin/env bash
# zettasim plan against a real Slurm: the local one-node cluster (tests/slurm/local_slurm.sh) described by
# its own scontrol show nodes --oneliner and a topology.conf, planned for an 8-GPU job; sbatch --test-only
# accepts launch.sbatch and scontrol show hostnames of its node list is the hostfile's set of hosts.
#   plan_on_local_slurm.sh ZETTASIM SOURCE_DIR        (as root)
set -euo pipefail
zettasim=$1 source=$2
work=$(mktemp -d)
slurm=$source/tests/slurm/local_slurm.sh
trap '"$slurm" stop "$work/slurm" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "the local Slurm runs as root (./dev test runs as root in CI)"
export SLURM_CONF
SLURM_CONF=$("$slurm" start "$work/slurm" | sed -n 's/^SLURM_CONF=//p')
[ -n "$SLURM_CONF" ] || fail "the local Slurm did not start"

host=$(hostname -s)
mkdir -p "$work/cluster"
scontrol show nodes --oneliner >"$work/cluster/nodes.txt"
grep -q "Gres=gpu:h100:8" "$work/cluster/nodes.txt" || fail "the local node shows no GPUs: $(cat "$work/cluster/nodes.txt")"
echo "SwitchName=leaf0 Nodes=$host" >"$work/cluster/topology.conf"
cp "$source/topologies/inventory/hgx-h100-4node/hgx-h100.topo.txt" "$work/cluster/"
/usr/bin/python3 - "$source" "$work" <<'PY'
import json, sys
source, work = sys.argv[1], sys.argv[2]
shipped = f"{source}/topologies/inventory/hgx-h100-4node"
cluster = json.load(open(f"{shipped}/cluster.json"))
cluster.update(name="local-slurm", description="this machine's Slurm")
json.dump(cluster, open(f"{work}/cluster/cluster.json", "w"))
machine = json.load(open(f"{shipped}/machine.json"))
machine["models"] = {k: f"{shipped}/{v}" for k, v in machine["models"].items()}
json.dump(machine, open(f"{work}/cluster/machine.json", "w"))
scenario = json.load(open(f"{source}/scenarios/planner/gpt3-1.3b-hgx-h100-4node.json"))
scenario["machine"] = f"{work}/cluster/machine.json"
scenario["workload"].update(model=f"{source}/workloads/gpt3-1.3b.json", data_parallel=1, global_batch=32)
scenario.pop("reliability")
json.dump(scenario, open(f"{work}/scenario.json", "w"))
PY
"$zettasim" plan "$work/scenario.json" --out "$work/plan" --partition zettasim --time 10 --quiet >/dev/null
(cd "$work/plan" && sbatch --test-only launch.sbatch) >"$work/sbatch.out" 2>&1 || fail "sbatch --test-only refused: $(cat "$work/sbatch.out")"
grep -q "to start at" "$work/sbatch.out" || fail "unexpected sbatch output: $(cat "$work/sbatch.out")"
nodelist=$(sed -n 's/^#SBATCH --nodelist=//p' "$work/plan/launch.sbatch")
[ "$(scontrol show hostnames "$nodelist" | sort)" = "$(sort -u "$work/plan/hostfile")" ] ||
  fail "scontrol show hostnames $nodelist is not the hostfile's hosts"
[ "$(sort -u "$work/plan/hostfile")" = "$host" ] || fail "the hostfile names $(sort -u "$work/plan/hostfile")"

# Hostile values: a script path with quotes, spaces and command substitutions, and a job name with every
# punctuation Slurm's grammar allows, reach a script bash parses and sbatch accepts, and nothing runs.
cd "$work"
"$zettasim" plan "$work/scenario.json" --out "$work/hostile" --partition zettasim --time 0-0:10:0 --quiet \
  --job-name 'zs+plan:v1@site_2.x' --script "it's \$(touch pwned) \`touch pwned\`.py" >/dev/null
bash -n "$work/hostile/launch.sbatch" || fail "bash -n refused launch.sbatch"
(cd "$work/hostile" && sbatch --test-only launch.sbatch) >"$work/sbatch.out" 2>&1 ||
  fail "sbatch --test-only refused the hostile plan: $(cat "$work/sbatch.out")"
[ ! -e "$work/pwned" ] && [ ! -e "$work/hostile/pwned" ] || fail "a value of the plan ran as a command"
# A node name with shell syntax, a newline in --job-name: refused with exit 2, no plan folder.
sed "s/^NodeName=$host /NodeName=$host\$(touch\${IFS}pwned) /" "$work/cluster/nodes.txt" >"$work/cluster/bad.txt"
cp "$work/cluster/nodes.txt" "$work/cluster/good.txt"
cp "$work/cluster/bad.txt" "$work/cluster/nodes.txt"
set +e
"$zettasim" plan "$work/scenario.json" --out "$work/refused" --quiet >/dev/null 2>"$work/refused.err"
code=$?
cp "$work/cluster/good.txt" "$work/cluster/nodes.txt"
"$zettasim" plan "$work/scenario.json" --out "$work/refused2" --quiet --job-name $'x\n#SBATCH --wrap=id' \
  >/dev/null 2>>"$work/refused.err"
code2=$?
set -e
[ $code = 2 ] && [ $code2 = 2 ] || fail "hostile names exited $code and $code2, expected 2: $(cat "$work/refused.err")"
grep -q "NodeName: expected a host name" "$work/refused.err" || fail "unexpected refusal: $(cat "$work/refused.err")"
[ ! -e "$work/refused" ] && [ ! -e "$work/refused2" ] && [ ! -e "$work/pwned" ] || fail "a refused plan left files"
echo "plan on the local Slurm: OK ($(cat "$work/sbatch.out"))"
