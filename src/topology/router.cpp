// Breadth-first distance maps cached per destination; routes walk down them.
#include "topology/router.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace zs::topology {

namespace {
constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

/// SplitMix64 finalizer: a well-mixed, platform-independent hash.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
}  // namespace

Router::Router(const Topology& topo, PathSelection selection, size_t max_cached)
    : topo_(topo),
      selection_(selection),
      max_cached_(std::max<size_t>(1, max_cached)),
      enabled_(topo.links().size(), 1) {
  offsets_.reserve(topo.nodes().size() + 1);
  offsets_.push_back(0);
  for (NodeId n = 0; n < topo.nodes().size(); ++n) {
    auto next = topo.neighbours(n);
    std::sort(next.begin(), next.end());
    neighbours_.insert(neighbours_.end(), next.begin(), next.end());
    offsets_.push_back(neighbours_.size());
  }
}

void Router::set_link_enabled(LinkId link, bool enabled) {
  char value = enabled ? 1 : 0;
  if (enabled_.at(link) == value) return;
  enabled_[link] = value;
  trees_.clear();
  tree_order_.clear();
}

const std::vector<uint32_t>& Router::distances_to(NodeId dst) {
  if (auto it = trees_.find(dst); it != trees_.end()) return it->second;
  if (trees_.size() >= max_cached_) {
    trees_.erase(tree_order_.front());
    tree_order_.pop_front();
  }
  std::vector<uint32_t> dist(topo_.nodes().size(), kUnreached);
  std::vector<NodeId> frontier{dst};
  dist[dst] = 0;
  for (size_t head = 0; head < frontier.size(); ++head) {
    NodeId n = frontier[head];
    if (n != dst && topo_.node(n).kind == NodeKind::kMemory) continue;  // pools do not forward
    for (size_t i = offsets_[n]; i < offsets_[n + 1]; ++i) {
      auto [m, link] = neighbours_[i];
      if (dist[m] != kUnreached || !enabled_[link]) continue;
      dist[m] = dist[n] + 1;
      frontier.push_back(m);
    }
  }
  ++trees_computed_;
  tree_order_.push_back(dst);
  return trees_.emplace(dst, std::move(dist)).first->second;
}

std::vector<LinkId> Router::route(NodeId src, NodeId dst) {
  std::vector<LinkId> links;
  if (src == dst) return links;
  const auto& dist = distances_to(dst);
  if (dist.at(src) == kUnreached)
    throw std::invalid_argument("no route from " + topo_.node(src).name + " to " + topo_.node(dst).name);
  const uint64_t connection = mix((uint64_t(src) << 32) ^ dst);
  std::vector<std::pair<NodeId, LinkId>> candidates;
  for (NodeId n = src; n != dst;) {
    candidates.clear();
    for (size_t i = offsets_[n]; i < offsets_[n + 1]; ++i) {
      auto [m, link] = neighbours_[i];
      if (!enabled_[link] || dist[m] + 1 != dist[n]) continue;
      if (m != dst && topo_.node(m).kind == NodeKind::kMemory) continue;
      candidates.emplace_back(m, link);
    }
    // A node on a fewest-hop route always has a next hop one step closer.
    size_t pick = 0;
    if (selection_ == PathSelection::kEcmpHash && candidates.size() > 1)
      pick = mix(connection ^ n) % candidates.size();
    links.push_back(candidates[pick].second);
    n = candidates[pick].first;
  }
  return links;
}

}  // namespace zs::topology
