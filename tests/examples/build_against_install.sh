#!/bin/sh
# Installs zettasim's build into a temporary prefix, builds examples/ there as an outside project
# (find_package(zettasim)), runs its program and loads its plugins into the zettasim executable; runs an
# installed scenario.
# Usage: build_against_install.sh BUILD_DIR SOURCE_DIR ZETTASIM_EXECUTABLE
set -eu
build=$1 source=$2 zettasim=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "build_against_install: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
# The package holds the layers a policy author needs, and nothing of the simulator engine.
[ -f "$work/prefix/lib/cmake/zettasim/zettasimConfigVersion.cmake" ] || fail "no version file installed"
[ -f "$work/prefix/include/zettasim/policy/plugin_api.hpp" ] || fail "no plugin_api.hpp installed"
! grep -rl "simgrid" "$work/prefix/include" || fail "an installed header mentions SimGrid"
[ ! -e "$work/prefix/include/zettasim/engine" ] || fail "the engine's headers are installed"

# The shipped files come with it, in the source tree's layout: an installed scenario runs from the installed
# executable and gives the iteration time the source tree's gives.
for shipped in scenarios/default.json scenarios/planner/llama3-405b-llama3-24k.json \
  scenarios/validation/megatron-sc21.csv topologies/llama3-24k.machine.json models/h100-sxm.json \
  workloads/moe-10t.json; do
  [ -f "$work/prefix/share/zettasim/$shipped" ] || fail "$shipped is not installed under share/zettasim"
done
"$work/prefix/bin/zettasim" run "$work/prefix/share/zettasim/scenarios/default.json" --out "$work/installed" \
  >/dev/null || fail "the installed default scenario does not run"
"$zettasim" run "$source/scenarios/default.json" --out "$work/in-tree" >/dev/null
iteration() { grep -o '"iteration_time_s": *[0-9.eE+-]*' "$1/summary.json"; }
[ -n "$(iteration "$work/installed")" ] || fail "no iteration time in the installed run's summary.json"
[ "$(iteration "$work/installed")" = "$(iteration "$work/in-tree")" ] ||
  fail "the installed scenario gives $(iteration "$work/installed"), the source tree's $(iteration "$work/in-tree")"

cmake -S "$source/examples" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" || { cat "$work/configure.log"; fail "configure failed"; }
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build failed"; }

out=$("$work/build/zs_example_policies")
echo "$out" | grep -q "^collective ring$" || fail "the program lists no ring policy: $out"
echo "$out" | grep -q "^recovery shrink$" || fail "the program lists no shrink recovery policy: $out"
echo "$out" | grep -q "daly interval for M = 24 h, C = 5 min: 117 min" || fail "Daly's interval is not 117 min: $out"
listed=$("$zettasim" list --plugin "$work/build/zs_example_placement.so" --plugin "$work/build/zs_example_collective.so" \
  --plugin "$work/build/zs_example_recovery.so")
echo "$listed" | grep -q "placement domain-packed: .*\[plugin example-placement\]" || fail "plugin policy not listed"
echo "$listed" | grep -q "collective direct-all-reduce: " || fail "collective plugin policy not listed"
echo "$listed" | grep -q "  shrink-first: .*\[plugin example-recovery\]" || fail "recovery plugin policy not listed"

# A package of another version is refused by find_package (the version file asks for the exact one).
if cmake -S "$source/examples" -B "$work/other" -DCMAKE_PREFIX_PATH="$work/prefix" \
     -DZS_EXAMPLES_WANT_VERSION=99.0.0 >"$work/other.log" 2>&1; then
  fail "find_package(zettasim 99.0.0) accepted this version"
fi
grep -q "version" "$work/other.log" || fail "the refusal does not mention the version"
echo "build_against_install: the installed package builds and runs examples/"
