// Power domains of a machine from its topology file.
#include "topology/power_domains.hpp"

#include <map>

#include "topology/unit_domains.hpp"

namespace zs::topology {

const core::ParamTable& power_domain_params() {
  static const core::ParamTable table(
      "topology.power-domains", "units that lose power together: whole racks, in the order of their units",
      {core::Param::integer("racks_per_domain", 1, int64_t(1) << 30,
                            "racks (units under one scale-up switch) per power domain")});
  return table;
}

void read_power_domains(core::ParamReader& topology, Machine& machine) {
  if (!topology.has("power_domains")) return;
  auto p = topology.part("power_domains");
  const auto racks_per_domain = static_cast<uint64_t>(p.get<int64_t>("racks_per_domain"));
  p.finish();
  // Racks in the order of their first unit in the listing.
  std::vector<std::vector<NodeId>> racks;
  std::map<NodeId, size_t> rack_of_switch;
  for (NodeId unit : machine.topology.units()) {
    const auto sw = domain_switch(machine, unit);
    if (!sw) {
      racks.push_back({unit});
      continue;
    }
    auto [it, fresh] = rack_of_switch.try_emplace(*sw, racks.size());
    if (fresh) racks.emplace_back();
    racks[it->second].push_back(unit);
  }
  machine.power_domains.clear();
  for (size_t r = 0; r < racks.size(); ++r) {
    if (r % racks_per_domain == 0)
      machine.power_domains.push_back({"power" + std::to_string(machine.power_domains.size()), {}});
    auto& units = machine.power_domains.back().units;
    units.insert(units.end(), racks[r].begin(), racks[r].end());
  }
}

}  // namespace zs::topology
