// Component instances of a job from its rate table, its machine and its placement.
#include "reliability/job_components.hpp"

#include <map>
#include <stdexcept>

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
    std::map<topology::NodeId, std::vector<uint64_t>> by_switch;  // ordered by node id: deterministic
    for (uint64_t r = 0; r < unit_of_rank.size(); ++r) {
      const auto unit = unit_of_rank[r];
      if (comp.per == "rack") {
        if (const auto sw = topology::domain_switch(machine, unit)) by_switch[*sw].push_back(r);
        continue;
      }
      for (auto [node, link] : topo.neighbours(unit))
        if (topo.node(node).kind == topology::NodeKind::kSwitch) {
          auto& list = by_switch[node];
          if (list.empty() || list.back() != r) list.push_back(r);
        }
    }
    for (auto& [sw, list] : by_switch) {
      domains_[c].names.push_back(topo.node(sw).name);
      domains_[c].ranks.push_back(std::move(list));
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
