// Representatives of symmetric ranks for collapsed fidelity.
#include "engine/collapsed/rank_collapse.hpp"

#include <algorithm>
#include <set>
#include <variant>

#include "engine/exact_work.hpp"

namespace zs::engine {

RankCollapse::RankCollapse(const workload::Trace& trace, EveryRank every_rank) : mesh_(trace.mesh) {
  std::set<std::string> kept;
  // Axes by name, or every axis of a communicator.
  auto keep = [&](const std::string& name) {
    const auto axes = trace.communicator_axes(name);
    for (size_t a : *axes) kept.insert(mesh_.axes()[a].name);
  };
  if (!trace.role_axis.empty()) keep(trace.role_axis);
  bool routed_per_call_somewhere = false;
  for (const auto& role : trace.roles)
    for (const auto& op : role.ops) {
      if (const auto* p = std::get_if<workload::P2POp>(&op.body)) keep(p->axis);
      if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body); c != nullptr && c->dispatch)
        if (const auto axes = trace.communicator_axes(c->communicator))
          routed_per_call_somewhere =
              routed_per_call_somewhere || routed_per_call(*c, mesh_.group_size(*axes));
    }
  every_rank_for_routing_ = every_rank == EveryRank::kWhenAffordable && routed_per_call_somewhere &&
                            mesh_.size() <= kIndividualRanks &&
                            within_exact_limits(estimate_exact_work(trace));
  for (size_t a = 0; a < mesh_.axes().size(); ++a)
    if (!every_rank_for_routing_ && !kept.count(mesh_.axes()[a].name)) {
      collapsed_.push_back(a);
      multiplicity_ *= mesh_.axes()[a].size;
    }
  for (uint64_t r = 0; r < mesh_.size(); ++r)
    if (is_representative(r)) representatives_.push_back(r);
}

std::vector<std::string> RankCollapse::collapsed_axis_names() const {
  std::vector<std::string> names;
  for (size_t a : collapsed_) names.push_back(mesh_.axes()[a].name);
  return names;
}

bool RankCollapse::is_representative(uint64_t rank) const {
  return std::all_of(collapsed_.begin(), collapsed_.end(),
                     [&](size_t a) { return mesh_.coordinate(rank, a) == 0; });
}

std::vector<uint64_t> RankCollapse::representatives_in_group(uint64_t rank,
                                                             const std::vector<size_t>& axes) const {
  std::vector<uint64_t> out;
  for (uint64_t member : mesh_.group_members(rank, axes))
    if (is_representative(member)) out.push_back(member);
  return out;
}

std::vector<size_t> RankCollapse::copy_axes(const std::vector<size_t>& axes) const {
  std::vector<size_t> out;
  for (size_t a : collapsed_)
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) out.push_back(a);
  return out;
}

uint64_t RankCollapse::copy_count(const std::vector<size_t>& copy_axes) const {
  uint64_t n = 1;
  for (size_t a : copy_axes) n *= mesh_.axes()[a].size;
  return n;
}

uint64_t RankCollapse::copy_of(uint64_t rank, const std::vector<size_t>& copy_axes, uint64_t copy) const {
  for (size_t i = copy_axes.size(); i-- > 0;) {
    const size_t a = copy_axes[i];
    const uint64_t size = mesh_.axes()[a].size, c = copy % size;
    copy /= size;
    rank = rank - uint64_t(mesh_.coordinate(rank, a)) * mesh_.stride(a) + c * mesh_.stride(a);
  }
  return rank;
}

}  // namespace zs::engine
