// Transfers across a fat-tree: time along the route, and sharing of an oversubscribed uplink.
#include <doctest/doctest.h>

#include <map>

#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_builder.hpp"
#include "topology/router.hpp"
#include "topology/routing.hpp"

using namespace zs;

namespace {
topology::Machine fat_tree(int units, nlohmann::json levels) {
  topology::ModelSet models;
  models.units.emplace("gpu", test::unit_model("1PFLOPS", 1, "0s"));
  models.links.emplace("nic", test::link_model("50GB/s", "1us"));
  nlohmann::json j = {{"kind", "topology"}, {"name", "ft"},        {"generator", "fat-tree"},
                      {"units", units},     {"unit_model", "gpu"}, {"levels", levels}};
  core::JsonObject o(j, "ft.json", "");
  return topology::build_machine(o, models);
}

/// `groups` independent two-rank all-reduces of `bytes`. With linear placement, mesh [pair, group]
/// puts pair g on units g and g + groups; mesh [group, pair] puts it on units 2g and 2g + 1.
workload::Trace all_reduce_pairs(uint32_t groups, double bytes, bool pair_outermost = true) {
  workload::Trace t;
  t.name = "pairs";
  t.mesh = pair_outermost ? workload::Mesh({{"pair", 2}, {"group", groups}})
                          : workload::Mesh({{"group", groups}, {"pair", 2}});
  t.streams = {"comm"};
  t.roles = {{"rank",
              {{"sync",
                "",
                0,
                {},
                workload::CollectiveOp{workload::CollectiveKind::kAllReduce, "pair", core::Bytes(bytes)}}}}};
  return t;
}
}  // namespace

TEST_CASE("a transfer across a 3-level fat-tree takes the route's latency plus S over its narrowest link") {
  auto m = fat_tree(64, {{{"units_per_switch", 4}, {"link_model", "nic"}},
                         {{"units_per_switch", 16}, {"link_model", "nic"}},
                         {{"units_per_switch", 64}, {"link_model", "nic"}}});
  // Two ranks at the two ends of the machine: mesh [pair 2, group 32] puts rank 0 on unit 0 and
  // rank 32 on unit 32, which are in different pods.
  auto trace = all_reduce_pairs(32, 64e6);
  auto r = engine::simulate(m, trace, policy::LinearPlacement(), policy::RingCollective());
  auto route = topology::shortest_route(m.topology, m.topology.units()[0], m.topology.units()[32]);
  CHECK(route.links.size() == 6);
  // A 2-rank ring all-reduce is 2 steps of S/2 each way: 2 (alpha + S/2 / B), with every pair on
  // its own path through non-blocking tiers.
  double alpha = topology::route_latency(m, route).value(), bw = topology::route_bandwidth(m, route).value();
  CHECK(alpha == zs::test::approx(6e-6).epsilon(1e-12));
  CHECK(r.replay.iteration_time.value() == zs::test::approx(2 * (alpha + 32e6 / bw)).epsilon(1e-6));
}

TEST_CASE("groups sharing an oversubscribed uplink split it, on separate switches they do not interfere") {
  // 2 ToRs of 4 units; each ToR's uplink carries 4 x 50 GB/s / 4 = 50 GB/s.
  auto thin = fat_tree(8, {{{"units_per_switch", 4}, {"link_model", "nic"}, {"oversubscription", 4}},
                           {{"units_per_switch", 8}, {"link_model", "nic"}}});
  auto full = fat_tree(8, {{{"units_per_switch", 4}, {"link_model", "nic"}},
                           {{"units_per_switch", 8}, {"link_model", "nic"}}});
  const double S = 100e6;                     // each pair all-reduces 100 MB: 2 steps of 50 MB each way
  const double across = 4e-6, within = 2e-6;  // unit-ToR-top-ToR-unit, unit-ToR-unit
  auto time = [&](const topology::Machine& m, bool pair_outermost) {
    return engine::simulate(m, all_reduce_pairs(4, S, pair_outermost), policy::LinearPlacement(),
                            policy::RingCollective())
        .replay.iteration_time.value();
  };
  // Four pairs across the ToRs share each 50 GB/s uplink: a quarter of it each.
  CHECK(time(thin, true) == zs::test::approx(2 * (across + 4 * 50e6 / 50e9)).epsilon(1e-6));
  // On a non-blocking tree the same pairs run at their own links' speed.
  CHECK(time(full, true) == zs::test::approx(2 * (across + 50e6 / 50e9)).epsilon(1e-6));
  // Placed inside one ToR each, the pairs never touch the thin uplinks and do not slow each other.
  CHECK(time(thin, false) == zs::test::approx(2 * (within + 50e6 / 50e9)).epsilon(1e-6));
}

TEST_CASE("ECMP over spine planes: each connection hashes to one spine, and collisions set the pace") {
  // 16 units under each of 2 leaves, 16 spines (planes): each leaf-spine link carries one unit's
  // bandwidth B. Unit g sends S to unit g + 16 (16 sends at once, one direction only). Perfectly spread
  // (one spine of 16 B links) every transfer takes alpha + S / B; hashed, the spine links that c
  // transfers share take c S / B, so the last ends at alpha + c_max S / B, c_max the busiest link's
  // transfer count on the routes the router picks (the same router the engine uses).
  const double S = 64e6, B = 50e9;
  for (int planes : {1, 16}) {
    CAPTURE(planes);
    auto m = fat_tree(32, {{{"units_per_switch", 16}, {"link_model", "nic"}},
                           {{"units_per_switch", 32}, {"link_model", "nic"}, {"planes", planes}}});
    workload::Trace trace;  // pair 0 of group g (unit g) sends to pair 1 (unit g + 16)
    trace.name = "sends";
    trace.mesh = workload::Mesh({{"pair", 2}, {"group", 16}});
    trace.streams = {"comm"};
    trace.role_axis = "pair";
    using workload::P2PDirection;
    trace.roles = {
        {"sender", {{"send", "", 0, {}, workload::P2POp{P2PDirection::kSend, "pair", 1, core::Bytes(S)}}}},
        {"receiver",
         {{"recv", "", 0, {}, workload::P2POp{P2PDirection::kRecv, "pair", -1, core::Bytes(S)}}}}};
    auto r = engine::simulate(m, trace, policy::LinearPlacement(), policy::RingCollective());
    topology::Router router(m);
    std::map<topology::LinkId, int> load;
    int busiest = 0;
    for (int g = 0; g < 16; ++g)
      for (auto link : router.route(m.topology.units()[g], m.topology.units()[g + 16]))
        busiest = std::max(busiest, ++load[link]);
    if (planes == 1) CHECK(busiest == 16);  // the one 16 B uplink: each transfer still gets B
    if (planes == 16) CHECK(busiest > 1);   // 16 connections hashed onto 16 spines collide
    const int pace = planes == 1 ? 1 : busiest;
    const double alpha = 4e-6;  // four 1 us links
    CHECK(r.replay.iteration_time.value() == zs::test::approx(alpha + pace * S / B).epsilon(1e-6));
  }
}
