// Component instances of a job from its rate table, its machine and its placement.
#include "reliability/job_components.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "reliability/fabric_parts.hpp"
#include "reliability/pool_fallback.hpp"
#include "topology/unit_domains.hpp"

namespace zs::reliability {
namespace {

/// Every instance of a topology domain on the machine, each with all its units (the job's and idle ones).
struct MachineDomains {
  std::vector<std::string> names;
  std::vector<std::vector<topology::NodeId>> units;
};

/// Power domains as declared; racks and switches keyed by their switch, in node-id order (deterministic).
MachineDomains domains_on_machine(FailureScope per, const topology::Machine& machine) {
  MachineDomains out;
  if (per == FailureScope::kPowerDomain) {
    for (const auto& d : machine.power_domains) {
      out.names.push_back(d.name);
      out.units.push_back(d.units);
    }
    return out;
  }
  const auto& topo = machine.topology;
  std::map<topology::NodeId, std::vector<topology::NodeId>> units_of;
  for (auto unit : topo.units()) {
    if (per == FailureScope::kRack) {
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

JobComponents::JobComponents(const FailureRates& rates, uint64_t ranks)
    : rates_(rates), ranks_(ranks), domains_(rates.components.size()), fabric_(rates.components.size()) {
  for (const auto& c : rates.components)
    if (c.needs_machine())
      throw std::invalid_argument("component \"" + c.name + "\" is per " + std::string(to_string(c.per)) +
                                  ", which needs the machine's topology");
}

JobComponents::JobComponents(const FailureRates& rates, const topology::Machine& machine,
                             const std::vector<topology::NodeId>& unit_of_rank, FabricUse fabric)
    : rates_(rates),
      machine_(&machine),
      ranks_(unit_of_rank.size()),
      unit_of_rank_(unit_of_rank),
      pool_of_rank_(std::move(fabric.pool_of_rank)),
      pool_bytes_of_rank_(std::move(fabric.pool_bytes_of_rank)),
      domains_(rates.components.size()),
      fabric_(rates.components.size()) {
  const auto& topo = machine.topology;
  for (auto unit : unit_of_rank) unit_names_.push_back(topo.node(unit).name);
  std::unordered_map<topology::NodeId, std::vector<uint64_t>> ranks_of_unit;
  for (uint64_t r = 0; r < unit_of_rank.size(); ++r) ranks_of_unit[unit_of_rank[r]].push_back(r);
  std::vector<char> used = std::move(fabric.links);
  if (used.empty())
    for (topology::LinkId l = 0; l < topo.links().size(); ++l)
      used.push_back(topo.active_at_start(l) ? 1 : 0);
  bool any_fabric = false;
  for (uint32_t c = 0; c < rates.components.size(); ++c) {
    if (rates.components[c].per == FailureScope::kLink) add_links(c, used);
    if (rates.components[c].per == FailureScope::kOpticalPort) add_ports(c, used);
    any_fabric = any_fabric || rates.components[c].fabric();
  }
  if (any_fabric) link_class_ = link_classes(machine, unit_of_rank, fabric.class_of_rank);
  if (!pool_of_rank_.empty() && pool_bytes_of_rank_.size() != pool_of_rank_.size())
    throw std::invalid_argument("pool_bytes_of_rank must give every rank's bytes with pool_of_rank");
  for (uint64_t r = 0; r < pool_of_rank_.size(); ++r)
    if (pool_bytes_of_rank_[r] > 0) pools_.push_back(pool_of_rank_[r]);
  std::sort(pools_.begin(), pools_.end());
  pools_.erase(std::unique(pools_.begin(), pools_.end()), pools_.end());
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

void JobComponents::add_links(uint32_t c, const std::vector<char>& used) {
  const auto& topo = machine_->topology;
  auto& f = fabric_[c];
  f.first.push_back(0);
  for (topology::LinkId l = 0; l < topo.links().size(); ++l) {
    if (!used.at(l) || to_memory_pool(topo, l)) continue;
    f.links.push_back(l);
    f.first.push_back(f.first.back() + cables_of(topo.link(l).width));
  }
}

void JobComponents::add_ports(uint32_t c, const std::vector<char>& used) {
  const auto& topo = machine_->topology;
  auto& f = fabric_[c];
  std::vector<std::vector<char>> busy;  // per switch, per port: carries a circuit at the start
  for (const auto& ocs : topo.optical_switches()) busy.emplace_back(ocs.port_nodes.size(), 0);
  for (const auto& circuit : topo.circuits()) {
    if (!circuit.active_at_start) continue;
    const uint64_t n = cables_of(topo.link(circuit.link).width);
    for (uint64_t k = 0; k < n; ++k)
      for (uint64_t port : {circuit.port_a + k, circuit.port_b + k})
        if (port < busy[circuit.optical_switch].size()) busy[circuit.optical_switch][port] = 1;
  }
  std::map<std::pair<uint32_t, topology::NodeId>, uint32_t> group_of;  // (switch, node) -> spare group
  auto group = [&](uint32_t ocs, uint32_t port) {
    const auto key = std::make_pair(ocs, topo.optical_switches()[ocs].port_nodes[port]);
    auto [it, fresh] = group_of.try_emplace(key, static_cast<uint32_t>(spare_ports_.size()));
    if (fresh) spare_ports_.push_back(0);
    return it->second;
  };
  for (const auto& circuit : topo.circuits()) {
    if (!circuit.active_at_start || !used.at(circuit.link)) continue;
    const uint64_t n = cables_of(topo.link(circuit.link).width);
    const auto ports = topo.optical_switches()[circuit.optical_switch].port_nodes.size();
    for (uint32_t end : {circuit.port_a, circuit.port_b})
      for (uint64_t k = 0; k < n && end + k < ports; ++k) {
        const auto port = static_cast<uint32_t>(end + k);
        const auto& model =
            machine_->optical_switch_models.at(topo.optical_switches()[circuit.optical_switch].model);
        f.ports.push_back({circuit.optical_switch, port, circuit.link, group(circuit.optical_switch, port),
                           model.reconfiguration_time().value()});
      }
  }
  for (uint32_t o = 0; o < busy.size(); ++o)
    for (uint32_t p = 0; p < busy[o].size(); ++p)
      if (!busy[o][p])
        if (auto it = group_of.find({o, topo.optical_switches()[o].port_nodes[p]}); it != group_of.end())
          ++spare_ports_[it->second];
}

uint64_t JobComponents::instances(uint32_t c) const {
  const auto& comp = rates_.components.at(c);
  if (comp.per == FailureScope::kLink) return fabric_[c].first.empty() ? 0 : fabric_[c].first.back();
  if (comp.per == FailureScope::kOpticalPort) return fabric_[c].ports.size();
  if (comp.memory_pool()) return pools_.size();
  return comp.topology_domain() ? domains_[c].ranks.size() : rates_.instances(comp, ranks_);
}

topology::LinkId JobComponents::fabric_link(uint32_t c, uint64_t instance) const {
  const auto& f = fabric_.at(c);
  if (rates_.components.at(c).per == FailureScope::kOpticalPort) return f.ports.at(instance).link;
  if (instance >= instances(c)) throw std::out_of_range("no such link instance");
  const auto at = std::upper_bound(f.first.begin(), f.first.end(), instance) - f.first.begin() - 1;
  return f.links.at(static_cast<size_t>(at));
}

double JobComponents::fabric_share(uint32_t c, uint64_t instance) const {
  return 1.0 / static_cast<double>(cables_of(machine_->topology.link(fabric_link(c, instance)).width));
}

const JobComponents::OpticalPort& JobComponents::optical_port(uint32_t c, uint64_t instance) const {
  return fabric_.at(c).ports.at(instance);
}

CutOff JobComponents::cut_off(const std::vector<topology::LinkId>& down,
                              const std::vector<topology::NodeId>& unit_of_rank) const {
  return reliability::cut_off(*machine_, down, unit_of_rank, pool_of_rank_);
}

std::optional<std::vector<topology::NodeId>> JobComponents::pools_without(
    const std::vector<topology::NodeId>& down) const {
  return reliability::pools_without(*machine_, pool_of_rank_, pool_bytes_of_rank_, down);
}

uint64_t JobComponents::units_taken(uint32_t c, uint64_t instance) const {
  const auto& comp = rates_.components.at(c);
  if (comp.fabric() || comp.memory_pool()) return 0;
  if (comp.topology_domain()) return domains_[c].ranks.at(instance).size();
  if (comp.per == FailureScope::kHost)
    return std::min<uint64_t>(rates_.units_per_host, ranks_ - instance * rates_.units_per_host);
  return rates_.units_taken(comp, ranks_);
}

std::vector<uint64_t> JobComponents::ranks_taken(uint32_t c, uint64_t instance) const {
  const auto& comp = rates_.components.at(c);
  if (comp.topology_domain()) return domains_[c].ranks.at(instance);
  if (comp.fabric() || comp.memory_pool()) return {};
  uint64_t first = 0, count = ranks_;
  if (comp.per == FailureScope::kUnit) first = instance, count = 1;
  if (comp.per == FailureScope::kHost)
    first = instance * rates_.units_per_host, count = units_taken(c, instance);
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
  if (comp.memory_pool()) return machine_->topology.node(pools_.at(instance)).name;
  if (comp.per == FailureScope::kOpticalPort) {
    const auto& p = fabric_[c].ports.at(instance);
    return machine_->topology.optical_switches()[p.optical_switch].name + ":" + std::to_string(p.port);
  }
  if (comp.per == FailureScope::kLink) {
    const auto& topo = machine_->topology;
    const auto l = fabric_link(c, instance);
    const auto at = std::upper_bound(fabric_[c].first.begin(), fabric_[c].first.end(), instance) -
                    fabric_[c].first.begin() - 1;
    const uint64_t cable = instance - fabric_[c].first[static_cast<size_t>(at)];
    return topo.node(topo.link(l).a).name + " - " + topo.node(topo.link(l).b).name +
           (cable > 0 ? " #" + std::to_string(cable) : "");
  }
  if (comp.per == FailureScope::kUnit)
    return unit_names_.empty() ? "unit" + std::to_string(instance) : unit_names_.at(instance);
  if (comp.per == FailureScope::kHost) return "host" + std::to_string(instance);
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
