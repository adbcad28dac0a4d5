// The disaggregated generator against closed forms: counts, diameter, bisection, bad plans.
#include <doctest/doctest.h>

#include <algorithm>

#include "support/approx.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_builder.hpp"
#include "topology/memory_pools.hpp"
#include "topology/optical_circuits.hpp"
#include "topology/topology_metrics.hpp"

using namespace zs;
using nlohmann::json;

namespace {
constexpr double kNic = 50e9, kCircuit = 100e9;

topology::Machine build(uint32_t pods, uint32_t racks, uint32_t units, int switches, int ports_per_pod,
                        double oversubscription = 1.0, int pools_per_rack = 1) {
  topology::ModelSet models;
  models.units.emplace("gpu", test::unit_model("1PFLOPS", 0.5, "0s"));
  models.links.emplace("nvlink", test::link_model("450GB/s", "0.5us"));
  models.links.emplace("nic", test::link_model("50GB/s", "1us"));
  models.memories.emplace("cxl", test::memory_pool_model(2, "64GB/s", "250ns"));
  models.optical_switches.emplace("ocs", test::optical_switch_model(64, "10ms", "100GB/s"));
  json params = {{"kind", "topology"},
                 {"name", "d"},
                 {"generator", "disaggregated"},
                 {"pods", pods},
                 {"racks_per_pod", racks},
                 {"rack",
                  {{"units", units},
                   {"unit_model", "gpu"},
                   {"scale_up_link", "nvlink"},
                   {"memory_pools", {{"model", "cxl"}, {"count", pools_per_rack}}}}},
                 {"scale_out", {{"nic_link", "nic"}, {"oversubscription", oversubscription}}}};
  if (switches > 0)
    params["optical_core"] = {{"model", "ocs"}, {"switches", switches}, {"ports_per_pod", ports_per_pod}};
  core::JsonObject o(params, "d.json", "");
  return topology::build_machine(o, models);
}
}  // namespace

TEST_CASE("disaggregated: part counts and the diameter of a full optical mesh") {
  auto m = build(4, 2, 4, 3, 1);
  auto s = topology::summarize(m, 4096);
  CHECK(s.units == 4 * 2 * 4);
  CHECK(s.memory_pools == 4 * 2);
  CHECK(s.switches == 4 * (1 + 2 * 2));  // a spine per pod; a scale-up switch and a ToR per rack
  CHECK(m.topology.optical_switches().size() == 3);
  CHECK(m.topology.circuits().size() == 3 * 2);  // each switch: one round of 4/2 pairs
  // unit - ToR - spine = circuit = spine - ToR - unit: five links
  CHECK(s.diameter.hops == 5);
}

TEST_CASE("disaggregated: bisection is the smaller of the optical cut and the pods' uplinks") {
  struct Case {
    uint32_t pods, racks, units;
    int ports_per_pod;
    double oversubscription;
  };
  for (const auto& c :
       {Case{4, 2, 4, 1, 1.0}, Case{8, 2, 4, 2, 1.0}, Case{8, 4, 8, 1, 2.0}, Case{6, 1, 16, 3, 1.0}}) {
    CAPTURE(c.pods);
    CAPTURE(c.units);
    auto m = build(c.pods, c.racks, c.units, int(c.pods) - 1, c.ports_per_pod, c.oversubscription);
    const double half = c.pods / 2.0;
    const double optical = half * half * c.ports_per_pod * kCircuit;  // every pod pair across the cut
    const double uplinks = half * c.racks * c.units * kNic / c.oversubscription;
    CHECK(topology::half_split_bandwidth(m).value() == zs::test::approx(std::min(optical, uplinks)));
  }
}

TEST_CASE("disaggregated: impossible optical cores are input errors") {
  CHECK_THROWS_WITH(
      build(4, 1, 2, 1, 1),
      "d.json: /optical_core: the initial circuits of 1 optical switch(es) leave pod 1 unreachable "
      "from pod 0; give more switches (pods - 1 = 3 join every pair directly)");
  CHECK_THROWS_WITH(
      build(40, 1, 2, 39, 2),
      "d.json: /optical_core: 40 pods x 2 ports need more than the 64 ports of optical switch model "
      "\"test-ocs\"");
  CHECK_THROWS_WITH(build(3, 1, 2, 2, 1),
                    "d.json: /pods: an optical core joins an even number of pods (at least 2), got 3");
  CHECK_THROWS_WITH(build(2, 1, 2, 0, 1),
                    "d.json: /pods: several pods need an \"optical_core\" to join them");
}

TEST_CASE("disaggregated: a machine of more than 2^24 units or memory pools is refused before it is built") {
  CHECK_THROWS_WITH(build(2, 1 << 20, 16, 1, 1), "d.json: /pods: more than 2^24 units");
  // 32,768 racks of one unit are a small machine, but 1,024 pools in each would be 2^25 pools.
  CHECK_THROWS_WITH(build(2, 1 << 14, 1, 1, 1, 1.0, 1024), "d.json: /pods: more than 2^24 memory pools");
}

TEST_CASE("disaggregated: every unit's nearest pool is its rack's, found by one search for all units") {
  auto m = build(4, 2, 4, 3, 1);
  auto nearest = topology::nearest_memory_pools(m.topology);
  const auto& units = m.topology.units();
  for (size_t i = 0; i < units.size(); ++i) {
    CHECK(nearest[units[i]] == *topology::nearest_memory_pool(m.topology, units[i]));
    CHECK(nearest[units[i]] == m.topology.memories()[i / 4]);  // 4 units and one pool per rack
  }
}

TEST_CASE("disaggregated: a reconfiguration of the optical core sets up bundles as wide as the core's") {
  auto m = build(4, 1, 2, 2, 2);  // ocs0 starts with pods (0,3)(1,2); bundles of 2 circuits on ports 2p, 2p+1
  json scenario = {{"circuit_reconfigurations",
                    {{{"at", "1ms"}, {"optical_switch", "ocs0"}, {"circuits", {{0, 2}, {4, 6}}}}}}};
  core::JsonObject o(scenario, "s.json", "");
  auto events = topology::read_circuit_reconfigurations(o, "circuit_reconfigurations", m);
  REQUIRE(events.size() == 1);
  const auto& added = m.topology.circuits().back();
  CHECK_FALSE(added.active_at_start);
  CHECK(m.topology.link(added.link).width == 2.0);
  CHECK(m.topology.link(added.link).a == m.topology.optical_switches()[0].port_nodes[4]);
}
