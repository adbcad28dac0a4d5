// Hop-bytes of a placement, per communicator.
#include "policy/placement/placement_cost.hpp"

#include <algorithm>
#include <map>

#include "policy/placement/rank_traffic.hpp"
#include "topology/router.hpp"

namespace zs::policy {

double PlacementCost::total_hop_bytes() const {
  double t = 0;
  for (const auto& c : communicators) t += c.hop_bytes;
  return t;
}

void load_fewest_hop_routes(topology::Router& router, const topology::Topology& topology,
                            topology::NodeId from, topology::NodeId to, double bytes,
                            std::vector<double>& link_bytes) {
  // Spread from `to` towards `from` over the same fewest-hop routes, then count each crossing in the
  // opposite direction: the bytes really travel from `from` to `to`.
  router.spread({{to, bytes}}, {{from, 1.0}}, [&](topology::LinkId l, topology::NodeId leaving, double b) {
    link_bytes[2 * size_t(l) + (topology.link(l).b == leaving ? 0 : 1)] += b;
  });
}

std::optional<LinkLoad> busiest_link_direction(const topology::Machine& machine,
                                               const std::vector<double>& link_bytes,
                                               const std::vector<char>& counted) {
  std::optional<LinkLoad> busiest;
  for (size_t d = 0; d < link_bytes.size(); ++d) {
    const auto link = static_cast<topology::LinkId>(d / 2);
    if (link_bytes[d] <= 0 || (!counted.empty() && !counted[link])) continue;
    const double seconds = link_bytes[d] / machine.link_bandwidth(link).value();
    if (!busiest || seconds > busiest->seconds) busiest = LinkLoad{link, d % 2 == 0, link_bytes[d], seconds};
  }
  return busiest;
}

PlacementCost placement_cost(const workload::Trace& trace, const topology::Machine& machine,
                             const Placement& placement, uint64_t max_ranks) {
  const uint64_t ranks = trace.mesh.size();
  const uint64_t stride = std::max<uint64_t>(1, (ranks + max_ranks - 1) / std::max<uint64_t>(max_ranks, 1));

  const RankTraffic traffic(trace);
  topology::Router router(machine, topology::PathSelection::kLowestId, 4);
  std::vector<double> link_bytes(2 * machine.topology.links().size(), 0.0);  ///< per link direction
  std::map<std::string, CommunicatorCost> costs;
  PlacementCost out;
  std::vector<RankTraffic::Send> sends;
  out.ranks = ranks;
  for (uint64_t r = 0; r < ranks; r += stride) {
    ++out.ranks_evaluated;
    const auto me = placement.unit_of_rank[r];
    // Routes towards this rank's unit (one distance map per rank). Returns the links crossed.
    auto hops_loading = [&](uint64_t peer, double bytes) {
      const auto unit = placement.unit_of_rank[peer];
      if (unit == me) return 0.0;
      load_fewest_hop_routes(router, machine.topology, me, unit, bytes, link_bytes);
      return double(router.route(unit, me).size());
    };
    traffic.sends_of(r, sends);
    for (const auto& send : sends) {
      auto& c = costs[*send.name];
      c.name = *send.name;
      c.bytes += send.bytes;
      if (send.bytes > 0) c.hop_bytes += send.bytes * hops_loading(send.peer, send.bytes);
    }
  }
  // Every k-th rank was evaluated: scale to all ranks (ranks / evaluated, not k, which overcounts when k
  // does not divide the ranks).
  const double scale = double(ranks) / double(std::max<uint64_t>(1, out.ranks_evaluated));
  for (auto& [name, c] : costs) {
    c.bytes *= scale;
    c.hop_bytes *= scale;
    out.communicators.push_back(c);
  }
  out.max_link_load = busiest_link_direction(machine, link_bytes);
  return out;
}

}  // namespace zs::policy
