// Topology files become machines through the generator list; model names bind to scenario models.
#include <doctest/doctest.h>

#include "support/test_machines.hpp"
#include "topology/machine_builder.hpp"

using namespace zs;

namespace {
topology::ModelSet models() {
  topology::ModelSet m;
  m.units.emplace("gpu", test::unit_model("989TFLOPS", 0.75, "4us"));
  m.links.emplace("nvlink", test::link_model("450GB/s", "0.5us"));
  return m;
}
}  // namespace

TEST_CASE("a single-switch topology has n units, one switch and n links") {
  nlohmann::json j = {{"kind", "topology"}, {"name", "hgx"},       {"generator", "single-switch"},
                      {"units", 8},         {"unit_model", "gpu"}, {"link_model", "nvlink"}};
  core::JsonObject o(j, "t.json", "");
  auto m = topology::build_machine(o, models());
  CHECK(m.unit_count() == 8);
  CHECK(m.topology.nodes().size() == 9);
  CHECK(m.topology.links().size() == 8);
  CHECK(m.unit_model(m.topology.units()[3]).name() == "test-gpu");
}

TEST_CASE("unbound models and unknown generators are errors with the JSON path") {
  nlohmann::json j = {{"kind", "topology"}, {"name", "hgx"},       {"generator", "single-switch"},
                      {"units", 8},         {"unit_model", "tpu"}, {"link_model", "nvlink"}};
  core::JsonObject o(j, "t.json", "");
  CHECK_THROWS_WITH(topology::build_machine(o, models()),
                    "t.json: /unit_model: the compute-unit model \"tpu\" is not bound by the scenario's "
                    "/machine/models (bound compute-unit models: gpu)");
  j["unit_model"] = "gpu";
  j["generator"] = "hypercube";
  core::JsonObject o2(j, "t.json", "");
  CHECK_THROWS_WITH(topology::build_machine(o2, models()),
                    "t.json: /generator: unknown generator \"hypercube\" (known: single-switch, fat-tree, "
                    "torus, dragonfly, rail-optimized, graph, disaggregated, pods)");
  j["generator"] = "single-switch";
  j["units"] = 0;
  core::JsonObject o3(j, "t.json", "");
  CHECK_THROWS_WITH(topology::build_machine(o3, models()),
                    doctest::Contains("t.json: /units: expected a whole number in [1,"));
}

TEST_CASE("the resolved topology holds every key its generator declares, defaults filled in") {
  nlohmann::json j = {{"kind", "topology"},
                      {"name", "clos"},
                      {"generator", "fat-tree"},
                      {"units", 16},
                      {"unit_model", "gpu"},
                      {"levels",
                       {{{"units_per_switch", 4}, {"link_model", "nvlink"}, {"oversubscription", 2}},
                        {{"units_per_switch", 16}, {"link_model", "nvlink"}}}}};
  core::JsonObject o(j, "t.json", "");
  nlohmann::json resolved;
  topology::build_machine(o, models(), topology::builtin_topology_generators(), topology::kMaxMachineNodes,
                          &resolved);
  CHECK(resolved["description"] == "");
  CHECK(resolved["levels"][0]["oversubscription"] == 2.0);
  CHECK(resolved["levels"][1]["oversubscription"] == 1.0);  // the declared default
  CHECK(resolved.at(nlohmann::json::json_pointer("/levels/1/units_per_switch")) == 16);
  CHECK_FALSE(resolved.contains("power_domains"));  // optional, left out
}

TEST_CASE(
    "a key the generator does not declare lists the declared ones, and one the values leave unused is "
    "named") {
  nlohmann::json j = {{"kind", "topology"}, {"name", "hgx"},       {"generator", "single-switch"},
                      {"units", 8},         {"unit_model", "gpu"}, {"link_model", "nvlink"},
                      {"levels", 2}};
  core::JsonObject o(j, "t.json", "");
  CHECK_THROWS_WITH(topology::build_machine(o, models()),
                    "t.json: /levels: unknown key (known keys here: kind, name, description, generator, "
                    "power_domains, units, unit_model, link_model, switch_model, memory_pools)");

  nlohmann::json g = {{"kind", "topology"},
                      {"name", "g"},
                      {"generator", "graph"},
                      {"nodes",
                       {{{"name", "u0"}, {"kind", "unit"}, {"model", "gpu"}},
                        {{"name", "s"}, {"kind", "switch"}, {"attach", "u0"}}}},
                      {"links", {{{"a", "u0"}, {"b", "s"}, {"model", "nvlink"}}}}};
  core::JsonObject og(g, "g.json", "");
  CHECK_THROWS_WITH(
      topology::build_machine(og, models()),
      doctest::Contains("g.json: /nodes/1/attach: unknown key here: the other values leave it unused"));
}
