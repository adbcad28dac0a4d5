// Fewest-hop routes from breadth-first distance maps shared per attachment set and searched only as far as
// needed; fluid ECMP spreads many connections at once.
#include "topology/router.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "core/splitmix.hpp"

namespace zs::topology {

namespace {
constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();
}  // namespace

Router::Router(const Topology& topo, PathSelection selection, size_t max_cached)
    : topo_(topo), selection_(selection), enabled_(topo.links().size(), 1) {
  const size_t per_map = std::max<size_t>(1, 4 * topo.nodes().size());
  max_cached_ = max_cached > 0 ? max_cached : std::clamp<size_t>((size_t(1) << 29) / per_map, 16, 4096);
  is_pool_.resize(topo.nodes().size());
  for (NodeId n = 0; n < topo.nodes().size(); ++n) is_pool_[n] = topo.node(n).kind == NodeKind::kMemory;
  offsets_.reserve(topo.nodes().size() + 1);
  offsets_.push_back(0);
  for (NodeId n = 0; n < topo.nodes().size(); ++n) {
    auto next = topo.neighbours(n);
    std::sort(next.begin(), next.end());
    neighbours_.insert(neighbours_.end(), next.begin(), next.end());
    offsets_.push_back(neighbours_.size());
  }
}

Router::Router(const Machine& machine, PathSelection selection, size_t max_cached)
    : Router(machine.topology, selection, max_cached) {
  bandwidth_.reserve(machine.topology.links().size());
  for (LinkId l = 0; l < machine.topology.links().size(); ++l)  // nominal: a derated link is still hashed to
    bandwidth_.push_back(machine.link_model(l).effective_bandwidth().value() *
                         machine.topology.link(l).width);
  for (LinkId l : machine.links_down) enabled_.at(l) = 0;
}

void Router::keep_widest(std::vector<std::pair<NodeId, LinkId>>& candidates) const {
  if (bandwidth_.empty() || candidates.size() < 2) return;
  double widest = 0;
  for (auto [m, link] : candidates) widest = std::max(widest, bandwidth_[link]);
  std::erase_if(candidates, [&](const auto& c) { return bandwidth_[c.second] < widest * (1 - 1e-9); });
}

void Router::set_link_enabled(LinkId link, bool enabled) {
  char value = enabled ? 1 : 0;
  if (enabled_.at(link) == value) return;
  enabled_[link] = value;
  trees_.clear();
  tree_order_.clear();
}

std::vector<NodeId> Router::attachment_key(NodeId dst) const {
  if (topo_.node(dst).kind == NodeKind::kSwitch) return {dst, dst};
  std::vector<NodeId> key;
  for (size_t i = offsets_[dst]; i < offsets_[dst + 1]; ++i)
    if (enabled_[neighbours_[i].second]) key.push_back(neighbours_[i].first);
  std::sort(key.begin(), key.end());
  key.erase(std::unique(key.begin(), key.end()), key.end());
  return key;
}

Router::Tree& Router::tree_for(NodeId dst, uint32_t pod) {
  auto key = attachment_key(dst);
  const bool is_switch = key.size() == 2 && key[0] == dst && key[1] == dst;
  key.push_back(pod);
  if (auto it = trees_.find(key); it != trees_.end()) return it->second;
  Tree tree;
  if (trees_.size() >= max_cached_) {  // the oldest map's memory is reused
    auto oldest = trees_.find(tree_order_.front());
    tree = std::move(oldest->second);
    trees_.erase(oldest);
    tree_order_.pop_front();
  }
  if (tree.dist.size() == topo_.nodes().size()) {
    for (NodeId n : tree.frontier) tree.dist[n] = kUnreached;  // every labelled node is in the queue
  } else {
    tree.dist.assign(topo_.nodes().size(), kUnreached);
  }
  tree.frontier.clear();
  tree.head = 0;
  tree.target = dst;
  tree.pod = pod;
  if (is_switch) {  // a search from itself
    tree.dist[dst] = 0;
    tree.frontier.push_back(dst);
  } else {  // an endpoint: a search from everything it attaches to (in its pod when confined)
    for (size_t i = 0; i + 1 < key.size(); ++i) {
      const NodeId n = key[i];
      if (!inside(pod, n)) continue;
      tree.dist[n] = 1;
      tree.frontier.push_back(n);
    }
  }
  ++trees_computed_;
  tree_order_.push_back(key);
  return trees_.emplace(std::move(key), std::move(tree)).first->second;
}

void Router::reach(Tree& tree, NodeId node) {
  // Breadth-first order: once `node` is labelled, every node closer than it is labelled too, which is
  // all a route from it (or a spread from it) looks at.
  auto& dist = tree.dist;
  while (dist[node] == kUnreached && tree.head < tree.frontier.size()) {
    NodeId n = tree.frontier[tree.head++];
    if (n != tree.target && is_pool_[n]) continue;  // pools do not forward
    const uint32_t next = dist[n] + 1;
    for (size_t i = offsets_[n]; i < offsets_[n + 1]; ++i) {
      auto [m, link] = neighbours_[i];
      if (dist[m] != kUnreached || !enabled_[link] || !inside(tree.pod, m)) continue;
      dist[m] = next;
      tree.frontier.push_back(m);
    }
  }
}

std::vector<LinkId> Router::route(NodeId src, NodeId dst) {
  std::vector<LinkId> links;
  if (src == dst) return links;
  Tree& tree = tree_for(dst, topo_.same_pod(src, dst) ? topo_.pod(dst) : kNoPod);
  reach(tree, src);
  const auto& map = tree.dist;
  auto dist = [&](NodeId n) { return n == dst ? 0u : map[n]; };
  if (dist(src) == kUnreached)
    throw std::invalid_argument("no route from " + topo_.node(src).name + " to " + topo_.node(dst).name);
  const uint64_t connection = core::splitmix64((uint64_t(src) << 32) ^ dst);
  std::vector<std::pair<NodeId, LinkId>> candidates;
  for (NodeId n = src; n != dst;) {
    candidates.clear();
    for (size_t i = offsets_[n]; i < offsets_[n + 1]; ++i) {
      auto [m, link] = neighbours_[i];
      if (!enabled_[link] || dist(m) + 1 != dist(n)) continue;
      if (m != dst && topo_.node(m).kind == NodeKind::kMemory) continue;
      candidates.emplace_back(m, link);
    }
    // A node on a fewest-hop route always has a next hop one step closer.
    keep_widest(candidates);
    size_t pick = 0;
    if (selection_ == PathSelection::kEcmpHash && candidates.size() > 1)
      pick = core::splitmix64(connection ^ n) % candidates.size();
    links.push_back(candidates[pick].second);
    n = candidates[pick].first;
  }
  return links;
}

void Router::spread(const std::vector<std::pair<NodeId, double>>& demand,
                    const std::vector<std::pair<NodeId, double>>& destinations,
                    const std::function<void(LinkId, NodeId, double)>& on_link) {
  if (destinations.empty() || demand.empty()) return;
  const NodeId first = destinations.front().first;
  const uint32_t pod = topo_.pod(first);
  if (pod == kNoPod) return spread_over(tree_for(first, kNoPod), demand, destinations, on_link);
  // Sources in the destinations' pod stay in it; the others come over the whole machine.
  std::vector<std::pair<NodeId, double>> inner, outer;
  for (const auto& d : demand) (topo_.pod(d.first) == pod ? inner : outer).push_back(d);
  if (!inner.empty()) spread_over(tree_for(first, pod), inner, destinations, on_link);
  if (!outer.empty()) spread_over(tree_for(first, kNoPod), outer, destinations, on_link);
}

void Router::spread_over(Tree& tree, const std::vector<std::pair<NodeId, double>>& demand,
                         const std::vector<std::pair<NodeId, double>>& destinations,
                         const std::function<void(LinkId, NodeId, double)>& on_link) {
  const NodeId first = destinations.front().first;
  for (const auto& [src, bytes] : demand) reach(tree, src);
  const auto& map = tree.dist;
  // Demand arriving at each node (in the node-indexed scratch `at`, reset before returning), by
  // distance to the destinations' attachments (1 = an attachment).
  std::vector<std::vector<NodeId>> by_distance;
  auto& at = spread_bytes_;
  auto& seen = spread_seen_;
  if (at.size() != topo_.nodes().size()) {
    at.assign(topo_.nodes().size(), 0.0);
    seen.assign(topo_.nodes().size(), 0);
  }
  std::vector<NodeId> touched;
  struct Reset {  // leaves the scratch clean however spread exits
    std::vector<NodeId>& nodes;
    std::vector<double>& at;
    std::vector<char>& seen;
    ~Reset() {
      for (NodeId n : nodes) {
        at[n] = 0.0;
        seen[n] = 0;
      }
    }
  } reset{touched, at, seen};
  auto add = [&](NodeId n, double bytes) {
    at[n] += bytes;
    if (seen[n]) return;
    seen[n] = 1;
    touched.push_back(n);
    const uint32_t d = map[n];
    if (d == kUnreached)
      throw std::invalid_argument("no route from " + topo_.node(n).name + " to " + topo_.node(first).name);
    if (by_distance.size() <= d) by_distance.resize(d + 1);
    by_distance[d].push_back(n);
  };
  for (const auto& [src, bytes] : demand) add(src, bytes);
  std::vector<std::pair<NodeId, LinkId>> candidates;
  for (uint32_t d = static_cast<uint32_t>(by_distance.size()); d-- > 2;) {
    std::sort(by_distance[d].begin(), by_distance[d].end());  // a fixed order: sums are deterministic
    for (size_t i = 0; i < by_distance[d].size(); ++i) {
      const NodeId n = by_distance[d][i];
      const double bytes = at[n];
      candidates.clear();
      for (size_t k = offsets_[n]; k < offsets_[n + 1]; ++k) {
        auto [m, link] = neighbours_[k];
        if (!enabled_[link] || map[m] + 1 != d) continue;
        if (topo_.node(m).kind == NodeKind::kMemory) continue;
        candidates.emplace_back(m, link);
      }
      keep_widest(candidates);
      const double share = bytes / double(candidates.size());
      for (auto [m, link] : candidates) {
        on_link(link, n, share);
        add(m, share);
      }
    }
  }
  // The last hop: from each attachment (or a source linked to the destinations directly) to each
  // destination, in proportion to what the destination receives.
  if (by_distance.size() > 1) {
    std::sort(by_distance[1].begin(), by_distance[1].end());
    for (NodeId a : by_distance[1]) {
      const double bytes = at[a];
      for (const auto& [dst, fraction] : destinations) {
        if (fraction <= 0) continue;
        for (size_t k = offsets_[a]; k < offsets_[a + 1]; ++k)
          if (neighbours_[k].first == dst && enabled_[neighbours_[k].second]) {
            on_link(neighbours_[k].second, a, bytes * fraction);
            break;
          }
      }
    }
  }
}

}  // namespace zs::topology
