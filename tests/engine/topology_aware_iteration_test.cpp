// The topology-aware placement on the moe-10t plan: fewer hop-bytes than linear and random on a machine
// that lists its units in no network order, and an iteration no slower than linear's.
#include <doctest/doctest.h>

#include <string>

#include "core/file_source.hpp"
#include "engine/simulation.hpp"
#include "policy/placement/linear_placement.hpp"
#include "policy/placement/placement_cost.hpp"
#include "policy/placement/random_placement.hpp"
#include "policy/placement/topology_aware_placement.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/reordered_units.hpp"

using namespace zs;

namespace {

scenario::Scenario shipped(const std::string& name) {
  core::DiskFileSource files;
  return scenario::ScenarioLoader(files).load(std::string(ZS_SOURCE_DIR) + "/scenarios/" + name + ".json");
}

/// The machine with its units listed i -> unit k i mod n (k prime to n): neighbours in the list sit on
/// different racks and pods, as in a host list sorted by anything but the network.
topology::Machine listed_in_no_network_order(const topology::Machine& m, size_t k) {
  const auto& units = m.topology.units();
  std::vector<topology::NodeId> listing;
  for (size_t i = 0; i < units.size(); ++i) listing.push_back(units[k * i % units.size()]);
  return test::with_units_listed(m, listing);
}

double iteration_seconds(const scenario::Scenario& s, const topology::Machine& machine,
                         const policy::PlacementPolicy& placement,
                         engine::Fidelity fidelity = engine::Fidelity::kCollapsed) {
  auto collective = policy::make_collective_policy(s.collective_policy, s.collective_options);
  return engine::simulate(machine, s.trace, placement, *collective, {s.circuit_reconfigurations, s.seed},
                          fidelity)
      .replay.iteration_time.value();
}
}  // namespace

TEST_CASE("topology-aware placement on the moe-10t-16k plan keeps Megatron's order on the shipped machine") {
  const auto s = shipped("moe-10t-16k");
  const auto aware = policy::TopologyAwarePlacement().place({s.trace, s.machine, s.seed});
  CHECK(aware.unit_of_rank == policy::LinearPlacement().place({s.trace, s.machine, s.seed}).unit_of_rank);
}

TEST_CASE("topology-aware placement on the moe-10t-16k plan with the units listed in no network order") {
  const auto s = shipped("moe-10t-16k");
  const auto machine = listed_in_no_network_order(s.machine, 7919);  // 7919 is prime to 24576 = 2^13 x 3

  const policy::LinearPlacement linear;
  const policy::RandomPlacement random;
  const policy::TopologyAwarePlacement aware;
  auto hop_bytes = [&](const policy::PlacementPolicy& p, const topology::Machine& m) {
    return policy::placement_cost(s.trace, m, p.place({s.trace, m, s.seed}), 512).total_hop_bytes();
  };
  const double on_shipped = hop_bytes(linear, s.machine);
  const double aware_hb = hop_bytes(aware, machine), linear_hb = hop_bytes(linear, machine);
  CAPTURE(on_shipped);
  CAPTURE(linear_hb);
  CHECK(aware_hb < 0.8 * linear_hb);
  CHECK(aware_hb < 0.8 * hop_bytes(random, machine));
  // It finds the network's order again: the hop-bytes of Megatron's order on the shipped listing.
  CHECK(aware_hb == doctest::Approx(on_shipped).epsilon(0.01));

  const double aware_s = iteration_seconds(s, machine, aware),
               linear_s = iteration_seconds(s, machine, linear);
  CAPTURE(aware_s);
  CAPTURE(linear_s);
  // Collapsed fidelity counts the contention of a group's copies along the collapsed axes, not that
  // of the other pipeline stages running at the same time, so it underrates linear's scattered layout
  // (measured: 28.8 s against the network order's 16.5 s). Exact fidelity would see all 16 stages; it
  // is out of reach at 16K ranks, so the strict comparison is on moe-ep-64 below.
  CHECK(aware_s <= 1.01 * linear_s);
  CHECK(aware_s == doctest::Approx(iteration_seconds(s, s.machine, linear)).epsilon(0.001));
}

TEST_CASE("topology-aware placement on moe-ep-64 with the units listed in no network order, exact fidelity") {
  const auto s = shipped("moe-ep-64");
  const auto machine = listed_in_no_network_order(s.machine, 23);
  const policy::LinearPlacement linear;
  const policy::TopologyAwarePlacement aware;
  auto hop_bytes = [&](const policy::PlacementPolicy& p, const topology::Machine& m) {
    return policy::placement_cost(s.trace, m, p.place({s.trace, m, s.seed})).total_hop_bytes();
  };
  CHECK(hop_bytes(aware, machine) < 0.8 * hop_bytes(linear, machine));
  CHECK(hop_bytes(aware, machine) < 0.8 * hop_bytes(policy::RandomPlacement(), machine));
  const double aware_s = iteration_seconds(s, machine, aware, engine::Fidelity::kExact);
  const double linear_s = iteration_seconds(s, machine, linear, engine::Fidelity::kExact);
  CAPTURE(aware_s);
  CAPTURE(linear_s);
  CHECK(aware_s < 0.9 * linear_s);
}
