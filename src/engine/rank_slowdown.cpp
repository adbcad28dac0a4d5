// Straggler slowdowns mapped from units to simulated ranks.
#include "engine/rank_slowdown.hpp"

#include <algorithm>
#include <unordered_map>

namespace zs::engine {

std::map<uint64_t, double> slowdown_of_ranks(const topology::Machine& machine,
                                             const policy::Placement& placement,
                                             const RankCollapse* collapse) {
  std::map<uint64_t, double> out;
  if (machine.unit_slowdown.empty()) return out;
  std::unordered_map<topology::NodeId, uint64_t> rank_of_unit;
  for (uint64_t r = 0; r < placement.unit_of_rank.size(); ++r)
    rank_of_unit.emplace(placement.unit_of_rank[r], r);
  for (auto [unit, factor] : machine.unit_slowdown) {
    auto it = rank_of_unit.find(unit);
    if (it == rank_of_unit.end()) continue;
    uint64_t rank = it->second;
    if (collapse != nullptr)
      rank = collapse->representatives_in_group(rank, collapse->collapsed_axes()).front();
    auto [at, fresh] = out.try_emplace(rank, factor);
    if (!fresh) at->second = std::max(at->second, factor);
  }
  return out;
}

}  // namespace zs::engine
