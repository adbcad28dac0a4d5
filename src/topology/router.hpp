// Fewest-hop routes for the engine: ECMP by connection hash, distance maps shared per attachment set and
// searched only as far as needed, aware of links that are switched off; fluid ECMP for bulk costing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <unordered_map>
#include <vector>

#include "topology/machine.hpp"
#include "topology/topology.hpp"

namespace zs::topology {

/// How a route is chosen among several fewest-hop routes.
enum class PathSelection : uint8_t {
  kEcmpHash,  ///< at every hop, among the next hops on a fewest-hop route, pick one by a hash of
              ///< (source, destination, node): per-connection ECMP, as switches hash a flow's 5-tuple
  kLowestId,  ///< always the next hop with the lowest node id (then link id): one path per pair
};

/// Routes by fewest hops over the links that are currently enabled. Breadth-first distance maps are
/// computed on first use and cached; the cache holds at most `max_cached` maps (oldest evicted first)
/// so memory stays bounded at any machine size (4 B per node per map). Units and memory pools that
/// attach to the same set of neighbours (the units of one leaf switch, of one NVLink domain) share one
/// map: the distance to such an endpoint is one more than the distance to the nearest of its
/// neighbours, so a map from a breadth-first search started at all of them serves every one of them
/// and gives the same routes as a map per endpoint. Enabling or disabling a link (an optical circuit
/// being set up or torn down) clears the cache.
/// Memory pools are endpoints only: no route passes through one. A route between two nodes of one pod
/// (Topology::pod) uses only that pod's nodes.
class Router {
 public:
  /// `max_cached` 0: as many maps as fit in 512 MiB, between 16 and 4096.
  explicit Router(const Topology& topo, PathSelection selection = PathSelection::kEcmpHash,
                  size_t max_cached = 0);
  /// On a machine, next hops are also chosen by bandwidth: among the next hops on fewest-hop routes,
  /// only those over the widest link from the node (nominal bandwidth: model times width, within 1e-9;
  /// a degraded link is still hashed to, as switches do) are
  /// taken, then ECMP among them. Two units of one rack that share both an NVLink switch and a ToR
  /// then talk over NVLink, as NCCL's peer-to-peer transport does, instead of hashing half their
  /// connections onto the NICs; links of equal bandwidth (a fat-tree's uplinks) are all still taken.
  /// The machine's failed links (Machine::links_down) start switched off.
  explicit Router(const Machine& machine, PathSelection selection = PathSelection::kEcmpHash,
                  size_t max_cached = 0);

  /// The links from src to dst in order; empty when src == dst. The same pair always gets the same
  /// route while the links stay as they are. Throws std::invalid_argument when dst cannot be reached
  /// over enabled links.
  std::vector<LinkId> route(NodeId src, NodeId dst);
  /// Fluid ECMP, for costing very many connections at once: spreads `demand` (bytes from each source
  /// node) towards `destinations` (endpoints sharing one set of attached neighbours, each with the
  /// fraction of the demand it receives, summing to 1) over the fewest-hop routes, splitting evenly
  /// among the next hops at every node where route() would pick one by hash. Calls on_link(link,
  /// from, bytes) for every link crossing. Throws std::invalid_argument when a destination cannot be
  /// reached from a source.
  void spread(const std::vector<std::pair<NodeId, double>>& demand,
              const std::vector<std::pair<NodeId, double>>& destinations,
              const std::function<void(LinkId, NodeId, double)>& on_link);
  bool link_enabled(LinkId link) const { return enabled_.at(link) != 0; }
  /// The enabled neighbours of an endpoint, sorted and without repeats ({dst, dst} for a switch):
  /// endpoints with equal keys share a distance map.
  std::vector<NodeId> attachment_key(NodeId dst) const;
  void set_link_enabled(LinkId link, bool enabled);
  PathSelection selection() const { return selection_; }
  /// Number of breadth-first searches run so far (for benchmarks and tests).
  size_t trees_computed() const { return trees_computed_; }

 private:
  /// A breadth-first search towards an attachment set (see the class comment), or towards a switch
  /// itself, run only as far as the sources asked for so far: a search from one rack that only
  /// serves sources in its own pod never labels the other pods.
  struct Tree {
    std::vector<uint32_t> dist;    ///< hops to the set (1 for its members; entry dst is not 0)
    std::vector<NodeId> frontier;  ///< the search queue
    size_t head = 0;               ///< next node of the queue to expand
    NodeId target = 0;             ///< the destination the search was started for
    uint32_t pod = kNoPod;         ///< the pod the search stays in, or kNoPod: anywhere
  };
  /// The search towards dst, over the whole machine (pod kNoPod) or inside one pod.
  Tree& tree_for(NodeId dst, uint32_t pod);
  /// spread() for sources that all use `tree`.
  void spread_over(Tree& tree, const std::vector<std::pair<NodeId, double>>& demand,
                   const std::vector<std::pair<NodeId, double>>& destinations,
                   const std::function<void(LinkId, NodeId, double)>& on_link);
  /// Whether a search confined to `pod` may label `node`.
  bool inside(uint32_t pod, NodeId node) const { return pod == kNoPod || topo_.pod(node) == pod; }
  /// Keeps in `candidates` (next hops from one node) only those over the widest links.
  void keep_widest(std::vector<std::pair<NodeId, LinkId>>& candidates) const;
  /// Continues the search until `node` is labelled (or nothing is left to search).
  void reach(Tree& tree, NodeId node);

  const Topology& topo_;
  PathSelection selection_;
  size_t max_cached_;
  std::vector<size_t> offsets_;                        ///< CSR offsets into neighbours_, per node
  std::vector<std::pair<NodeId, LinkId>> neighbours_;  ///< sorted by (node id, link id) per node
  std::vector<char> enabled_;                          ///< per link
  std::vector<double> bandwidth_;                      ///< per link, B/s; empty: hops only
  std::vector<char> is_pool_;                          ///< per node: a memory pool (does not forward)
  std::map<std::vector<NodeId>, Tree> trees_;          ///< attachment key, then pod -> its search
  std::deque<std::vector<NodeId>> tree_order_;         ///< keys in the order their maps were made
  std::vector<double> spread_bytes_;                   ///< spread's per-node demand, B; zero between calls
  std::vector<char> spread_seen_;                      ///< spread's per-node "has demand"; zero between calls
  size_t trees_computed_ = 0;
};

}  // namespace zs::topology
