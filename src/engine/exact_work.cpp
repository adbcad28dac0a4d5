// Exact fidelity's cost estimated from a trace: rank-ops, transfers and flows in flight.
#include "engine/exact_work.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

namespace zs::engine {
namespace {

/// Transfers each member of a group of `n` sends, and how many it has in flight at once.
std::pair<double, double> member_transfers(workload::CollectiveKind kind, double n) {
  using K = workload::CollectiveKind;
  if (n <= 1) return {0, 0};
  switch (kind) {
    case K::kAllReduce:
      return {2 * (n - 1), 1};
    case K::kReduceScatter:
    case K::kAllGather:
      return {n - 1, 1};
    case K::kAllToAll:
      return {n - 1, n - 1};
    case K::kBroadcast:
    case K::kReduce:
      return {1, 1};
  }
  return {0, 0};
}

}  // namespace

ExactWork estimate_exact_work(const workload::Trace& trace) {
  ExactWork work;
  const double ranks = double(trace.ranks_per_role());
  std::map<std::string, double> group_size;  // per communicator: its largest group
  auto size_of = [&](const std::string& name) {
    auto [it, added] = group_size.try_emplace(name, 1.0);
    if (added)
      if (const auto groups = trace.groups_of(name)) it->second = double(groups->largest());
    return it->second;
  };
  for (const auto& role : trace.roles) {
    work.rank_ops += double(role.ops.size()) * ranks;
    for (const auto& op : role.ops) {
      if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) {
        const double n = size_of(c->communicator);
        const auto [sends, in_flight] = member_transfers(c->kind, n);
        work.transfers += sends * ranks;
        work.peak_flows = std::max(work.peak_flows, in_flight * double(trace.mesh.size()));
      } else if (std::holds_alternative<workload::P2POp>(op.body)) {
        work.transfers += 0.5 * ranks;  // a send and its receive are one transfer
        work.peak_flows = std::max(work.peak_flows, double(trace.mesh.size()));
      } else if (std::holds_alternative<workload::MemoryOp>(op.body)) {
        work.transfers += ranks;
        work.peak_flows = std::max(work.peak_flows, double(trace.mesh.size()));
      }
    }
  }
  return work;
}

std::string auto_fidelity_reason(const ExactWork& work, bool collapsed) {
  char text[256];
  if (!collapsed)
    std::snprintf(text, sizeof text,
                  "auto: %.3g rank-ops and about %.3g activity scans, within exact fidelity's limits (%.3g, "
                  "%.3g)",
                  work.rank_ops, work.scans(), kExactRankOpLimit, kExactScanLimit);
  else if (work.rank_ops > kExactRankOpLimit)
    std::snprintf(text, sizeof text, "auto: %.3g rank-ops, beyond exact fidelity's %.3g", work.rank_ops,
                  kExactRankOpLimit);
  else
    std::snprintf(text, sizeof text,
                  "auto: about %.3g activity scans (%.3g transfers x %.3g flows in flight), beyond exact "
                  "fidelity's %.3g",
                  work.scans(), work.transfers, work.peak_flows, kExactScanLimit);
  return text;
}

}  // namespace zs::engine
