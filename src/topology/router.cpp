// Breadth-first route trees, cached per source.
#include "topology/router.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace zs::topology {

namespace {
constexpr LinkId kNoLink = std::numeric_limits<LinkId>::max();
}

Router::Router(const Topology& topo, size_t max_cached_sources)
    : topo_(topo), max_cached_(std::max<size_t>(1, max_cached_sources)), enabled_(topo.links().size(), 1) {
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

const std::vector<LinkId>& Router::tree_from(NodeId src) {
  if (auto it = trees_.find(src); it != trees_.end()) return it->second;
  if (trees_.size() >= max_cached_) {
    trees_.erase(tree_order_.front());
    tree_order_.pop_front();
  }
  std::vector<LinkId> via(topo_.nodes().size(), kNoLink);
  std::vector<NodeId> frontier{src};
  std::vector<char> seen(topo_.nodes().size(), 0);
  seen[src] = 1;
  for (size_t head = 0; head < frontier.size(); ++head) {
    NodeId n = frontier[head];
    if (n != src && topo_.node(n).kind == NodeKind::kMemory) continue;  // pools do not forward
    for (size_t i = offsets_[n]; i < offsets_[n + 1]; ++i) {
      auto [m, link] = neighbours_[i];
      if (seen[m] || !enabled_[link]) continue;
      seen[m] = 1;
      via[m] = link;
      frontier.push_back(m);
    }
  }
  ++trees_computed_;
  tree_order_.push_back(src);
  return trees_.emplace(src, std::move(via)).first->second;
}

std::vector<LinkId> Router::route(NodeId src, NodeId dst) {
  std::vector<LinkId> links;
  if (src == dst) return links;
  const auto& via = tree_from(src);
  for (NodeId n = dst; n != src;) {
    LinkId l = via.at(n);
    if (l == kNoLink)
      throw std::invalid_argument("no route from " + topo_.node(src).name + " to " + topo_.node(dst).name);
    links.push_back(l);
    const auto& link = topo_.link(l);
    n = link.a == n ? link.b : link.a;
  }
  std::reverse(links.begin(), links.end());
  return links;
}

}  // namespace zs::topology
