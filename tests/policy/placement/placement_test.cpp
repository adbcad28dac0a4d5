// Random and from-file placements: determinism per seed, distinct units, map errors with paths.
#include <doctest/doctest.h>

#include <set>

#include "core/input_error.hpp"
#include "policy/placement/file_placement.hpp"
#include "policy/placement/placement_cost.hpp"
#include "policy/placement/random_placement.hpp"
#include "support/approx.hpp"
#include "support/collective_trace.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {
workload::Trace job(uint32_t ranks) {
  workload::Trace t;
  t.mesh = workload::Mesh({{"dp", ranks}});
  return t;
}
const topology::Machine& machine() {
  static const auto m =
      test::single_switch_machine(64, test::unit_model("1PFLOPS", 1, "0s"), test::link_model("1GB/s", "1us"));
  return m;
}
}  // namespace

TEST_CASE("random placement: distinct units, the same for a seed, different for another") {
  const auto t = job(48);
  auto a = policy::RandomPlacement().place({t, machine(), 7});
  auto b = policy::RandomPlacement().place({t, machine(), 7});
  auto c = policy::RandomPlacement().place({t, machine(), 8});
  CHECK(a.unit_of_rank == b.unit_of_rank);
  CHECK(a.unit_of_rank != c.unit_of_rank);
  CHECK(std::set<topology::NodeId>(a.unit_of_rank.begin(), a.unit_of_rank.end()).size() == 48);
  // Not the linear order: a shuffle of 48 of 64 units keeping rank order is vanishingly unlikely.
  CHECK(a.unit_of_rank != std::vector<topology::NodeId>(machine().topology.units().begin(),
                                                        machine().topology.units().begin() + 48));
  CHECK_THROWS_AS(policy::RandomPlacement().place({job(65), machine(), 1}), core::InputError);
}

TEST_CASE("from-file placement: rank r on the named unit, bad maps name the entry") {
  const auto& units = machine().topology.units();
  const auto name = [&](size_t i) { return machine().topology.node(units[i]).name; };
  auto p = policy::FilePlacement({name(5), name(0), name(9)}, "map.json").place({job(3), machine(), 1});
  CHECK(p.unit_of_rank == std::vector<topology::NodeId>{units[5], units[0], units[9]});
  auto error = [&](std::vector<std::string> names, uint32_t ranks) {
    try {
      policy::FilePlacement(std::move(names), "map.json").place({job(ranks), machine(), 1});
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(error({name(1), name(2)}, 3) == "map.json: /units: the map places 2 ranks but the job has 3");
  CHECK(error({name(1), "nowhere"}, 2) ==
        "map.json: /units/1: \"nowhere\" is not a compute unit of machine \"" + machine().name + "\"");
  CHECK(error({name(1), name(1)}, 2) == "map.json: /units/1: unit \"" + name(1) + "\" already runs rank 0");
}

TEST_CASE(
    "placement cost: ring bytes 2(n-1)/n S per all-reduce, two hops through one switch, sampling scales") {
  workload::Trace t = job(18);  // 18 ranks: a sample of 4 evaluates every 5th, ranks 0, 5, 10, 15
  t.streams = {"comm"};
  t.roles = {{"rank",
              {{"ar",
                "gradient-sync",
                0,
                {},
                workload::CollectiveOp{workload::CollectiveKind::kAllReduce, "dp", core::Bytes(1e9)}},
               {"a2a",
                "forward",
                0,
                {},
                workload::CollectiveOp{workload::CollectiveKind::kAllToAll, "dp", core::Bytes(16e6)}}}}};
  const auto placement = policy::RandomPlacement().place({t, machine(), 3});
  for (uint64_t sample : {18u, 4u}) {
    CAPTURE(sample);
    auto cost = policy::placement_cost(t, machine(), placement, sample);
    CHECK(cost.ranks_evaluated == sample);
    REQUIRE(cost.communicators.size() == 1);
    const auto& dp = cost.communicators[0];
    CHECK(dp.name == "dp");
    // Scaled by ranks / evaluated (18 / 4), not by the stride (5, which would claim 20 ranks).
    CHECK(dp.bytes == zs::test::approx(18 * (2.0 * 17 / 18 * 1e9 + 17.0 / 18 * 16e6)));
    CHECK(dp.mean_hops() == zs::test::approx(2.0));  // unit -> switch -> unit, whatever the placement
  }
}

TEST_CASE(
    "max link load: a ring all-reduce loads each unit's uplink with 2(n-1)/n S, all-to-all with (n-1)/n S") {
  // 8 ranks on the 64-unit star (1 GB/s links): every rank's sends leave through its own uplink.
  const double S = 1e9, n = 8;
  const auto ring = test::one_collective(workload::CollectiveKind::kAllReduce, 8, S);
  const auto placement = policy::RandomPlacement().place({ring, machine(), 5});
  const auto cost = policy::placement_cost(ring, machine(), placement);
  REQUIRE(cost.max_link_load.has_value());
  CHECK(cost.max_link_load->bytes == zs::test::approx(2 * (n - 1) / n * S));
  CHECK(cost.max_link_load->seconds == zs::test::approx(2 * (n - 1) / n * S / 1e9));
  // The busiest direction is an uplink (unit to switch) or, equally loaded, a downlink: a ring both sends
  // and receives 2(n-1)/n S per unit.
  const auto& link = machine().topology.link(cost.max_link_load->link);
  const auto from = cost.max_link_load->forward ? link.a : link.b;
  CHECK((machine().topology.nodes()[from].kind == topology::NodeKind::kUnit ||
         machine().topology.nodes()[from].kind == topology::NodeKind::kSwitch));

  const auto a2a = test::one_collective(workload::CollectiveKind::kAllToAll, 8, S);
  const auto a2a_cost = policy::placement_cost(a2a, machine(), placement);
  REQUIRE(a2a_cost.max_link_load.has_value());
  CHECK(a2a_cost.max_link_load->bytes == zs::test::approx((n - 1) / n * S));
  // A sample of every other rank sees half the ranks' traffic: a lower bound, never more.
  const auto sampled = policy::placement_cost(ring, machine(), placement, 4);
  CHECK(sampled.max_link_load->bytes <= cost.max_link_load->bytes * (1 + 1e-12));
}

TEST_CASE("re-placement: each failed rank goes to the idle unit fewest links from its failed unit") {
  const auto m = test::tree_machine(3, 4);  // leaves of 4 units under one spine
  const auto& u = m.topology.units();
  // Ranks on leaf0's units 0-2 and leaf1's unit 0; idle: leaf0-u3, leaf1-u1, leaf2's units.
  const std::vector<topology::NodeId> unit_of_rank{u[0], u[1], u[2], u[4]};
  const std::vector<topology::NodeId> idle{u[8], u[5], u[3], u[9]};
  const policy::RandomPlacement policy;  // the default re-placement, as every built-in policy has
  // Rank 1 (leaf0) gets leaf0's idle unit; rank 3 (leaf1) then leaf1's; rank 0 (leaf0) the first idle
  // unit four links away in the given order.
  CHECK(policy.re_place(m, unit_of_rank, {1, 3, 0}, idle) == std::vector<topology::NodeId>{u[3], u[5], u[8]});
  CHECK_THROWS_AS(policy.re_place(m, unit_of_rank, {0, 1, 2}, {u[3], u[5]}), std::invalid_argument);
}
