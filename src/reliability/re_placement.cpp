// Re-placement of failed ranks onto idle units.
#include "reliability/re_placement.hpp"

#include <algorithm>

#include "topology/hop_distances.hpp"

namespace zs::reliability {

RePlacer::RePlacer(const RePlacementSetup& setup, double repair)
    : setup_(setup),
      repair_(repair),
      island_(topology::electrical_islands(*setup.machine)),
      unit_of_rank_(setup.unit_of_rank),
      in_use_(setup.unit_of_rank.begin(), setup.unit_of_rank.end()) {
  for (auto unit : setup.machine->topology.units())
    if (!in_use_.contains(unit)) idle_.insert(unit);
}

std::vector<uint64_t> RePlacer::failed_ranks(const std::vector<uint64_t>& ranks,
                                             const std::vector<topology::NodeId>& down) const {
  if (down.empty()) return ranks;
  const std::set<topology::NodeId> gone(down.begin(), down.end());
  std::vector<uint64_t> out;
  for (uint64_t r = 0; r < unit_of_rank_.size(); ++r)
    if (gone.contains(unit_of_rank_[r])) out.push_back(r);
  return out;
}

void RePlacer::return_repaired(double now) {
  for (; next_repair_ < repairs_.size() && repairs_[next_repair_].first <= now; ++next_repair_)
    for (auto unit : repairs_[next_repair_].second)
      if (!in_use_.contains(unit)) idle_.insert(unit);
}

uint64_t RePlacer::idle_units(double now) {
  return_repaired(now);
  return idle_.size();
}

double RePlacer::wait_for_repair(const std::vector<topology::NodeId>& down, double now, std::string& action) {
  return_repaired(now);
  for (auto unit : down) idle_.erase(unit);  // idle units behind the failed domain are down too
  if (!down.empty()) repairs_.emplace_back(now + repair_, down);
  action = "wait for repair";
  return repair_;  // the ranks stay on their units, back after the repair
}

double RePlacer::replace(const std::vector<uint64_t>& ranks, const std::vector<topology::NodeId>& down,
                         double now, double swap, std::string& action) {
  return_repaired(now);
  std::vector<topology::NodeId> broken = down;
  for (auto unit : down) idle_.erase(unit);  // idle units behind the failed domain are down too
  if (ranks.empty()) {  // the domain's ranks had moved away: the job restarts where it is
    action = "restart (no rank runs there now)";
    if (!broken.empty()) repairs_.emplace_back(now + repair_, std::move(broken));
    return 0;
  }
  if (idle_.size() < ranks.size()) return wait_for_repair(down, now, action);
  const std::vector<topology::NodeId> idle(idle_.begin(), idle_.end());
  const auto chosen = setup_.policy->re_place(*setup_.machine, unit_of_rank_, ranks, idle);
  bool reconfigure = false;
  for (size_t i = 0; i < ranks.size(); ++i) {
    const uint64_t r = ranks[i];
    const topology::NodeId failed = unit_of_rank_[r], fresh = chosen.at(i);
    broken.push_back(failed);
    in_use_.erase(failed);
    in_use_.insert(fresh);
    idle_.erase(fresh);
    unit_of_rank_[r] = fresh;
    reconfigure = reconfigure || island_[failed] != island_[fresh];
    const topology::NodeId start = setup_.unit_of_rank[r];
    if (fresh == start) {
      displaced_.erase(r);
      continue;
    }
    const uint32_t cls = setup_.class_of_rank.empty() ? uint32_t(r) : setup_.class_of_rank[r];
    const RePlacementSetup::Key key{cls, topology::hops_from(*setup_.machine, start)[fresh],
                                    island_[start] != island_[fresh]};
    displaced_[r] = key;
    if (!setup_.iteration_by_key.contains(key) && setup_.displaced_iteration)
      setup_.iteration_by_key[key] = setup_.displaced_iteration(r, fresh);
  }
  std::sort(broken.begin(), broken.end());
  broken.erase(std::unique(broken.begin(), broken.end()), broken.end());
  repairs_.emplace_back(now + repair_, std::move(broken));
  action = "re-place " + std::to_string(ranks.size()) + (ranks.size() == 1 ? " rank" : " ranks") +
           " onto idle units";
  if (reconfigure && setup_.reconfiguration > 0) {
    action += ", optical circuits reconfigured";
    return swap + setup_.reconfiguration;
  }
  return swap;
}

double RePlacer::iteration(double healthy) const {
  double slowest = healthy;
  for (const auto& [rank, key] : displaced_)
    if (auto it = setup_.iteration_by_key.find(key); it != setup_.iteration_by_key.end())
      slowest = std::max(slowest, it->second);
  return slowest;
}

}  // namespace zs::reliability
