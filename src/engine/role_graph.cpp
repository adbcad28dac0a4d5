// Role programs compiled to dependency graphs.
#include "engine/role_graph.hpp"

#include <optional>
#include <set>
#include <variant>

namespace zs::engine {

RoleGraph compile(const workload::RoleProgram& program, size_t streams) {
  const size_t n = program.ops.size();
  RoleGraph g{std::vector<std::vector<uint32_t>>(n), std::vector<uint32_t>(n, 0),
              std::vector<uint32_t>(n, RoleGraph::kNone)};
  std::vector<std::optional<uint32_t>> last_on_stream(streams);
  for (uint32_t i = 0; i < n; ++i) {
    const auto& op = program.ops[i];
    std::set<uint32_t> preds(op.deps.begin(), op.deps.end());
    if (auto last = last_on_stream[op.stream]) preds.insert(*last);
    for (uint32_t p : preds) g.successors[p].push_back(i);
    g.initial_pending[i] = static_cast<uint32_t>(preds.size());
    last_on_stream[op.stream] = i;
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (g.successors[i].size() != 1 || !std::holds_alternative<workload::ComputeOp>(program.ops[i].body))
      continue;
    const uint32_t next = g.successors[i][0];
    const auto* c = std::get_if<workload::ComputeOp>(&program.ops[next].body);
    if (g.initial_pending[next] == 1 && c != nullptr && !c->scaled_by) g.fused_next[i] = next;
  }
  return g;
}

}  // namespace zs::engine
