// Component instances of a job from its rate table, its machine and its placement.
#include "reliability/job_components.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "topology/unit_domains.hpp"

namespace zs::reliability {
namespace {

/// Every instance of a topology domain on the machine, each with all its units (the job's and idle ones).
struct MachineDomains {
  std::vector<std::string> names;
  std::vector<std::vector<topology::NodeId>> units;
};

/// Power domains as declared; racks and switches keyed by their switch, in node-id order (deterministic).
MachineDomains domains_on_machine(const std::string& per, const topology::Machine& machine) {
  MachineDomains out;
  if (per == "power-domain") {
    for (const auto& d : machine.power_domains) {
      out.names.push_back(d.name);
      out.units.push_back(d.units);
    }
    return out;
  }
  const auto& topo = machine.topology;
  std::map<topology::NodeId, std::vector<topology::NodeId>> units_of;
  for (auto unit : topo.units()) {
    if (per == "rack") {
      if (const auto sw = topology::domain_switch(machine, unit)) units_of[*sw].push_back(unit);
      continue;
    }
    for (auto [node, link] : topo.neighbours(unit))
      if (topo.node(node).kind == topology::NodeKind::kSwitch) {
        auto& list = units_of[node];
        if (list.empty() || list.back() != unit) list.push_back(unit);
      }
  }
  for (auto& [sw, list] : units_of) {
    out.names.push_back(topo.node(sw).name);
    out.units.push_back(std::move(list));
  }
  return out;
}

}  // namespace

JobComponents::JobComponents(const policy::FailureRates& rates, uint64_t ranks)
    : rates_(rates), ranks_(ranks), domains_(rates.components.size()) {
  for (const auto& c : rates.components)
    if (c.topology_domain())
      throw std::invalid_argument("component \"" + c.name + "\" is per " + c.per +
                                  ", which needs the machine's topology");
}

JobComponents::JobComponents(const policy::FailureRates& rates, const topology::Machine& machine,
                             const std::vector<topology::NodeId>& unit_of_rank)
    : rates_(rates), ranks_(unit_of_rank.size()), domains_(rates.components.size()) {
  const auto& topo = machine.topology;
  for (auto unit : unit_of_rank) unit_names_.push_back(topo.node(unit).name);
  std::unordered_map<topology::NodeId, std::vector<uint64_t>> ranks_of_unit;
  for (uint64_t r = 0; r < unit_of_rank.size(); ++r) ranks_of_unit[unit_of_rank[r]].push_back(r);
  for (size_t c = 0; c < rates.components.size(); ++c) {
    const auto& comp = rates.components[c];
    if (!comp.topology_domain()) continue;
    const auto all = domains_on_machine(comp.per, machine);
    for (size_t d = 0; d < all.units.size(); ++d) {
      std::vector<uint64_t> ranks;
      const auto& units = all.units[d];
      for (auto unit : units)
        if (auto it = ranks_of_unit.find(unit); it != ranks_of_unit.end())
          ranks.insert(ranks.end(), it->second.begin(), it->second.end());
      if (ranks.empty()) continue;  // no job unit behind it: not an instance of the job
      std::sort(ranks.begin(), ranks.end());
      domains_[c].names.push_back(all.names[d]);
      domains_[c].ranks.push_back(std::move(ranks));
      domains_[c].units.push_back(units);
    }
  }
}

uint64_t JobComponents::instances(uint32_t c) const {
  const auto& comp = rates_.components.at(c);
  return comp.topology_domain() ? domains_[c].ranks.size() : rates_.instances(comp, ranks_);
}

uint64_t JobComponents::units_taken(uint32_t c, uint64_t instance) const {
  const auto& comp = rates_.components.at(c);
  if (comp.topology_domain()) return domains_[c].ranks.at(instance).size();
  if (comp.per == "host")
    return std::min<uint64_t>(rates_.units_per_host, ranks_ - instance * rates_.units_per_host);
  return rates_.units_taken(comp, ranks_);
}

std::vector<uint64_t> JobComponents::ranks_taken(uint32_t c, uint64_t instance) const {
  const auto& comp = rates_.components.at(c);
  if (comp.topology_domain()) return domains_[c].ranks.at(instance);
  uint64_t first = 0, count = ranks_;
  if (comp.per == "unit") first = instance, count = 1;
  if (comp.per == "host") first = instance * rates_.units_per_host, count = units_taken(c, instance);
  std::vector<uint64_t> out(count);
  for (uint64_t i = 0; i < count; ++i) out[i] = first + i;
  return out;
}

std::vector<topology::NodeId> JobComponents::units_down(uint32_t c, uint64_t instance) const {
  if (!rates_.components.at(c).topology_domain()) return {};
  return domains_[c].units.at(instance);
}

std::string JobComponents::instance_name(uint32_t c, uint64_t instance) const {
  const auto& comp = rates_.components.at(c);
  if (comp.topology_domain()) return domains_[c].names.at(instance);
  if (comp.per == "unit")
    return unit_names_.empty() ? "unit" + std::to_string(instance) : unit_names_.at(instance);
  if (comp.per == "host") return "host" + std::to_string(instance);
  return "job";
}

std::optional<uint64_t> JobComponents::find_instance(uint32_t c, const std::string& name) const {
  const auto& comp = rates_.components.at(c);
  if (comp.topology_domain()) {
    for (uint64_t i = 0; i < domains_[c].names.size(); ++i)
      if (domains_[c].names[i] == name) return i;
    return std::nullopt;
  }
  for (uint64_t i = 0, n = instances(c); i < n; ++i)
    if (instance_name(c, i) == name) return i;
  return std::nullopt;
}

double JobComponents::rate_per_hour() const {
  double total = 0;
  for (uint32_t c = 0; c < rates_.components.size(); ++c)
    total += static_cast<double>(instances(c)) * rates_.components[c].rate_per_hour;
  return total;
}

}  // namespace zs::reliability
