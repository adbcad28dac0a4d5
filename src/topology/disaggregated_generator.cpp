// Disaggregated machine generator.
#include "topology/disaggregated_generator.hpp"

#include <string>
#include <utility>
#include <vector>

#include "topology/memory_pools.hpp"
#include "topology/switch_radix.hpp"

namespace zs::topology {
namespace {

/// Round `round` of a round-robin tournament among n teams (n even): n/2 disjoint pairs.
std::vector<std::pair<uint32_t, uint32_t>> tournament_round(uint32_t n, uint32_t round) {
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  const uint32_t m = n - 1;  // teams 0..m-1 rotate, team m stays
  pairs.emplace_back(round % m, m);
  for (uint32_t i = 1; i < n / 2; ++i) pairs.emplace_back((round + i) % m, (round + m - i) % m);
  return pairs;
}

const core::ParamTable& rack_params() {
  static const core::ParamTable pools(
      "topology.disaggregated.memory-pools", "memory pools on each rack's scale-up switch",
      {core::Param::text("model", "a memory-pool model bound in the machine's models"),
       core::Param::integer("count", 1, 1 << 10, "pools per rack")});
  static const core::ParamTable table(
      "topology.disaggregated.rack", "one rack: units on a scale-up switch and a top-of-rack switch",
      {core::Param::integer("units", 1, 1 << 16, "compute units per rack"),
       core::Param::text("unit_model", "a compute-unit model bound in the machine's models"),
       core::Param::text("scale_up_link", "the link model from a unit to the scale-up switch"),
       core::Param::text("scale_up_switch", "the scale-up switch's model; left out, an ideal switch")
           .optional(),
       core::Param::object("memory_pools", pools, "memory pools of the rack; left out, none").optional()});
  return table;
}

}  // namespace

const core::ParamTable& disaggregated_params() {
  static const core::ParamTable scale_out(
      "topology.disaggregated.scale-out", "each pod's scale-out network: NICs, top-of-rack switches, a spine",
      {core::Param::text("nic_link", "the link model from a unit to its top-of-rack switch"),
       core::Param::text("tor_switch", "the top-of-rack switch's model; left out, an ideal switch")
           .optional(),
       core::Param::number("oversubscription", 1.0, 1e6, "top-of-rack downlink to uplink bandwidth")
           .or_default(1.0)});
  static const core::ParamTable optical_core(
      "topology.disaggregated.optical-core", "optical circuit switches joining the pods' spines",
      {core::Param::text("model", "an optical-circuit-switch model bound in the machine's models"),
       core::Param::integer("switches", 1, 1 << 16, "optical circuit switches"),
       core::Param::integer("ports_per_pod", 1, 1 << 16, "ports of each switch cabled to each pod's spine")});
  static const core::ParamTable table(
      "topology.disaggregated",
      "racks of units and CXL pools, pods on a fat-tree, pods joined by optical circuit switches",
      {core::Param::integer("pods", 1, 1 << 16, "pods"),
       core::Param::integer("racks_per_pod", 1, 1 << 20, "racks per pod"),
       core::Param::object("rack", rack_params(), "what every rack holds"),
       core::Param::object("scale_out", scale_out, "each pod's scale-out network"),
       core::Param::object("optical_core", optical_core, "required with several pods; left out, one pod")
           .optional()});
  return table;
}

void generate_disaggregated(core::ParamReader& params, ModelBinder& binder, Machine& machine) {
  auto& topo = machine.topology;
  const auto pods = static_cast<uint32_t>(params.get<int64_t>("pods"));
  const auto racks = static_cast<uint32_t>(params.get<int64_t>("racks_per_pod"));

  core::ParamReader rack = params.part("rack");
  const auto units = static_cast<uint32_t>(rack.get<int64_t>("units"));
  const uint32_t unit_model = binder.unit_model(rack, "unit_model");
  const uint32_t scale_up_link = binder.link_model(rack, "scale_up_link");
  const uint32_t scale_up_switch = binder.optional_switch_model(rack, "scale_up_switch");
  uint32_t pool_model = kNoModel;
  int64_t pools_per_rack = 0;
  if (rack.has("memory_pools")) {
    core::ParamReader pools = rack.part("memory_pools");
    pool_model = binder.memory_model(pools, "model");
    pools_per_rack = pools.get<int64_t>("count");
    pools.finish();
  }
  rack.finish();
  if (uint64_t(pods) * racks * units > (uint64_t(1) << 24))
    throw params.error("pods", "more than 2^24 units");
  if (uint64_t(pods) * racks * uint64_t(pools_per_rack) > (uint64_t(1) << 24))
    throw params.error("pods", "more than 2^24 memory pools");

  core::ParamReader out = params.part("scale_out");
  const uint32_t nic_link = binder.link_model(out, "nic_link");
  const uint32_t tor_switch = binder.optional_switch_model(out, "tor_switch");
  const double oversubscription = out.get<double>("oversubscription");
  out.finish();

  std::vector<NodeId> spines;
  for (uint32_t p = 0; p < pods; ++p) {
    NodeId spine = topo.add_switch("pod" + std::to_string(p) + "-spine");
    spines.push_back(spine);
    for (uint32_t r = 0; r < racks; ++r) {
      std::string prefix = "pod" + std::to_string(p) + "-rack" + std::to_string(r);
      NodeId up = topo.add_switch(prefix + "-scale-up", scale_up_switch);
      NodeId tor = topo.add_switch(prefix + "-tor", tor_switch);
      for (uint32_t u = 0; u < units; ++u) {
        NodeId unit = topo.add_unit(prefix + "-unit" + std::to_string(u), unit_model);
        topo.add_link(unit, up, scale_up_link);
        topo.add_link(unit, tor, nic_link);
      }
      for (int64_t m = 0; m < pools_per_rack; ++m)
        add_memory_pool(machine, prefix + "-pool" + std::to_string(m), pool_model, up);
      topo.add_link(tor, spine, nic_link, double(units) / oversubscription);
    }
  }

  if (params.has("optical_core")) {
    core::ParamReader core_json = params.part("optical_core");
    const uint32_t ocs_model = binder.optical_switch_model(core_json, "model");
    const auto switches = static_cast<uint32_t>(core_json.get<int64_t>("switches"));
    const auto ports_per_pod = static_cast<uint32_t>(core_json.get<int64_t>("ports_per_pod"));
    core_json.finish();
    if (pods < 2 || pods % 2 != 0)
      throw params.error(
          "pods", "an optical core joins an even number of pods (at least 2), got " + std::to_string(pods));
    const uint32_t ports = machine.optical_switch_models[ocs_model].ports();
    if (uint64_t(pods) * ports_per_pod > ports)
      throw params.error("optical_core", std::to_string(pods) + " pods x " + std::to_string(ports_per_pod) +
                                             " ports need more than the " + std::to_string(ports) +
                                             " ports of optical switch model \"" +
                                             machine.optical_switch_models[ocs_model].name() + "\"");
    const uint32_t circuit_link = binder.circuit_link_model(ocs_model);
    std::vector<uint32_t> component(pods);  // pods joined by the initial circuits (union-find)
    for (uint32_t p = 0; p < pods; ++p) component[p] = p;
    auto root = [&](uint32_t p) {
      while (component[p] != p) p = component[p] = component[component[p]];
      return p;
    };
    for (uint32_t k = 0; k < switches; ++k) {
      std::vector<NodeId> port_nodes;
      for (uint32_t p = 0; p < pods; ++p) port_nodes.insert(port_nodes.end(), ports_per_pod, spines[p]);
      uint32_t ocs = topo.add_optical_switch("ocs" + std::to_string(k), ocs_model, std::move(port_nodes));
      for (auto [a, b] : tournament_round(pods, k % (pods - 1))) {
        topo.add_circuit(ocs, a * ports_per_pod, b * ports_per_pod, circuit_link, true,
                         double(ports_per_pod));
        component[root(a)] = root(b);
      }
    }
    for (uint32_t p = 1; p < pods; ++p)
      if (root(p) != root(0))
        throw params.error("optical_core", "the initial circuits of " + std::to_string(switches) +
                                               " optical switch(es) leave pod " + std::to_string(p) +
                                               " unreachable from pod 0; give more switches (pods - 1 = " +
                                               std::to_string(pods - 1) + " join every pair directly)");
  } else {
    if (pods > 1) throw params.error("pods", "several pods need an \"optical_core\" to join them");
  }
  check_switch_radix(machine, params, "rack");
}

}  // namespace zs::topology
