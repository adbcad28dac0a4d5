// NCCL's latencies are charged by default: a 1 MiB all-reduce on one HGX H100 against its closed forms.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/source_file.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

namespace {

constexpr double kMiB = 1024.0 * 1024;
constexpr double kUs = 1e-6;

/// A 1 MiB all-reduce over the 8 GPUs of the shipped hgx-h100-8 under `collective` (a name or an object).
scenario::Scenario all_reduce_scenario(const test::TempDir& dir, const nlohmann::json& collective) {
  const nlohmann::json file = {
      {"kind", "scenario"},
      {"name", "all-reduce-1mib"},
      {"seed", 1},
      {"machine", test::source_file("topologies/hgx-h100-8.machine.json")},
      {"workload", {{"generator", "collective"}, {"collective", "all-reduce"}, {"size", "1MiB"}}},
      {"policies", {{"placement", "linear"}, {"collective", collective}}}};
  core::DiskFileSource files;
  return scenario::ScenarioLoader(files).load(dir.write("scenario.json", file.dump(2)));
}

double seconds(const test::TempDir& dir, const nlohmann::json& collective) {
  return study::simulate_scenario(all_reduce_scenario(dir, collective)).replay.iteration_time.value();
}

}  // namespace

TEST_CASE("by default a ring all-reduce pays NCCL's step and base latencies under the protocol it picks") {
  test::TempDir dir;
  const auto s = all_reduce_scenario(dir, "ring");
  CHECK(s.machine.step_latency);
  CHECK(s.resolved["policies"]["collective"]["step_latency"] == true);
  CHECK(s.resolved["policies"]["collective"]["protocol"] == "auto");

  // nvlink4: 450 GB/s x 0.818; a GPU-to-GPU route: two 0.5 us links and the NVSwitch's 0.3 us.
  const double n = 8, S = kMiB, B = 450e9 * 0.818, route = 1.3 * kUs;
  const double wire = 2 * (n - 1) / n * S / B;
  // 2(n-1) steps, each at least its step latency (Simple 3.4 us, LL128 1.9, LL 0.6, NCCL 2.19's ring
  // row), plus the ring's base latency (8.4, 14 and 6.6 us); LL128 and LL move 0.92 and 1/4 of B.
  const double simple = 8.4 * kUs + 2 * (n - 1) * 3.4 * kUs + wire;
  const double ll128 = 14 * kUs + 2 * (n - 1) * std::max(1.9 * kUs, route) + wire / 0.92;
  const double ll = 6.6 * kUs + 2 * (n - 1) * std::max(0.6 * kUs, route) + wire * 4;
  CHECK(seconds(dir, {{"name", "ring"}, {"protocol", "simple"}}) == doctest::Approx(simple).epsilon(1e-3));
  CHECK(seconds(dir, {{"name", "ring"}, {"protocol", "ll128"}}) == doctest::Approx(ll128).epsilon(1e-3));
  CHECK(seconds(dir, {{"name", "ring"}, {"protocol", "ll"}}) == doctest::Approx(ll).epsilon(1e-3));
  const double picked = seconds(dir, "ring");
  CHECK(picked == doctest::Approx(std::min({simple, ll128, ll})).epsilon(1e-3));
  // Tens of microseconds, as nccl-tests measure there; the links' latencies alone give 23 us.
  CHECK(picked > 40 * kUs);
  const double links_only = 2 * (n - 1) * route + wire;
  CHECK(seconds(dir, {{"name", "ring"}, {"step_latency", false}}) ==
        doctest::Approx(links_only).epsilon(1e-3));
}

TEST_CASE("in-network reduction on an NVSwitch is NCCL's NVLS: Simple only, 25 us per collective") {
  test::TempDir dir;
  const double off = seconds(dir, {{"name", "in-network"}, {"step_latency", false}});
  const double on = seconds(dir, "in-network");
  CHECK(off < 10 * kUs);  // the links' latencies and the wire alone
  // NCCL's NVLS latency within a server (25 us) plus at most the first chunk's step latency each way.
  CHECK(on - off >= 25 * kUs);
  CHECK(on - off <= 25 * kUs + 2 * 3.4 * kUs);
  // NVLS does not run under LL128: asked for, the collective runs under Simple.
  CHECK(seconds(dir, {{"name", "in-network"}, {"protocol", "ll128"}}) == doctest::Approx(on).epsilon(1e-9));
  const auto s = all_reduce_scenario(dir, "in-network");
  const auto r = study::simulate_scenario(s);
  CHECK(r.replay.collective_algorithms == std::vector<std::string>{"in-network"});
}
