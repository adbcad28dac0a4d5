// How good a placement is for a job, without simulating: bytes and hop-bytes per communicator.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "policy/placement/placement_policy.hpp"
#include "topology/router.hpp"

namespace zs::policy {

struct CommunicatorCost {
  std::string name;      ///< a communicator, or "p2p:<axis>" for point-to-point traffic
  double bytes = 0;      ///< bytes sent per iteration, all ranks, B
  double hop_bytes = 0;  ///< bytes x links crossed, all ranks, B
  double mean_hops() const { return bytes > 0 ? hop_bytes / bytes : 0.0; }
};

/// The busiest link direction: bytes crossing it per iteration and the time they need at its bandwidth.
struct LinkLoad {
  topology::LinkId link = 0;
  bool forward = true;  ///< from the link's a to its b
  double bytes = 0;     ///< B per iteration
  double seconds = 0;   ///< bytes / the direction's bandwidth, s: a lower bound on the iteration's
                        ///< communication through it, whatever the overlap
};

struct PlacementCost {
  std::vector<CommunicatorCost> communicators;  ///< sorted by name
  uint64_t ranks = 0;
  uint64_t ranks_evaluated = 0;  ///< < ranks: a deterministic sample (every k-th rank), scaled up
  /// The link direction with the most seconds of traffic, from the evaluated ranks' sends along their
  /// routes, not scaled: exact when every rank is evaluated, a lower bound otherwise. Absent: no traffic.
  std::optional<LinkLoad> max_link_load;
  double total_hop_bytes() const;
};

/// Adds `bytes` sent from unit `from` to unit `to` to `link_bytes` (B per link direction: index 2l for
/// link l's a to b, 2l + 1 for b to a), split evenly among the next hops of the fewest-hop routes at
/// every node, as per-connection ECMP spreads many connections. Uses the router's distance map towards
/// `from`, so that many calls from one unit share one map.
void load_fewest_hop_routes(topology::Router& router, const topology::Topology& topology,
                            topology::NodeId from, topology::NodeId to, double bytes,
                            std::vector<double>& link_bytes);

/// The link direction of `link_bytes` (as load_fewest_hop_routes fills it) with the most seconds of
/// traffic at its bandwidth, among the links `counted` marks (all when empty); nothing when none
/// carries any.
std::optional<LinkLoad> busiest_link_direction(const topology::Machine& machine,
                                               const std::vector<double>& link_bytes,
                                               const std::vector<char>& counted = {});

/// Bytes each rank sends per collective, algorithm-independent (the ring's, which the bandwidth-optimal
/// algorithms share): 2(n-1)/n S for all-reduce, (n-1)/n S for reduce-scatter, all-gather and
/// all-to-all, S for broadcast and reduce; point-to-point sends their bytes. Hops are links on the
/// fewest-hop route: to the next member of the group for collectives (the ring neighbour), the mean
/// over up to 16 members spread over the group for all-to-all, the peer for point-to-point. At most
/// `max_ranks` ranks are evaluated (one every ceil(ranks / max_ranks)), and sums scaled to all ranks.
/// Link loads: an all-to-all's bytes are split evenly among the sampled members, and every send over
/// its fewest-hop routes (load_fewest_hop_routes).
PlacementCost placement_cost(const workload::Trace& trace, const topology::Machine& machine,
                             const Placement& placement, uint64_t max_ranks = 1024);

}  // namespace zs::policy
