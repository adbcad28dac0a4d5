// Collapsed fidelity's costs of single transfers: a collective schedule's transfer run as a charge.
#include <doctest/doctest.h>

#include "engine/collapsed/collapsed_costs.hpp"
#include "engine/collapsed/rank_collapse.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/collective_trace.hpp"
#include "support/test_machines.hpp"

using namespace zs;
using zs::test::approx;

TEST_CASE("a collective transfer run as a charge pays the step latency unless it is pipelined") {
  // Four units on one switch, 100 GB/s links of 1 us with a 20 us step latency, switched on: a route
  // crosses two links (2 us). 1 MB drains in 10 us.
  auto machine = test::single_switch_machine(4, test::unit_model("1PFLOPS", 1, "0s"),
                                             test::link_model("100GB/s", "1us", "20us"));
  machine.step_latency = true;
  const auto trace = test::one_collective(workload::CollectiveKind::kAllReduce, 4, 1e6);
  const auto placement = policy::LinearPlacement().place({trace, machine});
  const engine::RankCollapse collapse(trace);
  topology::Router router(machine);
  const policy::RingCollective ring;
  engine::CollapsedCosts costs(machine, trace, placement, ring, collapse, router);
  std::vector<double> link_bytes(2 * machine.topology.links().size(), 0.0);
  const std::vector<uint64_t> members{0, 1, 2, 3};
  policy::Transfer first{0, 1, core::Bytes(1e6), 0, {}, false};
  CHECK(costs.collective_transfer(members, first, link_bytes).seconds == approx(20e-6 + 10e-6).epsilon(1e-9));
  policy::Transfer behind = first;
  behind.pipelined = true;
  CHECK(costs.collective_transfer(members, behind, link_bytes).seconds == approx(2e-6 + 10e-6).epsilon(1e-9));
  // The first one's cost is kept apart from the pipelined one's.
  CHECK(costs.collective_transfer(members, first, link_bytes).seconds == approx(30e-6).epsilon(1e-9));
}
