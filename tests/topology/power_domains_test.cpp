// Power domains declared in a topology file: racks in listing order, K to a domain; bad declarations.
#include <doctest/doctest.h>

#include "core/input_error.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_builder.hpp"

using namespace zs;
using nlohmann::json;

namespace {

/// One pod of 6 racks of 4 units; `power` is the topology's power_domains value (null: none).
topology::Machine build(const json& power) {
  json params = {{"kind", "topology"},
                 {"name", "d"},
                 {"generator", "disaggregated"},
                 {"pods", 1},
                 {"racks_per_pod", 6},
                 {"rack", {{"units", 4}, {"unit_model", "gpu"}, {"scale_up_link", "nvlink"}}},
                 {"scale_out", {{"nic_link", "nic"}, {"oversubscription", 1}}}};
  if (!power.is_null()) params["power_domains"] = power;
  core::JsonObject o(params, "d.json", "");
  return topology::build_machine(o, test::gpu_nvlink_nic_models());
}

}  // namespace

TEST_CASE("power domains group the racks in listing order, K racks to a domain") {
  const auto m = build({{"racks_per_domain", 4}});
  const auto& units = m.topology.units();
  REQUIRE(m.power_domains.size() == 2);  // 6 racks: 4 + 2
  CHECK(m.power_domains[0].name == "power0");
  CHECK(m.power_domains[1].name == "power1");
  CHECK(m.power_domains[0].units == std::vector<topology::NodeId>(units.begin(), units.begin() + 16));
  CHECK(m.power_domains[1].units == std::vector<topology::NodeId>(units.begin() + 16, units.end()));
}

TEST_CASE("a topology without power domains declares none, and a rack each is one unit's switch group") {
  CHECK(build(nullptr).power_domains.empty());
  const auto m = build({{"racks_per_domain", 1}});
  REQUIRE(m.power_domains.size() == 6);
  for (const auto& d : m.power_domains) CHECK(d.units.size() == 4);
}

TEST_CASE("bad power domain declarations name the JSON path") {
  auto message = [](const json& power) {
    try {
      build(power);
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message({{"racks_per_domain", 0}}).find("/power_domains/racks_per_domain") != std::string::npos);
  CHECK(message({{"racks", 2}}).find("/power_domains") != std::string::npos);
  CHECK(message(json(3)).find("/power_domains") != std::string::npos);
}
