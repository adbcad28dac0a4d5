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

TEST_CASE(
    "a collective transfer run as a charge pays its route's latency, at least its step's step latency") {
  // Four units on one switch, 100 GB/s links of 1 us with a 20 us step latency, switched on: a route
  // crosses two links (2 us). 1 MB drains in 10 us. The floor is the transfer's schedule step's mean step
  // latency (ReplayCore::step_latencies), as exact fidelity charges it; 0 for a pipelined chunk.
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
  const policy::Transfer transfer{0, 1, core::Bytes(1e6), 0, {}, false};
  CHECK(costs.collective_transfer(members, transfer, 20e-6, link_bytes).seconds ==
        approx(20e-6 + 10e-6).epsilon(1e-9));
  CHECK(costs.collective_transfer(members, transfer, 5e-6, link_bytes).seconds ==
        approx(5e-6 + 10e-6).epsilon(1e-9));
  CHECK(costs.collective_transfer(members, transfer, 0.0, link_bytes).seconds ==
        approx(2e-6 + 10e-6).epsilon(1e-9));
}
