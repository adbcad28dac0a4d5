// One simulated iteration and its headline figures.
#include "engine/simulation.hpp"

#include "engine/replayer.hpp"

#include <algorithm>
#include <cstdio>

#include "core/input_error.hpp"

namespace zs::engine {

namespace {

Utilization utilization_of(const topology::Machine& machine, const ReplayResult& r) {
  Utilization u;
  const double t = r.iteration_time.value();
  u.compute_min = 1.0;
  for (size_t rank = 0; rank < r.ranks.size(); ++rank) {
    const double c = r.ranks[rank].compute.value() / t;
    u.compute_mean += c / double(r.ranks.size());
    u.compute_max = std::max(u.compute_max, c);
    if (c < u.compute_min) {
      u.compute_min = c;
      u.compute_min_rank = rank;
    }
  }
  const auto& topo = machine.topology;
  std::vector<double> pool_bytes(topo.nodes().size(), 0.0);
  for (size_t d = 0; d < r.link_bytes.size(); ++d) {
    if (r.link_bytes[d] <= 0) continue;
    const auto& link = topo.links()[d / 2];
    const double busy = r.link_bytes[d] / (machine.link_bandwidth(topology::LinkId(d / 2)).value() * t);
    ++u.links_active;
    u.link_mean_active += busy;
    if (busy > 0.5) ++u.links_over_half;
    const auto from = d % 2 == 0 ? link.a : link.b, to = d % 2 == 0 ? link.b : link.a;
    if (busy > u.link_max) {
      u.link_max = busy;
      u.link_max_name = topo.node(from).name + " -> " + topo.node(to).name;
    }
    for (auto end : {from, to})
      if (topo.node(end).kind == topology::NodeKind::kMemory) pool_bytes[end] += r.link_bytes[d];
  }
  if (u.links_active > 0) u.link_mean_active /= double(u.links_active);
  for (auto pool : topo.memories())
    if (pool_bytes[pool] > 0)
      u.pool_max =
          std::max(u.pool_max, pool_bytes[pool] / (machine.memory_model(pool).bandwidth().value() * t));
  return u;
}

}  // namespace

double rank_ops(const workload::Trace& trace) {
  std::vector<double> ranks_of_role(trace.roles.size(), 0.0);
  if (trace.role_axis.empty()) {
    ranks_of_role[0] = double(trace.mesh.size());
  } else {
    const auto axis = *trace.mesh.axis_index(trace.role_axis);
    for (auto& n : ranks_of_role) n = double(trace.mesh.size()) / trace.mesh.axes()[axis].size;
  }
  double total = 0;
  for (size_t r = 0; r < trace.roles.size(); ++r)
    total += ranks_of_role[r] * double(trace.roles[r].ops.size());
  return total;
}

SimulationResult simulate(const topology::Machine& machine, const workload::Trace& trace,
                          const policy::PlacementPolicy& placement,
                          const policy::CollectivePolicy& collective, const SimulationEvents& events) {
  if (const double ops = rank_ops(trace); ops > kExactRankOpLimit) {
    char what[256];
    std::snprintf(what, sizeof what,
                  "exact fidelity would replay %.3g rank-ops (%llu ranks); its limit is %.3g, and collapsed "
                  "fidelity (symmetric ranks merged) is not implemented yet",
                  ops, static_cast<unsigned long long>(trace.mesh.size()), kExactRankOpLimit);
    throw core::InputError(trace.name, "", what);
  }
  SimulationResult out;
  out.placement_policy = std::string(placement.name());
  out.collective_policy = std::string(collective.name());
  policy::Placement where = placement.place({trace, machine, events.seed});
  out.replay = Replayer(machine, trace, where, collective, events.circuit_reconfigurations).run();
  for (auto unit : where.unit_of_rank) {
    const auto& model = machine.unit_model(unit);
    if (model.supports(trace.model_dtype)) out.peak += model.matrix_peak(trace.model_dtype);
  }
  out.model_flops = trace.model_flops;
  const double t = out.replay.iteration_time.value();
  if (t > 0 && out.peak.value() > 0) out.mfu = trace.model_flops.value() / (t * out.peak.value());
  if (t > 0) out.tokens_per_second = trace.tokens_per_iteration / t;
  for (size_t r = 0; r < where.unit_of_rank.size(); ++r)
    out.energy += machine.unit_model(where.unit_of_rank[r])
                      .energy(out.replay.iteration_time, out.replay.ranks[r].compute);
  if (t > 0) out.average_power = core::Watts(out.energy.value() / t);
  if (t > 0) out.utilization = utilization_of(machine, out.replay);
  return out;
}

}  // namespace zs::engine
