// One simulated iteration and its headline figures.
#include "engine/simulation.hpp"

#include <cstdio>
#include <optional>
#include <variant>

#include "core/input_error.hpp"
#include "engine/collapsed/rank_collapse.hpp"
#include "engine/replayer.hpp"

namespace zs::engine {

namespace {

/// kAuto resolved by exact fidelity's estimated work (`reason` says why); exact fidelity beyond its
/// rank-op limit refused.
Fidelity resolved_fidelity(const workload::Trace& trace, Fidelity fidelity, std::string* reason = nullptr) {
  const ExactWork work = estimate_exact_work(trace);
  const double ops = work.rank_ops;
  if (trace.has_explicit_groups()) {
    // Collapsed fidelity merges ranks by their mesh coordinates: listed groups have none.
    std::string listed;
    for (const auto& c : trace.communicators)
      if (!c.groups.empty()) listed += (listed.empty() ? "\"" : ", \"") + c.name + "\"";
    if (fidelity == Fidelity::kCollapsed)
      throw workload::trace_error(trace, "",
                                  "collapsed fidelity needs communicators over mesh axes, and " + listed +
                                      " list their groups (process groups that are not the axes of a mesh): "
                                      "use fidelity \"exact\" (or \"auto\")");
    if (fidelity == Fidelity::kAuto) {
      fidelity = Fidelity::kExact;
      if (reason != nullptr)
        *reason = "auto: communicators " + listed +
                  " list their groups, which only exact fidelity replays (collapsed needs a mesh)";
    }
  }
  if (fidelity == Fidelity::kAuto) {
    const bool collapsed = !within_exact_limits(work);
    fidelity = collapsed ? Fidelity::kCollapsed : Fidelity::kExact;
    if (reason != nullptr) *reason = auto_fidelity_reason(work, collapsed);
  }
  if (fidelity == Fidelity::kExact && ops > kExactRankOpLimit) {
    char what[256];
    std::snprintf(what, sizeof what,
                  "exact fidelity would replay %.3g rank-ops (%llu ranks); its limit is %.3g: use fidelity "
                  "\"collapsed\" (or \"auto\")",
                  ops, static_cast<unsigned long long>(trace.mesh.size()), kExactRankOpLimit);
    throw workload::trace_error(trace, "", what);
  }
  return fidelity;
}

}  // namespace

SimulationResult simulate(const topology::Machine& machine, const workload::Trace& trace,
                          const policy::PlacementPolicy& placement,
                          const policy::CollectivePolicy& collective, const SimulationEvents& events,
                          Fidelity fidelity) {
  resolved_fidelity(trace, fidelity);  // refused before placing: a refused size costs no placement
  return simulate(machine, trace, placement.place({trace, machine, events.seed}), placement.name(),
                  collective, events, fidelity);
}

SimulationResult simulate(const topology::Machine& machine, const workload::Trace& trace,
                          const policy::Placement& where, std::string_view placement_policy,
                          const policy::CollectivePolicy& collective, const SimulationEvents& events,
                          Fidelity fidelity) {
  SimulationResult out;
  fidelity = resolved_fidelity(trace, fidelity, &out.fidelity_reason);
  out.placement_policy = std::string(placement_policy);
  out.collective_policy = std::string(collective.name());
  out.placement_layout = where.layout;
  std::optional<RankCollapse> collapse;
  if (fidelity == Fidelity::kCollapsed) {
    collapse.emplace(trace);
    // Nothing to merge (only within exact's limits): the representatives would be every rank, and
    // only the network would differ from exact fidelity (analytic charges instead of flows). Run exact:
    // it is the reference, and on moe-ep-64 it is also faster (3.6-4.5 s against 7.6 s on 2 cores).
    if (collapse->every_rank_for_routing()) {
      collapse.reset();
      out.collapsed_ran_exact = true;
    }
  }
  out.replay = Replayer(machine, trace, where, collective, events.circuit_reconfigurations,
                        collapse ? &*collapse : nullptr, events.record_timeline, events.progress)
                   .run();
  for (auto unit : where.unit_of_rank) {
    const auto& model = machine.unit_model(unit);
    if (model.supports(trace.model_dtype)) out.peak += model.matrix_peak(trace.model_dtype);
  }
  out.model_flops = trace.model_flops;
  const double t = out.replay.iteration_time.value();
  for (const auto& role : trace.roles)
    for (const auto& op : role.ops)
      if (const auto* c = std::get_if<workload::ComputeOp>(&op.body); c && c->kind == core::WorkKind::kMatrix)
        out.hardware_flops += c->flops * double(trace.ranks_per_role());
  if (t > 0 && out.peak.value() > 0) {
    out.mfu = trace.model_flops.value() / (t * out.peak.value());
    out.hfu = out.hardware_flops.value() / (t * out.peak.value());
  }
  if (t > 0) out.tokens_per_second = trace.tokens_per_iteration / t;
  // Collapsed: each representative's compute counts for the ranks it stands for (their units are of
  // the same model when the machine is homogeneous; otherwise this is approximate).
  core::Joules compute_above_idle;
  for (const auto& rank : out.replay.ranks) {
    const auto& model = machine.unit_model(where.unit_of_rank[rank.rank]);
    compute_above_idle += (model.load_power() - model.idle_power()) * rank.compute * double(rank.stands_for);
  }
  out.power = topology::machine_power(machine);
  out.energy = topology::machine_energy(out.power, out.replay.iteration_time, compute_above_idle);
  if (t > 0) out.average_power = core::Watts(out.energy.total().value() / t);
  if (t > 0) out.utilization = utilization_of(machine, out.replay);
  return out;
}

}  // namespace zs::engine
