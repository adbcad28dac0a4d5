// Fewest-hop routes for the engine: cached per source, aware of links that are switched off.
#pragma once

#include <cstddef>
#include <deque>
#include <unordered_map>
#include <vector>

#include "topology/topology.hpp"

namespace zs::topology {

/// Routes by fewest hops over the links that are currently enabled; among equal routes, the one
/// through lower node ids (the same choice as shortest_route). One breadth-first tree is computed per
/// source on first use and cached; the cache holds at most `max_cached_sources` trees (oldest
/// evicted first) so memory stays bounded at any machine size. Enabling or disabling a link (an
/// optical circuit being set up or torn down) clears the cache.
/// Memory pools are endpoints only: no route passes through one.
class Router {
 public:
  explicit Router(const Topology& topo, size_t max_cached_sources = 256);

  /// The links from src to dst in order; empty when src == dst. Throws std::invalid_argument when
  /// dst cannot be reached over enabled links.
  std::vector<LinkId> route(NodeId src, NodeId dst);
  bool link_enabled(LinkId link) const { return enabled_.at(link) != 0; }
  void set_link_enabled(LinkId link, bool enabled);
  /// Number of breadth-first trees computed so far (for benchmarks and tests).
  size_t trees_computed() const { return trees_computed_; }

 private:
  const std::vector<LinkId>& tree_from(NodeId src);

  const Topology& topo_;
  size_t max_cached_;
  std::vector<size_t> offsets_;                            ///< CSR offsets into neighbours_, per node
  std::vector<std::pair<NodeId, LinkId>> neighbours_;      ///< sorted by (node id, link id) per node
  std::vector<char> enabled_;                              ///< per link
  std::unordered_map<NodeId, std::vector<LinkId>> trees_;  ///< source -> link into each node
  std::deque<NodeId> tree_order_;                          ///< sources in the order their trees were made
  size_t trees_computed_ = 0;
};

}  // namespace zs::topology
