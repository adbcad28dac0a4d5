// Resolving a reliability section against the job.
#include "study/recovery_setup.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "core/input_error.hpp"
#include "study/scenario_simulation.hpp"
#include "workload/mesh_axes.hpp"

namespace zs::study {
namespace {

/// The link between two named nodes, if there is one.
std::optional<topology::LinkId> link_between(const topology::Machine& m, topology::NodeId a,
                                             topology::NodeId b) {
  for (auto [node, link] : m.topology.neighbours(a))
    if (node == b) return link;
  return std::nullopt;
}

/// Re-placement onto the units the job leaves idle (cfg: its ranks' classes).
std::shared_ptr<const reliability::RePlacementSetup> re_placement_setup(
    const SimulatedJob& held, const std::string& file, const reliability::GoodputConfig& cfg) {
  const scenario::Scenario& s = *held.scenario;
  const policy::Placement& placement = *held.placement;
  const auto& topo = s.machine.topology;
  if (topo.units().size() <= placement.unit_of_rank.size())
    throw core::InputError(file, "/reliability/spares/from",
                           "machine \"" + s.machine.name + "\" has " + std::to_string(topo.units().size()) +
                               " units and the job runs on all of them: no idle unit to re-place ranks onto");
  auto setup = std::make_shared<reliability::RePlacementSetup>();
  auto& rp = *setup;
  rp.machine = std::shared_ptr<const topology::Machine>(held.scenario, &s.machine);  // the scenario's, held
  rp.policy = held.placement_policy;
  rp.unit_of_rank = placement.unit_of_rank;
  rp.class_of_rank = cfg.class_of_rank;
  rp.reconfiguration = 0;
  for (const auto& ocs : topo.optical_switches())
    rp.reconfiguration = std::max(
        rp.reconfiguration, s.machine.optical_switch_models.at(ocs.model).reconfiguration_time().value());
  rp.displaced_iteration = [held](uint64_t rank, topology::NodeId unit) {
    auto units = held.placement->unit_of_rank;
    units.at(rank) = unit;
    return simulate_scenario(*held.scenario, policy::place_on_units(units, held.scenario->machine),
                             *held.policies)
        .replay.iteration_time.value();
  };
  return setup;
}

/// The scripted degradations of the reliability section, resolved against the job: a unit by the rank
/// running on it, a link by its two ends' names (names not in the job are input errors at their path).
void add_scripted_degradations(const scenario::Scenario& s, const std::string& file,
                               const policy::Placement& placement, reliability::GoodputConfig& cfg) {
  const auto& rel = *s.reliability;
  std::unordered_map<std::string, uint64_t> rank_of_unit_name;
  for (uint64_t r = 0; r < placement.unit_of_rank.size(); ++r)
    rank_of_unit_name.emplace(s.machine.topology.node(placement.unit_of_rank[r]).name, r);
  auto node_named = [&](const scenario::NamedAt& n) {
    for (topology::NodeId id = 0; id < s.machine.topology.nodes().size(); ++id)
      if (s.machine.topology.node(id).name == n.name) return id;
    throw core::InputError(file, n.path,
                           "machine \"" + s.machine.name + "\" has no node named \"" + n.name + "\"");
  };
  for (const auto& d : rel.degradations) {
    reliability::Degradation g{
        d.at.value(), d.duration.value(), reliability::Degradation::Kind::kUnit, 0, d.factor, ""};
    if (d.unit) {
      auto it = rank_of_unit_name.find(d.unit->name);
      if (it == rank_of_unit_name.end())
        throw core::InputError(file, d.unit->path,
                               "no rank of the job runs on a unit named \"" + d.unit->name + "\"");
      g.id = it->second;
      g.name = d.unit->name;
    } else {
      const auto a = node_named(d.link->first), b = node_named(d.link->second);
      const auto link = link_between(s.machine, a, b);
      if (!link)
        throw core::InputError(
            file, d.link->second.path,
            "no link joins \"" + d.link->first.name + "\" and \"" + d.link->second.name + "\"");
      g.kind = reliability::Degradation::Kind::kLink;
      g.id = *link;
      g.name = d.link->first.name + " - " + d.link->second.name;
    }
    cfg.degradations.push_back(std::move(g));
  }
}

}  // namespace

reliability::DegradedIterations::Simulate degraded_iteration_simulator(const SimulatedJob& held) {
  return [held](const std::vector<const reliability::Degradation*>& active) {
    const scenario::Scenario& s = *held.scenario;
    const policy::Placement& placement = *held.placement;
    const reliability::JobComponents& job = *held.components;
    const policy::PolicyCatalog& policies = *held.policies;
    using Kind = reliability::Degradation::Kind;
    scenario::Scenario degraded = s;
    auto derate = [&](topology::LinkId link, double factor) {
      auto [it, fresh] = degraded.machine.link_derating.try_emplace(link, factor);
      if (!fresh) it->second = std::min(it->second, factor);
    };
    std::map<topology::LinkId, double> lost;  // outages: share of each link out of service
    std::vector<topology::NodeId> pools_down;
    for (const auto* d : active) {
      if (d->kind == Kind::kPool) {
        pools_down.push_back(topology::NodeId(d->id));
      } else if (d->kind == Kind::kUnit) {
        auto& f = degraded.machine.unit_slowdown[placement.unit_of_rank.at(d->id)];
        f = std::max(f, d->factor);
      } else if (d->kind == Kind::kLink) {
        derate(topology::LinkId(d->id), d->factor);
      } else {
        lost[topology::LinkId(d->id)] += d->factor;
      }
    }
    for (auto [link, share] : lost) {
      if (share >= 1 - 1e-9)
        degraded.machine.links_down.insert(link);
      else
        derate(link, 1 - share);
    }
    // Ranks stay where they are: routes change, and the data of a failed pool's ranks moves.
    policy::Placement same = policy::place_on_units(placement.unit_of_rank, s.machine);
    if (!pools_down.empty()) {
      const auto pools = job.pools_without(pools_down);
      if (!pools) throw std::logic_error("a degraded state with memory pools down that have no fallback");
      same.pool_of_rank = *pools;
    }
    return simulate_scenario(degraded, same, policies).replay.iteration_time.value();
  };
}

reliability::GoodputConfig recovery_config(const SimulatedJob& held, const std::string& file) {
  const scenario::Scenario& s = *held.scenario;
  const policy::Placement& placement = *held.placement;
  const auto& job = held.components;
  const auto& rel = *s.reliability;
  reliability::GoodputConfig cfg;
  for (const auto& c : rel.rates.components)
    if (c.per == reliability::FailureScope::kPowerDomain && s.machine.power_domains.empty())
      throw core::InputError(file, "/reliability/failure_rates",
                             "component \"" + c.name + "\" of " + rel.rates.file +
                                 " fails per power domain, but the topology of machine \"" + s.machine.name +
                                 "\" declares none (add \"power_domains\": {\"racks_per_domain\": K} to it)");
  cfg.detection = rel.detection;
  cfg.restart = rel.restart;
  cfg.spares = rel.spares;
  cfg.swap = rel.swap;
  cfg.repair = rel.repair;
  cfg.recovery = rel.recovery;
  if (rel.recovery->may_shrink()) {
    const auto& axes = s.trace.mesh.axes();
    auto dp = std::find_if(axes.begin(), axes.end(),
                           [](const auto& a) { return a.name == workload::axis_names::kData; });
    if (dp == axes.end() || dp->size < 2)
      throw core::InputError(file, "/reliability/recovery",
                             "recovery policy \"" + rel.recovery_name +
                                 "\" may shrink the job's data-parallel replicas, but the job has no \"dp\" "
                                 "axis of 2 or more");
    cfg.replicas = static_cast<uint32_t>(dp->size);
    const size_t dp_axis = static_cast<size_t>(dp - axes.begin());
    for (uint64_t r = 0; r < s.trace.mesh.size(); ++r)
      cfg.replica_of_rank.push_back(static_cast<uint32_t>(s.trace.mesh.coordinate(r, dp_axis)));
  }
  for (const auto& e : rel.events) {
    const auto instance = job->find_instance(e.component, e.instance.name);
    if (!instance)
      throw core::InputError(
          file, e.instance.path,
          "the job has no " + rel.rates.components[e.component].name + " named \"" + e.instance.name + "\"");
    cfg.scripted.push_back({e.at.value(), e.component, *instance, true});
  }
  add_scripted_degradations(s, file, placement, cfg);
  cfg.stragglers = {rel.straggler_rate_per_unit_hour, rel.straggler_slowdown, rel.straggler_duration.value()};
  for (uint64_t r = 0; r < s.trace.mesh.size(); ++r) cfg.class_of_rank.push_back(s.trace.role_of(r));
  if (rel.re_place) cfg.re_placement = re_placement_setup(held, file, cfg);
  cfg.job = job;
  return cfg;
}

}  // namespace zs::study
