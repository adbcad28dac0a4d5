// Rail-optimized clusters and mixed machines.
#include <doctest/doctest.h>

#include "support/approx.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_builder.hpp"
#include "topology/routing.hpp"
#include "topology/topology_metrics.hpp"

using namespace zs;
using nlohmann::json;

namespace {
topology::Machine build(json params, topology::ModelSet models) {
  params["kind"] = "topology";
  params["name"] = "t";
  core::JsonObject o(params, "t.json", "");
  return topology::build_machine(o, models);
}

json rails(int servers, int per_server) {
  return {{"generator", "rail-optimized"},   {"servers", servers},
          {"units_per_server", per_server},  {"unit_model", "gpu"},
          {"scale_up_link_model", "nvlink"}, {"nic_link_model", "nic"}};
}
}  // namespace

TEST_CASE("rail-optimized: counts, diameter 4, bisection n/2 x NIC bandwidth") {
  for (auto [servers, per_server] : {std::pair{4, 8}, {16, 4}, {8, 8}}) {
    auto m = build(rails(servers, per_server), test::gpu_nvlink_nic_models());
    auto s = topology::summarize(m);
    const int n = servers * per_server;
    CHECK(s.units == uint64_t(n));
    CHECK(s.switches == uint64_t(servers + per_server));
    CHECK(s.links == uint64_t(2 * n));
    CHECK(s.diameter.hops == 4);
    CHECK(s.bisection.value() == zs::test::approx(n / 2 * 50e9).epsilon(1e-9));
    CHECK(s.min_injection.value() == 450e9 + 50e9);
  }
}

TEST_CASE("rail-optimized routes: same rail through the rail switch, across rails through a server") {
  auto m = build(rails(4, 8), test::gpu_nvlink_nic_models());
  const auto& u = m.topology.units();
  auto same_rail = topology::shortest_route(m.topology, u[0], u[8]);  // GPU 0 of servers 0 and 1
  CHECK(same_rail.links.size() == 2);
  CHECK(topology::route_latency(m, same_rail).value() == zs::test::approx(2e-6).epsilon(1e-12));
  auto across = topology::shortest_route(m.topology, u[0], u[9]);  // GPU 0 of server 0, GPU 1 of server 1
  CHECK(across.links.size() == 4);
  CHECK(topology::route_bandwidth(m, across).value() == 50e9);
  // A spine adds a rail-to-rail path with the rails' bandwidth divided by the oversubscription.
  auto j = rails(4, 8);
  j["spine"] = {{"link_model", "nic"}, {"oversubscription", 2}};
  auto spined = build(j, test::gpu_nvlink_nic_models());
  CHECK(topology::summarize(spined).switches == 4 + 8 + 1);
  CHECK(spined.link_bandwidth(spined.topology.links().size() - 1).value() == zs::test::approx(4 * 50e9 / 2));
}

TEST_CASE("a mixed machine keeps each unit type's own model") {
  auto set = test::gpu_nvlink_nic_models();
  auto npu_json = test::unit_model_json("500TFLOPS", 0.5, "0s");
  npu_json["name"] = "test-npu";
  core::JsonObject npu_obj(npu_json, "npu.json", "");
  set.units.emplace("npu", hw::ComputeUnitModel::from_json(npu_obj));
  json g = {{"generator", "graph"},
            {"nodes",
             {{{"name", "g0"}, {"kind", "unit"}, {"model", "gpu"}},
              {{"name", "n0"}, {"kind", "unit"}, {"model", "npu"}},
              {{"name", "g1"}, {"kind", "unit"}, {"model", "gpu"}},
              {{"name", "sw"}, {"kind", "switch"}}}},
            {"links",
             {{{"a", "g0"}, {"b", "sw"}, {"model", "nvlink"}},
              {{"a", "n0"}, {"b", "sw"}, {"model", "nic"}},
              {{"a", "g1"}, {"b", "sw"}, {"model", "nvlink"}}}}};
  auto m = build(g, set);
  auto s = topology::summarize(m);
  CHECK(s.units_by_model == std::map<std::string, uint64_t>{{"test-gpu", 2}, {"test-npu", 1}});
  CHECK(m.unit_model(m.topology.units()[1]).matrix_peak(core::Dtype::kBf16).value() == 500e12);
  CHECK(s.min_injection.value() == 50e9);
  CHECK(s.max_injection.value() == 450e9);
}
