// Component instances of a job from its rate table, its machine and its placement.
#include "reliability/job_components.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "topology/unit_domains.hpp"

namespace zs::reliability {

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
  for (size_t c = 0; c < rates.components.size(); ++c) {
    const auto& comp = rates.components[c];
    if (!comp.topology_domain()) continue;
    // Every unit of each domain (the job's and idle ones), keyed by the domain's switch or power domain.
    std::map<topology::NodeId, std::vector<topology::NodeId>> units_of;  // ordered by key: deterministic
    std::map<topology::NodeId, std::string> name_of;
    if (comp.per == "power-domain") {
      for (size_t d = 0; d < machine.power_domains.size(); ++d) {
        units_of[topology::NodeId(d)] = machine.power_domains[d].units;
        name_of[topology::NodeId(d)] = machine.power_domains[d].name;
      }
    } else {
      for (auto unit : topo.units()) {
        if (comp.per == "rack") {
          if (const auto sw = topology::domain_switch(machine, unit)) units_of[*sw].push_back(unit);
          continue;
        }
        for (auto [node, link] : topo.neighbours(unit))
          if (topo.node(node).kind == topology::NodeKind::kSwitch) {
            auto& list = units_of[node];
            if (list.empty() || list.back() != unit) list.push_back(unit);
          }
      }
      for (const auto& [sw, list] : units_of) name_of[sw] = topo.node(sw).name;
    }
    std::unordered_map<topology::NodeId, std::vector<uint64_t>> ranks_of_unit;
    for (uint64_t r = 0; r < unit_of_rank.size(); ++r) ranks_of_unit[unit_of_rank[r]].push_back(r);
    for (auto& [key, units] : units_of) {
      std::vector<uint64_t> ranks;
      for (auto unit : units)
        if (auto it = ranks_of_unit.find(unit); it != ranks_of_unit.end())
          ranks.insert(ranks.end(), it->second.begin(), it->second.end());
      if (ranks.empty()) continue;  // no job unit behind it: not an instance of the job
      std::sort(ranks.begin(), ranks.end());
      domains_[c].names.push_back(name_of[key]);
      domains_[c].ranks.push_back(std::move(ranks));
      domains_[c].units.push_back(std::move(units));
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
