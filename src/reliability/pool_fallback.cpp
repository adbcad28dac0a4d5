// The nearest healthy memory pools with room for the ranks of failed ones.
#include "reliability/pool_fallback.hpp"

#include <algorithm>
#include <map>

namespace zs::reliability {

std::vector<topology::NodeId> pools_by_distance(const topology::Machine& machine, topology::NodeId from) {
  const auto& topo = machine.topology;
  auto is_pool = [&](topology::NodeId n) { return topo.node(n).kind == topology::NodeKind::kMemory; };
  std::vector<char> seen(topo.nodes().size(), 0);
  std::vector<topology::NodeId> layer{from}, next, out;
  seen[from] = 1;
  // Layer by layer, so that the pools of one distance can be listed in node-id order.
  while (!layer.empty()) {
    next.clear();
    std::vector<topology::NodeId> pools;
    for (auto n : layer)
      for (auto [m, link] : topo.neighbours(n)) {
        if (seen[m] || !topo.active_at_start(link)) continue;
        seen[m] = 1;
        (is_pool(m) ? pools : next).push_back(m);
      }
    std::sort(pools.begin(), pools.end());
    out.insert(out.end(), pools.begin(), pools.end());
    layer.swap(next);
  }
  return out;
}

std::optional<std::vector<topology::NodeId>> pools_without(const topology::Machine& machine,
                                                           const std::vector<topology::NodeId>& pool_of_rank,
                                                           const std::vector<double>& bytes_of_rank,
                                                           const std::vector<topology::NodeId>& down) {
  auto is_down = [&](topology::NodeId p) { return std::find(down.begin(), down.end(), p) != down.end(); };
  std::map<topology::NodeId, double> used;  // B kept in each pool that stays up
  for (uint64_t r = 0; r < pool_of_rank.size(); ++r)
    if (!is_down(pool_of_rank[r])) used[pool_of_rank[r]] += bytes_of_rank.at(r);
  std::vector<topology::NodeId> out = pool_of_rank;
  std::map<topology::NodeId, std::vector<topology::NodeId>> order;  // by failed pool
  for (uint64_t r = 0; r < pool_of_rank.size(); ++r) {
    const auto pool = pool_of_rank[r];
    if (!is_down(pool)) continue;
    auto [it, fresh] = order.try_emplace(pool);
    if (fresh) it->second = pools_by_distance(machine, pool);
    bool placed = false;
    for (auto candidate : it->second) {
      if (is_down(candidate)) continue;
      const double room = machine.memory_model(candidate).capacity().value() - used[candidate];
      if (bytes_of_rank.at(r) > room) continue;
      used[candidate] += bytes_of_rank.at(r);
      out[r] = candidate;
      placed = true;
      break;
    }
    if (!placed) return std::nullopt;
  }
  return out;
}

}  // namespace zs::reliability
