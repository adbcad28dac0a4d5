// Parts of the fabric seen from a job: cables per link, classes of links that cost alike, and what failed
// links cut off.
#include "reliability/fabric_parts.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace zs::reliability {

uint64_t cables_of(double width) {
  return std::max<uint64_t>(1, static_cast<uint64_t>(width + 1e-9));
}

bool to_memory_pool(const topology::Topology& topo, topology::LinkId l) {
  const auto& link = topo.link(l);
  return topo.node(link.a).kind == topology::NodeKind::kMemory ||
         topo.node(link.b).kind == topology::NodeKind::kMemory;
}

std::vector<uint32_t> link_classes(const topology::Machine& machine,
                                   const std::vector<topology::NodeId>& unit_of_rank,
                                   const std::vector<uint32_t>& class_of_rank) {
  const auto& topo = machine.topology;
  // Tiers: links from the nearest unit, over the links active at the start.
  constexpr uint32_t kFar = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> tier(topo.nodes().size(), kFar);
  std::vector<topology::NodeId> queue(topo.units().begin(), topo.units().end());
  for (auto u : queue) tier[u] = 0;
  for (size_t head = 0; head < queue.size(); ++head)
    for (auto [next, link] : topo.neighbours(queue[head]))
      if (tier[next] == kFar && topo.active_at_start(link)) {
        tier[next] = tier[queue[head]] + 1;
        queue.push_back(next);
      }
  std::vector<uint32_t> rank_class(topo.nodes().size(), kFar - 1);  // kFar - 1: a unit with no rank
  for (uint64_t r = unit_of_rank.size(); r-- > 0;)  // the lowest rank on a unit names its class
    rank_class[unit_of_rank[r]] = class_of_rank.empty() ? static_cast<uint32_t>(r) : class_of_rank.at(r);
  std::vector<uint32_t> out;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>, uint32_t> ids;
  for (topology::LinkId l = 0; l < topo.links().size(); ++l) {
    const auto& link = topo.link(l);
    auto end = [&](topology::NodeId n) {
      return std::make_pair(tier[n], topo.node(n).kind == topology::NodeKind::kUnit ? rank_class[n] : kFar);
    };
    auto a = end(link.a), b = end(link.b);
    if (b < a) std::swap(a, b);
    const auto key = std::make_tuple(link.model, a.first, a.second, b.first, b.second);
    out.push_back(ids.try_emplace(key, static_cast<uint32_t>(ids.size())).first->second);
  }
  return out;
}

CutOff cut_off(const topology::Machine& machine, const std::vector<topology::LinkId>& down,
               const std::vector<topology::NodeId>& unit_of_rank,
               const std::vector<topology::NodeId>& pool_of_rank) {
  const auto& topo = machine.topology;
  std::vector<char> off(topo.links().size(), 0);
  for (auto l : down) off.at(l) = 1;
  auto usable = [&](topology::LinkId l) { return !off[l] && topo.active_at_start(l); };
  auto is_pool = [&](topology::NodeId n) { return topo.node(n).kind == topology::NodeKind::kMemory; };
  // Parts of the fabric (memory pools are endpoints: no search passes through one).
  constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> part(topo.nodes().size(), kNone);
  std::vector<topology::NodeId> queue;
  uint32_t parts = 0;
  for (topology::NodeId start = 0; start < topo.nodes().size(); ++start) {
    if (part[start] != kNone || is_pool(start)) continue;
    part[start] = parts;
    queue.assign(1, start);
    for (size_t head = 0; head < queue.size(); ++head)
      for (auto [next, link] : topo.neighbours(queue[head]))
        if (part[next] == kNone && !is_pool(next) && usable(link)) {
          part[next] = parts;
          queue.push_back(next);
        }
    ++parts;
  }
  std::vector<uint64_t> job_units(parts, 0);
  for (auto unit : unit_of_rank) ++job_units[part[unit]];
  const auto main =
      static_cast<uint32_t>(std::max_element(job_units.begin(), job_units.end()) - job_units.begin());
  CutOff out;
  for (auto unit : topo.units())
    if (part[unit] != main) out.units.push_back(unit);
  auto pool_reached = [&](topology::NodeId pool) {
    for (auto [next, link] : topo.neighbours(pool))
      if (usable(link) && part[next] == main) return true;
    return false;
  };
  for (uint64_t r = 0; r < unit_of_rank.size(); ++r)
    if (part[unit_of_rank[r]] != main || (!pool_of_rank.empty() && !pool_reached(pool_of_rank.at(r))))
      out.ranks.push_back(r);
  return out;
}

}  // namespace zs::reliability
