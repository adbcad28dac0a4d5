// Ring collectives on a uniform, uncontended single-switch topology against their closed forms.
#include <doctest/doctest.h>

#include "engine/simulation.hpp"
#include "policy/linear_placement.hpp"
#include "policy/ring_collective.hpp"
#include "support/test_machines.hpp"
#include "topology/routing.hpp"

using namespace zs;
using workload::CollectiveKind;

namespace {
struct Timing {
  double simulated, alpha, bandwidth;
};

Timing run_collective(CollectiveKind kind, uint32_t n, double bytes) {
  auto machine = test::single_switch_machine(int(n), test::unit_model("1PFLOPS", 1, "0s"),
                                             test::link_model("100GB/s", "1us"));
  workload::Trace t;
  t.name = "collective";
  t.mesh = workload::Mesh({{"dp", n}});
  t.streams = {"comm"};
  t.roles = {
      {"rank", {{"sync", "gradient-sync", 0, {}, workload::CollectiveOp{kind, "dp", core::Bytes(bytes)}}}}};
  auto r = engine::simulate(machine, t, policy::LinearPlacement(), policy::RingCollective());
  Timing out{r.replay.iteration_time.value(), 0, 0};
  if (n > 1) {
    const auto& units = machine.topology.units();
    auto route = topology::shortest_route(machine.topology, units[0], units[1]);
    out.alpha = topology::route_latency(machine, route).value();
    out.bandwidth = topology::route_bandwidth(machine, route).value();
  }
  return out;
}
}  // namespace

TEST_CASE("ring all-reduce takes 2(n-1) alpha + 2(n-1)/n S/B within 1%") {
  for (uint32_t n : {2u, 8u, 64u}) {
    for (double S : {1024.0 * 1024, 1024.0 * 1024 * 1024}) {
      CAPTURE(n);
      CAPTURE(S);
      auto t = run_collective(CollectiveKind::kAllReduce, n, S);
      CHECK(t.alpha == 2e-6);  // two links of 1 us
      CHECK(t.bandwidth == 100e9);
      double closed = 2.0 * (n - 1) * t.alpha + 2.0 * (n - 1) / n * S / t.bandwidth;
      CHECK(t.simulated == doctest::Approx(closed).epsilon(0.01));
    }
  }
}

TEST_CASE("ring reduce-scatter and all-gather take (n-1) alpha + (n-1)/n S/B within 1%") {
  for (auto kind : {CollectiveKind::kReduceScatter, CollectiveKind::kAllGather}) {
    for (uint32_t n : {2u, 8u, 64u}) {
      double S = 256.0 * 1024 * 1024;
      auto t = run_collective(kind, n, S);
      double closed = (n - 1) * t.alpha + double(n - 1) / n * S / t.bandwidth;
      CHECK(t.simulated == doctest::Approx(closed).epsilon(0.01));
    }
  }
}

TEST_CASE("a one-member communicator completes at once") {
  CHECK(run_collective(CollectiveKind::kAllReduce, 1, 1e9).simulated == 0.0);
}
