// Generated topologies against closed forms: part counts, diameter and bisection bandwidth.
#include <doctest/doctest.h>

#include "support/approx.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_builder.hpp"
#include "topology/router.hpp"
#include "topology/routing.hpp"
#include "topology/topology_metrics.hpp"

using namespace zs;
using nlohmann::json;

namespace {
constexpr double B = 100e9;  // "fast": 100 GB/s per direction

topology::Machine build(json params) {
  topology::ModelSet models;
  models.units.emplace("gpu", test::unit_model("1PFLOPS", 0.5, "0s"));
  models.links.emplace("fast", test::link_model("100GB/s", "1us"));
  models.links.emplace("slow", test::link_model("25GB/s", "2us"));
  models.links.emplace("huge", test::link_model("10TB/s", "1us"));
  models.memories.emplace("cxl", test::memory_pool_model(2, "64GB/s", "250ns"));
  models.optical_switches.emplace("ocs", test::optical_switch_model(136, "10ms", "100GB/s"));
  params["kind"] = "topology";
  params["name"] = "t";
  core::JsonObject o(params, "t.json", "");
  return topology::build_machine(o, models);
}

std::string build_error(json params) {
  try {
    build(std::move(params));
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

json fat_tree(int units, json levels) {
  return {{"generator", "fat-tree"}, {"units", units}, {"unit_model", "gpu"}, {"levels", levels}};
}
}  // namespace

TEST_CASE("2-level fat-tree: counts, diameter 4, bisection n/2 x B / oversubscription") {
  for (double r : {1.0, 4.0}) {
    auto m = build(fat_tree(64, {{{"units_per_switch", 16}, {"link_model", "fast"}, {"oversubscription", r}},
                                 {{"units_per_switch", 64}, {"link_model", "fast"}}}));
    CHECK(m.unit_count() == 64);
    CHECK(m.topology.nodes().size() == 64 + 4 + 1);
    CHECK(m.topology.links().size() == 64 + 4);
    auto s = topology::summarize(m);
    CHECK(s.diameter.hops == 4);
    CHECK(s.diameter.exact);
    CHECK(s.bisection.value() == zs::test::approx(32 * B / r).epsilon(1e-9));
    CHECK(s.min_injection.value() == B);
  }
}

TEST_CASE("fat-tree planes: every node below linked to each plane at 1/planes of its bandwidth") {
  for (int planes : {1, 4}) {
    auto m = build(fat_tree(64, {{{"units_per_switch", 16}, {"link_model", "fast"}, {"oversubscription", 2}},
                                 {{"units_per_switch", 64}, {"link_model", "fast"}, {"planes", planes}}}));
    CAPTURE(planes);
    CHECK(m.topology.nodes().size() == size_t(64 + 4 + planes));
    CHECK(m.topology.links().size() == size_t(64 + 4 * planes));
    auto s = topology::summarize(m);
    CHECK(s.diameter.hops == 4);
    // The same bisection however the leaves' uplinks are split: 32 units x B / 2.
    CHECK(s.bisection.value() == zs::test::approx(32 * B / 2).epsilon(1e-9));
    const auto& last = m.topology.link(m.topology.links().size() - 1);
    CHECK(last.width == zs::test::approx(16.0 / 2 / planes));  // a leaf's 16 B / 2 over the planes
  }
  CHECK(build_error(fat_tree(8, {{{"units_per_switch", 8}, {"link_model", "fast"}, {"planes", 0}}})) ==
        "t.json: /levels/0/planes: expected a whole number in [1, 1024], got 0");
}

TEST_CASE("3-level fat-tree with full pods and 1:7 above them (the Llama 3 shape, scaled down)") {
  for (int units : {1024, 4096}) {
    auto m =
        build(fat_tree(units, {{{"units_per_switch", 16}, {"link_model", "fast"}},
                               {{"units_per_switch", 256}, {"link_model", "fast"}, {"oversubscription", 7}},
                               {{"units_per_switch", units}, {"link_model", "fast"}}}));
    auto s = topology::summarize(m);
    CHECK(s.switches == uint64_t(units / 16 + units / 256 + 1));
    CHECK(s.diameter.hops == 6);
    CHECK(s.bisection.value() == zs::test::approx(units / 2 * B / 7).epsilon(1e-9));
    // Route between the first and the last unit: up three levels and down, 6 links; the narrowest
    // is a unit's own link.
    const auto& u = m.topology.units();
    auto route = topology::shortest_route(m.topology, u.front(), u.back());
    CHECK(route.links.size() == 6);
    CHECK(topology::route_latency(m, route).value() == zs::test::approx(6e-6).epsilon(1e-12));
    CHECK(topology::route_bandwidth(m, route).value() == B);
  }
}

TEST_CASE("TPU v4-style torus: blocks joined by optical circuits that start as the torus") {
  for (std::vector<int> dims :
       {std::vector<int>{8, 8, 8}, std::vector<int>{16, 16, 16}, std::vector<int>{8, 4, 12}}) {
    CAPTURE(dims[2]);
    json params = {{"generator", "torus"}, {"dims", dims}, {"unit_model", "gpu"}, {"link_model", "fast"}};
    auto plain = build(params);
    params["optical_blocks"] = {{"block", {4, 4, 4}}, {"model", "ocs"}};
    auto blocked = build(params);
    const auto& topo = blocked.topology;
    // One switch per face position of every dimension with several blocks; every link that leaves a block
    // is a circuit, and there are as many links as in the plain torus.
    int dims_with_blocks = 0, crossing = 0, n = dims[0] * dims[1] * dims[2];
    for (int k : dims)
      if (k > 4) {
        ++dims_with_blocks;
        crossing += n / 4;  // units on the + face of their block in that dimension
      }
    CHECK(topo.optical_switches().size() == size_t(16 * dims_with_blocks));
    CHECK(topo.circuits().size() == size_t(crossing));
    CHECK(topo.links().size() == plain.topology.links().size());
    // Every circuit joins torus neighbours: coordinates differ by one (mod k) in exactly one dimension.
    for (const auto& c : topo.circuits()) {
      const auto& l = topo.link(c.link);
      int a = int(l.a), b = int(l.b), stride = 1, differing = 0;
      for (int k : dims) {
        int ca = (a / stride) % k, cb = (b / stride) % k;
        if (ca != cb) {
          ++differing;
          CHECK(((cb - ca + k) % k == 1 || (ca - cb + k) % k == 1));
        }
        stride *= k;
      }
      CHECK(differing == 1);
    }
    auto s = topology::summarize(blocked), p = topology::summarize(plain);
    CHECK(s.diameter.hops == p.diameter.hops);
    CHECK(s.bisection.value() == zs::test::approx(p.bisection.value()));  // circuits as fast as the links
  }
  json too_many = {{"generator", "torus"},
                   {"dims", {32, 32, 16}},
                   {"unit_model", "gpu"},
                   {"link_model", "fast"},
                   {"optical_blocks", {{"block", {4, 4, 4}}, {"model", "ocs"}}}};
  CHECK(build_error(too_many) == "(no error)");  // several switches per face position: see below
  too_many["dims"] = {4, 4, 4 * 69};
  CHECK(build_error(too_many) ==
        "t.json: /optical_blocks: a line of 69 blocks along dimension 2 needs 138 "
        "ports on one optical switch, but \"test-ocs\" has 136");
  json uneven = {{"generator", "torus"},
                 {"dims", {8, 8, 6}},
                 {"unit_model", "gpu"},
                 {"link_model", "fast"},
                 {"optical_blocks", {{"block", {4, 4, 4}}, {"model", "ocs"}}}};
  CHECK(build_error(uneven) ==
        "t.json: /optical_blocks/block: block size 4 must divide dimension 2 of size 6");
}

TEST_CASE("TPU v4-style torus beyond one switch's ports: whole lines of blocks per switch, still the torus") {
  // 8 x 8 x 4 blocks of 4x4x4 = 256 blocks: 512 port pairs, more than the 136 ports of "ocs". Along d0 and
  // d1 a line is 8 blocks (16 ports): 8 lines per switch, 32 lines, so 4 switches per face position;
  // along d2 a line is 4 blocks: 17 lines per switch, 64 lines, so 4 switches (the last with 13 lines).
  json params = {
      {"generator", "torus"}, {"dims", {32, 32, 16}}, {"unit_model", "gpu"}, {"link_model", "fast"}};
  auto plain = build(params);
  params["optical_blocks"] = {{"block", {4, 4, 4}}, {"model", "ocs"}};
  auto blocked = build(params);
  const auto& topo = blocked.topology;
  CHECK(topo.optical_switches().size() == size_t(3 * 16 * 4));
  CHECK(topo.optical_switches()[0].name == "ocs-d0-f0-s0");
  CHECK(topo.optical_switches()[0].port_nodes.size() == 8 * 16);
  CHECK(topo.optical_switches()[2 * 16 * 4 + 3].port_nodes.size() == 13 * 8);
  CHECK(topo.links().size() == plain.topology.links().size());
  CHECK(topo.circuits().size() == size_t(32 * 32 * 16 / 4 * 3));
  auto s = topology::summarize(blocked, 64), p = topology::summarize(plain, 64);
  CHECK(s.diameter.hops == p.diameter.hops);
  CHECK(s.bisection.value() == zs::test::approx(p.bisection.value()));
}

TEST_CASE("3D torus: diameter sum of floor(k/2), bisection 2 x (N/k) x B across the slowest dimension") {
  struct Case {
    std::vector<int> dims;
    bool wrap;
    uint32_t diameter;
    double bisection_links;
  };
  for (const auto& c : {Case{{4, 4, 8}, true, 2 + 2 + 4, 2 * 16}, Case{{8, 8, 8}, true, 12, 2 * 64},
                        Case{{4, 4, 4}, false, 9, 16}, Case{{4, 4, 2}, true, 5, 2 * 16}}) {
    auto m = build({{"generator", "torus"},
                    {"dims", c.dims},
                    {"unit_model", "gpu"},
                    {"link_model", "fast"},
                    {"wraparound", c.wrap}});
    auto s = topology::summarize(m);
    int n = c.dims[0] * c.dims[1] * c.dims[2];
    CHECK(s.units == uint64_t(n));
    CHECK(s.switches == 0);
    CHECK(s.diameter.hops == c.diameter);
    CHECK(s.bisection.value() == zs::test::approx(c.bisection_links * B).epsilon(1e-9));
    if (c.wrap) CHECK(s.min_injection.value() == 6 * B);  // two links per dimension
  }
}

TEST_CASE("dragonfly: diameter 5, bisection (g/2)^2 x links per group pair x global bandwidth") {
  struct Case {
    int g, a, p, h;
  };
  for (const auto& c : {Case{8, 7, 2, 1}, Case{4, 3, 2, 1}, Case{6, 5, 4, 2}}) {
    auto m = build({{"generator", "dragonfly"},
                    {"groups", c.g},
                    {"routers_per_group", c.a},
                    {"units_per_router", c.p},
                    {"global_links_per_router", c.h},
                    {"unit_model", "gpu"},
                    {"unit_link_model", "huge"},
                    {"local_link_model", "huge"},
                    {"global_link_model", "slow"}});
    auto s = topology::summarize(m);
    const int per_pair = c.a * c.h / (c.g - 1);
    CHECK(s.units == uint64_t(c.g * c.a * c.p));
    CHECK(s.switches == uint64_t(c.g * c.a));
    CHECK(s.links == uint64_t(c.g * c.a * c.p + c.g * c.a * (c.a - 1) / 2 + c.g * (c.g - 1) / 2 * per_pair));
    CHECK(s.diameter.hops == 5);
    CHECK(s.bisection.value() == zs::test::approx((c.g / 2) * (c.g / 2) * per_pair * 25e9).epsilon(1e-9));
  }
  CHECK(
      build_error({{"generator", "dragonfly"},
                   {"groups", 8},
                   {"routers_per_group", 4},
                   {"units_per_router", 1},
                   {"global_links_per_router", 1},
                   {"unit_model", "gpu"},
                   {"unit_link_model", "fast"},
                   {"local_link_model", "fast"},
                   {"global_link_model", "fast"}})
          .find("t.json: /global_links_per_router: routers_per_group x global_links_per_router = 4 must be a "
                "multiple of groups - 1 = 7") == 0);
}

TEST_CASE("fat-tree parameters are checked") {
  CHECK(build_error(fat_tree(64, {{{"units_per_switch", 10}, {"link_model", "fast"}},
                                  {{"units_per_switch", 64}, {"link_model", "fast"}}}))
            .find("t.json: /levels/0/units_per_switch: 10 does not divide the 64 units") == 0);
  CHECK(build_error(fat_tree(64, {{{"units_per_switch", 16}, {"link_model", "fast"}}}))
            .find("t.json: /levels/0/units_per_switch: the top level must serve all 64 units") == 0);
  CHECK(
      build_error(fat_tree(64, {{{"units_per_switch", 16}, {"link_model", "fast"}, {"oversubscription", 0.5}},
                                {{"units_per_switch", 64}, {"link_model", "fast"}}}))
          .find("t.json: /levels/0/oversubscription: expected a number in [1.0,") == 0);
}

TEST_CASE("fat-tree servers: units of one server route over its scale-up switch, others over the tree") {
  json params = fat_tree(32, {{{"units_per_switch", 16}, {"link_model", "slow"}},
                              {{"units_per_switch", 32}, {"link_model", "slow"}}});
  params["servers"] = {{"units_per_server", 8}, {"link_model", "fast"}};
  auto m = build(params);
  CHECK(m.topology.nodes().size() == 32 + 4 + 2 + 1);  // units, servers, ToRs, top
  CHECK(m.topology.links().size() == 32 + 32 + 2);
  topology::Router router(m);
  auto models_on = [&](topology::NodeId a, topology::NodeId b) {
    std::vector<double> bandwidths;
    for (auto link : router.route(m.topology.units()[a], m.topology.units()[b]))
      bandwidths.push_back(m.link_model(link).bandwidth().value() * m.topology.link(link).width);
    return bandwidths;
  };
  CHECK(models_on(0, 7) == std::vector<double>{B, B});          // one server's NVLink
  CHECK(models_on(7, 8) == std::vector<double>{B / 4, B / 4});  // two servers on one ToR
  CHECK(models_on(0, 31) == std::vector<double>{B / 4, 4 * B, 4 * B, B / 4});  // over the top
  // The injection is the NIC's and the NVLink's together.
  CHECK(topology::summarize(m).min_injection.value() == zs::test::approx(B + B / 4).epsilon(1e-9));
  params["servers"]["units_per_server"] = 5;
  CHECK(build_error(params).find("t.json: /servers/units_per_server: 5 does not divide level 1's 16 units "
                                 "per switch") == 0);
}

TEST_CASE("explicit graphs: links by node name, dangling links and duplicates rejected") {
  json g = {{"generator", "graph"},
            {"nodes",
             {{{"name", "a"}, {"kind", "unit"}, {"model", "gpu"}},
              {{"name", "b"}, {"kind", "unit"}, {"model", "gpu"}},
              {{"name", "sw"}, {"kind", "switch"}}}},
            {"links",
             {{{"a", "a"}, {"b", "sw"}, {"model", "fast"}},
              {{"a", "b"}, {"b", "sw"}, {"model", "fast"}, {"width", 2}}}}};
  auto m = build(g);
  CHECK(m.unit_count() == 2);
  CHECK(m.link_bandwidth(1).value() == 2 * B);
  auto s = topology::summarize(m);
  CHECK(s.diameter.hops == 2);
  CHECK(s.bisection.value() == B);
  auto dangling = g;
  dangling["links"][1]["b"] = "sw2";
  CHECK(build_error(dangling) == "t.json: /links/1/b: dangling link: no node named \"sw2\"");
  auto duplicate = g;
  duplicate["nodes"][2]["name"] = "a";
  CHECK(build_error(duplicate) == "t.json: /nodes/2/name: duplicate node name \"a\"");
  auto self = g;
  self["links"][0]["b"] = "a";
  CHECK(build_error(self) == "t.json: /links/0/b: a link must join two different nodes");
}

TEST_CASE("memory pools in a graph attach to a node through ports x port bandwidth") {
  json g = {{"generator", "graph"},
            {"nodes",
             {{{"name", "a"}, {"kind", "unit"}, {"model", "gpu"}},
              {{"name", "sw"}, {"kind", "switch"}},
              {{"name", "pool"}, {"kind", "memory"}, {"model", "cxl"}, {"attach", "sw"}}}},
            {"links", {{{"a", "a"}, {"b", "sw"}, {"model", "fast"}}}}};
  auto m = build(g);
  REQUIRE(m.topology.memories().size() == 1);
  auto route = topology::shortest_route(m.topology, m.topology.units()[0], m.topology.memories()[0]);
  CHECK(topology::route_bandwidth(m, route).value() == 100e9);  // the unit link; the pool has 2 x 64 GB/s
  CHECK(topology::route_latency(m, route).value() == zs::test::approx(1e-6 + 250e-9).epsilon(1e-12));
  auto s = topology::summarize(m);
  CHECK(s.memory_pools == 1);
  CHECK(s.switches == 1);
  auto bad = g;
  bad["nodes"][2]["attach"] = "nowhere";
  CHECK(build_error(bad) ==
        "t.json: /nodes/2/attach: no unit or switch named \"nowhere\" to attach the pool to");
  bad = g;
  bad["links"].push_back({{"a", "a"}, {"b", "pool"}, {"model", "fast"}});
  CHECK(build_error(bad) == "t.json: /links/1/b: memory pools connect through \"attach\", not links");
}

TEST_CASE("diameter from sampled sources is labelled a lower bound") {
  auto m =
      build({{"generator", "torus"}, {"dims", {8, 8, 8}}, {"unit_model", "gpu"}, {"link_model", "fast"}});
  auto d = topology::unit_diameter(m.topology, 16);
  CHECK_FALSE(d.exact);
  CHECK(d.sources == 16);
  CHECK(d.hops == 12);  // a torus looks the same from every unit
}
