// Fewest-hop routes for the engine: ECMP by connection hash, cached per destination, aware of links
// that are switched off.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "topology/topology.hpp"

namespace zs::topology {

/// How a route is chosen among several fewest-hop routes.
enum class PathSelection : uint8_t {
  kEcmpHash,  ///< at every hop, among the next hops on a fewest-hop route, pick one by a hash of
              ///< (source, destination, node): per-connection ECMP, as switches hash a flow's 5-tuple
  kLowestId,  ///< always the next hop with the lowest node id (then link id): one path per pair
};

/// Routes by fewest hops over the links that are currently enabled. One breadth-first distance map is
/// computed per destination on first use and cached; the cache holds at most `max_cached` maps (oldest
/// evicted first) so memory stays bounded at any machine size (4 B per node per map). Enabling or
/// disabling a link (an optical circuit being set up or torn down) clears the cache.
/// Memory pools are endpoints only: no route passes through one.
class Router {
 public:
  explicit Router(const Topology& topo, PathSelection selection = PathSelection::kEcmpHash,
                  size_t max_cached = 256);

  /// The links from src to dst in order; empty when src == dst. The same pair always gets the same
  /// route while the links stay as they are. Throws std::invalid_argument when dst cannot be reached
  /// over enabled links.
  std::vector<LinkId> route(NodeId src, NodeId dst);
  bool link_enabled(LinkId link) const { return enabled_.at(link) != 0; }
  void set_link_enabled(LinkId link, bool enabled);
  PathSelection selection() const { return selection_; }
  /// Number of breadth-first searches run so far (for benchmarks and tests).
  size_t trees_computed() const { return trees_computed_; }

 private:
  const std::vector<uint32_t>& distances_to(NodeId dst);

  const Topology& topo_;
  PathSelection selection_;
  size_t max_cached_;
  std::vector<size_t> offsets_;                              ///< CSR offsets into neighbours_, per node
  std::vector<std::pair<NodeId, LinkId>> neighbours_;        ///< sorted by (node id, link id) per node
  std::vector<char> enabled_;                                ///< per link
  std::unordered_map<NodeId, std::vector<uint32_t>> trees_;  ///< destination -> hops from each node
  std::deque<NodeId> tree_order_;  ///< destinations in the order their maps were made
  size_t trees_computed_ = 0;
};

}  // namespace zs::topology
