// The engine's router: same routes as shortest_route, detours around disabled links, bounded cache.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "support/test_machines.hpp"
#include "topology/router.hpp"
#include "topology/routing.hpp"

using namespace zs;

namespace {
/// The route a breadth-first search from `dst` itself gives, walked as the router walks it (lowest
/// node id, then link id, among the next hops one step closer; pools do not forward).
std::vector<topology::LinkId> reference_route(const topology::Topology& t, topology::NodeId src,
                                              topology::NodeId dst) {
  std::vector<uint32_t> dist(t.nodes().size(), UINT32_MAX);
  std::vector<topology::NodeId> frontier{dst};
  dist[dst] = 0;
  for (size_t head = 0; head < frontier.size(); ++head) {
    auto n = frontier[head];
    if (n != dst && t.node(n).kind == topology::NodeKind::kMemory) continue;
    for (auto [m, link] : t.neighbours(n))
      if (dist[m] == UINT32_MAX) {
        dist[m] = dist[n] + 1;
        frontier.push_back(m);
      }
  }
  std::vector<topology::LinkId> links;
  for (auto n = src; n != dst;) {
    auto next = t.neighbours(n);
    std::sort(next.begin(), next.end());
    for (auto [m, link] : next)
      if (dist[m] + 1 == dist[n] && (m == dst || t.node(m).kind != topology::NodeKind::kMemory)) {
        links.push_back(link);
        n = m;
        break;
      }
  }
  return links;
}

/// a - s1 - b and a - s2 - s3 - b: two routes of different length between a and b.
topology::Topology two_paths() {
  topology::Topology t;
  auto a = t.add_unit("a", 0);
  auto b = t.add_unit("b", 0);
  auto s1 = t.add_switch("s1");
  auto s2 = t.add_switch("s2");
  auto s3 = t.add_switch("s3");
  t.add_link(a, s1, 0);   // 0
  t.add_link(s1, b, 0);   // 1
  t.add_link(a, s2, 0);   // 2
  t.add_link(s2, s3, 0);  // 3
  t.add_link(s3, b, 0);   // 4
  return t;
}
}  // namespace

TEST_CASE("the router picks the same routes as shortest_route on a single switch") {
  auto m =
      test::single_switch_machine(6, test::unit_model("1PFLOPS", 1, "0s"), test::link_model("1GB/s", "1us"));
  topology::Router router(m.topology);
  for (auto s : m.topology.units())
    for (auto d : m.topology.units()) {
      auto expected =
          s == d ? std::vector<topology::LinkId>{} : topology::shortest_route(m.topology, s, d).links;
      CHECK(router.route(s, d) == expected);
    }
  CHECK(router.trees_computed() == 1);  // every unit hangs off the one switch: one shared map
}

TEST_CASE("a disabled link is routed around, and enabling it again restores the short route") {
  auto t = two_paths();
  topology::Router router(t);
  CHECK(router.route(0, 1) == std::vector<topology::LinkId>{0, 1});
  router.set_link_enabled(1, false);
  CHECK(router.route(0, 1) == std::vector<topology::LinkId>{2, 3, 4});
  CHECK(router.route(1, 0) == std::vector<topology::LinkId>{4, 3, 2});
  router.set_link_enabled(4, false);
  CHECK_THROWS_WITH_AS(router.route(0, 1), "no route from a to b", std::invalid_argument);
  router.set_link_enabled(1, true);
  CHECK(router.route(0, 1) == std::vector<topology::LinkId>{0, 1});
}

TEST_CASE("a spread after one that found no route sees none of its demand") {
  auto t = two_paths();
  topology::Router router(t);
  auto total = [&] {
    double bytes = 0;
    router.spread({{0, 100.0}}, {{1, 1.0}},
                  [&](topology::LinkId, topology::NodeId, double b) { bytes += b; });
    return bytes;
  };
  const double healthy = total();
  CHECK(healthy == 200.0);  // a - s1 - b: two links
  router.set_link_enabled(1, false);
  router.set_link_enabled(4, false);
  CHECK_THROWS_AS(total(), std::invalid_argument);
  router.set_link_enabled(1, true);
  router.set_link_enabled(4, true);
  CHECK(total() == healthy);
  CHECK(total() == healthy);
}

TEST_CASE("no route passes through a memory pool") {
  topology::Topology t;
  auto a = t.add_unit("a", 0);
  auto b = t.add_unit("b", 0);
  auto pool = t.add_memory("pool", 0);
  auto sw = t.add_switch("s");
  t.add_link(a, pool, 0);
  t.add_link(pool, b, 0);
  t.add_link(a, sw, 0);
  t.add_link(sw, b, 0);
  t.add_link(a, sw, 0);
  topology::Router router(t);
  CHECK(router.route(a, b) == std::vector<topology::LinkId>{2, 3});  // not the pool's 2 hops
  CHECK(router.route(a, pool) == std::vector<topology::LinkId>{0});
  CHECK(router.route(pool, b) == std::vector<topology::LinkId>{1});  // a pool may be a source
}

TEST_CASE("ECMP spreads connections over equal routes, lowest-id keeps one, a pair keeps its route") {
  // 8 units on 4 leaves (2 each), every leaf linked to both of 2 spines: 2 fewest-hop routes between leaves.
  topology::Topology t;
  std::vector<topology::NodeId> units, leaves, spines;
  for (int i = 0; i < 8; ++i) units.push_back(t.add_unit("u" + std::to_string(i), 0));
  for (int i = 0; i < 4; ++i) leaves.push_back(t.add_switch("leaf" + std::to_string(i)));
  for (int i = 0; i < 2; ++i) spines.push_back(t.add_switch("spine" + std::to_string(i)));
  for (int i = 0; i < 8; ++i) t.add_link(units[i], leaves[i / 2], 0);
  for (auto l : leaves)
    for (auto s : spines) t.add_link(l, s, 0);
  auto spine_of = [&](const std::vector<topology::LinkId>& r) {
    REQUIRE(r.size() == 4);
    const auto& up = t.link(r[1]);
    return up.a == spines[0] || up.b == spines[0] ? 0 : 1;
  };
  topology::Router ecmp(t), lowest(t, topology::PathSelection::kLowestId);
  int through[2] = {0, 0};
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      if (a / 2 == b / 2) continue;
      auto r = ecmp.route(units[a], units[b]);
      ++through[spine_of(r)];
      CHECK(ecmp.route(units[a], units[b]) == r);  // per-connection: stable
      CHECK(spine_of(lowest.route(units[a], units[b])) == 0);
    }
  CHECK(through[0] + through[1] == 48);
  CHECK(through[0] >= 12);  // both spines carry a fair part (a hash, so not exactly half)
  CHECK(through[1] >= 12);
}

TEST_CASE("an evicted tree is rebuilt and gives the same routes") {
  topology::Topology t = two_paths();
  topology::Router router(t, topology::PathSelection::kLowestId, 1);
  auto first = router.route(0, 1);
  CHECK(router.route(1, 0).size() == 2);
  CHECK(router.route(0, 1) == first);
  CHECK(router.trees_computed() == 3);
}

TEST_CASE("endpoints with the same attachments share one distance map and keep their routes") {
  // Four leaves of four units under two spines, a memory pool on every leaf and two units also
  // linked to each other (a unit may forward): routes must equal a search from each endpoint.
  topology::Topology t;
  std::vector<topology::NodeId> endpoints;
  auto spine0 = t.add_switch("spine0"), spine1 = t.add_switch("spine1");
  for (int l = 0; l < 4; ++l) {
    auto leaf = t.add_switch("leaf" + std::to_string(l));
    t.add_link(leaf, spine0, 0);
    t.add_link(leaf, spine1, 0);
    for (int u = 0; u < 4; ++u) {
      endpoints.push_back(t.add_unit("u" + std::to_string(l) + std::to_string(u), 0));
      t.add_link(endpoints.back(), leaf, 0);
    }
    endpoints.push_back(t.add_memory("pool" + std::to_string(l), 0));
    t.add_link(endpoints.back(), leaf, 0);
  }
  t.add_link(endpoints[0], endpoints[5], 0);  // u00 - u10 directly
  topology::Router router(t, topology::PathSelection::kLowestId);
  for (auto s : endpoints)
    for (auto d : endpoints) {
      CAPTURE(t.node(s).name);
      CAPTURE(t.node(d).name);
      CHECK(router.route(s, d) == reference_route(t, s, d));
    }
  // One map per leaf for its plain units and pool, one each for u00 and u10 (two attachments).
  CHECK(router.trees_computed() == 6);
}

namespace {
/// A rack of `n` units, each with a 450 GB/s NVLink (model 0, link 2u) to an NVLink switch and a 50 GB/s
/// NIC (model 1, link 2u + 1) to a ToR. Units are nodes 2..n+1.
topology::Machine nvlink_and_nic_rack(int n) {
  topology::Machine m;
  m.name = "rack";
  m.generator = "test";
  m.unit_models.push_back(test::unit_model("1PFLOPS", 1, "0s"));
  m.link_models.push_back(test::link_model("450GB/s", "1us"));  // 0: NVLink
  m.link_models.push_back(test::link_model("50GB/s", "1us"));   // 1: NIC
  auto& t = m.topology;
  const auto nvswitch = t.add_switch("nvswitch");
  const auto tor = t.add_switch("tor");
  for (int u = 0; u < n; ++u) {
    const auto unit = t.add_unit("u" + std::to_string(u), 0);
    t.add_link(unit, nvswitch, 0);
    t.add_link(unit, tor, 1);
  }
  return m;
}
}  // namespace

TEST_CASE("on a machine, units sharing an NVLink switch and a ToR talk over NVLink, in routes and spreads") {
  const auto m = nvlink_and_nic_rack(4);
  const auto& units = m.topology.units();
  topology::Router by_hops(m.topology), by_machine(m);
  int over_nic = 0;
  for (auto s : units)
    for (auto d : units) {
      if (s == d) continue;
      const auto hops_only = by_hops.route(s, d);
      over_nic += m.topology.link(hops_only.front()).model == 1 ? 1 : 0;
      const auto route = by_machine.route(s, d);
      REQUIRE(route.size() == 2);
      CHECK(m.topology.link(route[0]).model == 0);
      CHECK(m.topology.link(route[1]).model == 0);
    }
  CHECK(over_nic > 0);  // hops alone hash some connections onto the NICs
  double nic_bytes = 0, nvlink_bytes = 0;
  by_machine.spread({{units[0], 100.0}}, {{units[1], 1.0}},
                    [&](topology::LinkId l, topology::NodeId, double b) {
                      (m.topology.link(l).model == 1 ? nic_bytes : nvlink_bytes) += b;
                    });
  CHECK(nic_bytes == 0);
  CHECK(nvlink_bytes == 200);  // 100 B up to the NVLink switch and 100 B down
}

TEST_CASE("a machine's failed links start switched off: a unit whose NVLink is out talks over its NIC") {
  auto m = nvlink_and_nic_rack(2);
  const auto& t = m.topology;
  m.links_down.insert(0);  // u0's NVLink
  topology::Router router(m);
  CHECK_FALSE(router.link_enabled(0));
  CHECK(router.link_enabled(2));  // u1's NVLink
  const auto route = router.route(t.units()[0], t.units()[1]);
  REQUIRE(route.size() == 2);
  CHECK(t.link(route[0]).model == 1);
  CHECK(t.link(route[1]).model == 1);
}
