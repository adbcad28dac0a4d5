// Checks before replay that every role fits the unit running it and every pool what its ranks keep.
#include "policy/placement/trace_fit.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <utility>
#include <variant>

#include "core/input_error.hpp"
#include "workload/pool_residency.hpp"

namespace zs::policy {
namespace {

/// Every memory pool must hold what the ranks using it keep there (workload::pool_resident_bytes).
void check_pools_hold(const topology::Machine& machine, const workload::Trace& trace,
                      const policy::Placement& placement) {
  if (placement.pool_of_rank.empty()) return;
  const auto kept_by_role = workload::pool_resident_bytes_by_role(trace);
  std::map<topology::NodeId, std::pair<double, uint64_t>> kept;  // per pool: bytes, ranks keeping any
  for (uint64_t r = 0; r < placement.pool_of_rank.size(); ++r)
    if (const double b = kept_by_role[trace.role_of(r)]; b > 0) {
      auto& k = kept[placement.pool_of_rank[r]];
      k.first += b;
      ++k.second;
    }
  for (const auto& [pool, k] : kept) {
    const auto& model = machine.memory_model(pool);
    if (k.first > model.capacity().value())
      throw workload::trace_error(trace, "/roles",
                                  "capacity: memory pool \"" + machine.topology.node(pool).name + "\" (a \"" +
                                      model.name() + "\") holds " + core::to_string(model.capacity()) +
                                      ", but the " + std::to_string(k.second) + " ranks using it keep " +
                                      core::to_string(core::Bytes(k.first)) +
                                      " there (the larger of what each writes and reads back per iteration)");
  }
}

}  // namespace

void check_trace_fits(const topology::Machine& machine, const workload::Trace& trace,
                      const policy::Placement& placement) {
  const uint64_t ranks = trace.mesh.size();
  if (placement.unit_of_rank.size() != ranks)
    throw std::logic_error("placement size does not match the mesh");
  // Every dtype the trace computes in must be supported by the unit that runs it, memory moves need a
  // pool, and each role's footprint must fit. Checked once per (role, unit model).
  std::set<std::pair<uint32_t, uint32_t>> checked;
  for (uint64_t r = 0; r < ranks; ++r) {
    const uint32_t role = trace.role_of(r);
    if (!checked.insert({role, machine.topology.node(placement.unit_of_rank[r]).model}).second) continue;
    const auto& program = trace.roles[role];
    const auto& model = machine.unit_model(placement.unit_of_rank[r]);
    const auto& ops = program.ops;
    if (const auto& f = program.memory; f && f->total() > model.hbm_capacity()) {
      auto in_capacity_unit = [&](core::Bytes b) { return core::display_in(b, model.hbm_capacity()); };
      throw workload::trace_error(
          trace, "/roles/" + std::to_string(role) + "/memory",
          "capacity: role \"" + program.name + "\" needs " + in_capacity_unit(f->total()) +
              " per rank (weights " + in_capacity_unit(f->weights) + ", gradients " +
              in_capacity_unit(f->gradients) + ", optimizer " + in_capacity_unit(f->optimizer) +
              ", activations " + in_capacity_unit(f->activations) + ", buffers " +
              in_capacity_unit(f->buffers) + "), but a \"" + model.name() + "\" (rank " + std::to_string(r) +
              ") has " + in_capacity_unit(model.hbm_capacity()));
    }
    for (size_t i = 0; i < ops.size(); ++i) {
      const std::string where = op_path(role, i);
      if (std::holds_alternative<workload::MemoryOp>(ops[i].body) && placement.pool_of_rank.size() != ranks)
        throw workload::trace_error(trace, where,
                                    "a memory move, but machine \"" + machine.name + "\" has no memory pool",
                                    trace.memory_moves_key);
      const auto* c = std::get_if<workload::ComputeOp>(&ops[i].body);
      if (c == nullptr) continue;
      if (c->kind == core::WorkKind::kMatrix && !model.supports(c->dtype))
        throw workload::trace_error(trace, where + "/dtype",
                                    "rank " + std::to_string(r) + " runs on a \"" + model.name() +
                                        "\", which has no matrix peak for " +
                                        std::string(core::to_string(c->dtype)));
      if (c->memory > model.hbm_capacity())
        throw workload::trace_error(trace, where + "/memory",
                                    "capacity: op \"" + ops[i].name + "\" needs " +
                                        core::to_string(c->memory) + " of HBM, but a \"" + model.name() +
                                        "\" (rank " + std::to_string(r) + ") has " +
                                        core::to_string(model.hbm_capacity()));
    }
  }
  check_pools_hold(machine, trace, placement);
}

}  // namespace zs::policy
