// Optical circuit switches and switch models in the engine: reconfiguration delays only the ports it
// touches, by exactly the reconfiguration time; a switch adds its latency to every route through it.
#include <doctest/doctest.h>

#include "core/input_error.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_builder.hpp"

using namespace zs;

namespace {

/// Four units on one optical switch (ports 0-3 on units u0-u3 unless `ports` says otherwise), starting
/// with circuits `initial`.
topology::Machine optical_machine(const nlohmann::json& initial,
                                  const nlohmann::json& ports = {"u0", "u1", "u2", "u3"}) {
  topology::ModelSet models;
  models.units.emplace("gpu", test::unit_model("1PFLOPS", 1, "0s"));
  models.optical_switches.emplace("ocs", test::optical_switch_model(8, "10ms", "100GB/s"));
  nlohmann::json nodes = nlohmann::json::array();
  for (int i = 0; i < 4; ++i)
    nodes.push_back({{"name", "u" + std::to_string(i)}, {"kind", "unit"}, {"model", "gpu"}});
  nlohmann::json topo = {
      {"kind", "topology"},
      {"name", "optical-4"},
      {"generator", "graph"},
      {"nodes", nodes},
      {"links", nlohmann::json::array()},
      {"optical_switches", {{{"name", "ocs0"}, {"model", "ocs"}, {"ports", ports}, {"circuits", initial}}}}};
  core::JsonObject o(topo, "optical-4.json", "");
  return topology::build_machine(o, models);
}

/// Mesh dp 2 x pp 2: stage 0 of each replica sends S bytes to stage 1 (ranks 0->1 and 2->3).
workload::Trace send_pairs(double bytes) {
  workload::Trace t;
  t.name = "pairs";
  t.mesh = workload::Mesh({{"dp", 2}, {"pp", 2}});
  t.streams = {"comm"};
  t.role_axis = "pp";
  workload::P2POp send{workload::P2PDirection::kSend, "pp", 1, core::Bytes(bytes)};
  workload::P2POp recv{workload::P2PDirection::kRecv, "pp", -1, core::Bytes(bytes)};
  t.roles = {{"stage0", {{"send", "forward", 0, {}, send}}}, {"stage1", {{"recv", "forward", 0, {}, recv}}}};
  return t;
}

std::vector<topology::CircuitReconfiguration> reconfigure(topology::Machine& m, const std::string& at,
                                                          const nlohmann::json& circuits) {
  nlohmann::json scenario = {
      {"circuit_reconfigurations", {{{"at", at}, {"optical_switch", "ocs0"}, {"circuits", circuits}}}}};
  core::JsonObject o(scenario, "scenario.json", "");
  return topology::read_circuit_reconfigurations(o, "circuit_reconfigurations", m);
}

}  // namespace

TEST_CASE("an optical reconfiguration delays traffic on the ports it touches by exactly its time") {
  const double S = 1e9, B = 100e9, lat = 100e-9, R = 10e-3;
  auto m = optical_machine({{2, 3}});  // ports 0 and 1 start dark
  auto events = reconfigure(m, "0s", {{0, 1}, {2, 3}});
  REQUIRE(m.topology.circuits().size() == 2);
  auto r = engine::simulate(m, send_pairs(S), policy::LinearPlacement(), policy::RingCollective(), {events});
  // u0 -> u1 waits for its new circuit; u2 -> u3 keeps its circuit and is not touched.
  CHECK(r.replay.ranks[1].finish.value() == zs::test::approx(R + lat + S / B).epsilon(1e-9));
  CHECK(r.replay.ranks[3].finish.value() == zs::test::approx(lat + S / B).epsilon(1e-9));
  CHECK(r.replay.circuit_waits == 1);
}

TEST_CASE("a transfer that starts after the reconfiguration ended is not delayed") {
  const double S = 1e9, B = 100e9, lat = 100e-9;
  auto m = optical_machine({{2, 3}});
  auto events = reconfigure(m, "0s", {{0, 1}, {2, 3}});
  // Same pairs, but each sender first computes for 20 ms (longer than the 10 ms reconfiguration).
  auto t = send_pairs(S);
  t.streams = {"compute", "comm"};
  workload::ComputeOp work{core::Flops(20e-3 * 1e15), core::Bytes(0.0), core::Dtype::kBf16,
                           core::WorkKind::kMatrix, 1};
  t.roles[0].ops.insert(t.roles[0].ops.begin(), workload::Op{"work", "forward", 0, {}, work});
  t.roles[0].ops[1].stream = 1;
  t.roles[0].ops[1].deps = {0};
  auto r = engine::simulate(m, t, policy::LinearPlacement(), policy::RingCollective(), {events});
  CHECK(r.replay.ranks[1].finish.value() == zs::test::approx(20e-3 + lat + S / B).epsilon(1e-9));
  CHECK(r.replay.circuit_waits == 0);
}

TEST_CASE("optical switches reject bad circuits and reconfigurations name what is wrong") {
  CHECK_THROWS_WITH_AS(optical_machine({{0, 1}, {1, 2}}),
                       "optical-4.json: /optical_switches/0/circuits/1: port 1 already carries a circuit",
                       core::InputError);
  CHECK_THROWS_WITH_AS(
      optical_machine({{0, 7}}),
      "optical-4.json: /optical_switches/0/circuits/0: port out of range: the switch has ports 0..3",
      core::InputError);
  // Two ports cabled to one node (as a pod with several ports per switch has): no circuit joins them.
  const nlohmann::json two_ports_on_u0 = {"u0", "u0", "u1", "u2"};
  CHECK_THROWS_WITH_AS(
      optical_machine({{0, 1}}, two_ports_on_u0),
      "optical-4.json: /optical_switches/0/circuits/0: ports 0 and 1 are both cabled to node "
      "\"u0\": a circuit joins two different nodes",
      core::InputError);
  auto shared = optical_machine({{0, 2}}, two_ports_on_u0);
  CHECK_THROWS_WITH_AS(reconfigure(shared, "1ms", {{1, 0}}),
                       "scenario.json: /circuit_reconfigurations/0/circuits/0: ports 1 and 0 are both cabled "
                       "to node \"u0\": a circuit joins two different nodes",
                       core::InputError);
  auto m = optical_machine({{0, 1}});
  nlohmann::json scenario = {
      {"circuit_reconfigurations", {{{"at", "1ms"}, {"optical_switch", "ocs9"}, {"circuits", {{0, 1}}}}}}};
  core::JsonObject o(scenario, "scenario.json", "");
  CHECK_THROWS_WITH_AS(
      topology::read_circuit_reconfigurations(o, "circuit_reconfigurations", m),
      "scenario.json: /circuit_reconfigurations/0/optical_switch: machine \"optical-4\" has no "
      "optical switch \"ocs9\" (it has: ocs0)",
      core::InputError);
}

TEST_CASE("a switch model adds its latency to every route through the switch") {
  const double S = 1e6, B = 450e9, link_lat = 0.5e-6, switch_lat = 0.3e-6;
  topology::ModelSet models;
  models.units.emplace("gpu", test::unit_model("1PFLOPS", 1, "0s"));
  models.links.emplace("nvlink", test::link_model("450GB/s", "0.5us"));
  models.switches.emplace("nvswitch", test::switch_model(64, "300ns"));
  nlohmann::json topo = {
      {"kind", "topology"},  {"name", "hgx"},          {"generator", "single-switch"}, {"units", 2},
      {"unit_model", "gpu"}, {"link_model", "nvlink"}, {"switch_model", "nvswitch"}};
  core::JsonObject o(topo, "hgx.json", "");
  auto m = topology::build_machine(o, models);
  auto t = send_pairs(S);
  t.mesh = workload::Mesh({{"pp", 2}});
  auto r = engine::simulate(m, t, policy::LinearPlacement(), policy::RingCollective());
  CHECK(r.replay.iteration_time.value() == zs::test::approx(2 * link_lat + switch_lat + S / B).epsilon(1e-9));
}

TEST_CASE("a switch with more links than its radix is an input error") {
  topology::ModelSet models;
  models.units.emplace("gpu", test::unit_model("1PFLOPS", 1, "0s"));
  models.links.emplace("nvlink", test::link_model("450GB/s", "0.5us"));
  models.switches.emplace("small", test::switch_model(4, "300ns"));
  nlohmann::json topo = {
      {"kind", "topology"},  {"name", "too-many"},     {"generator", "single-switch"}, {"units", 5},
      {"unit_model", "gpu"}, {"link_model", "nvlink"}, {"switch_model", "small"}};
  core::JsonObject o(topo, "too-many.json", "");
  CHECK_THROWS_WITH_AS(
      topology::build_machine(o, models),
      "too-many.json: /units: switch \"switch\" needs 5 ports, but its model \"test-switch\" has a "
      "radix of 4",
      core::InputError);
}

TEST_CASE("traffic between ports that no circuit joins is an input error, not a hang") {
  auto m = optical_machine({{2, 3}});
  CHECK_THROWS_WITH_AS(
      engine::simulate(m, send_pairs(1e6), policy::LinearPlacement(), policy::RingCollective()),
      "optical-4: no route from u0 to u1 at t = 0s (the links or optical circuits between them are down)",
      core::InputError);
}
