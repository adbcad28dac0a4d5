// Hop-bytes of a placement, per communicator.
#include "policy/placement_cost.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "topology/router.hpp"

namespace zs::policy {
namespace {

double bytes_sent(workload::CollectiveKind kind, double S, double n) {
  using K = workload::CollectiveKind;
  if (n <= 1) return 0;
  switch (kind) {
    case K::kAllReduce:
      return 2 * (n - 1) / n * S;
    case K::kBroadcast:
    case K::kReduce:
      return S;
    default:
      return (n - 1) / n * S;
  }
}

}  // namespace

double PlacementCost::total_hop_bytes() const {
  double t = 0;
  for (const auto& c : communicators) t += c.hop_bytes;
  return t;
}

PlacementCost placement_cost(const workload::Trace& trace, const topology::Machine& machine,
                             const Placement& placement, uint64_t max_ranks) {
  const uint64_t ranks = trace.mesh.size();
  const uint64_t stride = std::max<uint64_t>(1, (ranks + max_ranks - 1) / std::max<uint64_t>(max_ranks, 1));

  // What one rank of each role sends, per communicator (ring-like or all-to-all) and per p2p peer.
  struct Sends {
    std::map<std::string, double> ring, spread;                    ///< communicator -> B
    std::map<std::tuple<std::string, int32_t, bool>, double> p2p;  ///< (axis, offset, wrap) -> B
  };
  std::vector<Sends> role_sends(trace.roles.size());
  std::map<std::string, std::vector<size_t>> axes_of;
  for (size_t role = 0; role < trace.roles.size(); ++role)
    for (const auto& op : trace.roles[role].ops) {
      if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) {
        auto axes = axes_of.find(c->communicator);
        if (axes == axes_of.end())
          axes = axes_of.emplace(c->communicator, *trace.communicator_axes(c->communicator)).first;
        const double n = double(trace.mesh.group_size(axes->second));
        auto& to =
            c->kind == workload::CollectiveKind::kAllToAll ? role_sends[role].spread : role_sends[role].ring;
        to[c->communicator] += bytes_sent(c->kind, c->bytes.value(), n);
      } else if (const auto* p = std::get_if<workload::P2POp>(&op.body)) {
        if (p->direction == workload::P2PDirection::kSend)
          role_sends[role].p2p[{p->axis, p->offset, p->wrap}] += p->bytes.value();
      }
    }

  topology::Router router(machine.topology, topology::PathSelection::kLowestId, 4);
  std::vector<double> link_bytes(2 * machine.topology.links().size(), 0.0);  ///< per link direction
  std::map<std::string, CommunicatorCost> costs;
  PlacementCost out;
  out.ranks = ranks;
  for (uint64_t r = 0; r < ranks; r += stride) {
    ++out.ranks_evaluated;
    const auto me = placement.unit_of_rank[r];
    // Routes towards this rank's unit (one distance map per rank); `bytes` travel the route backwards,
    // from this rank to the peer, loading each link in that direction. Returns the links crossed.
    auto hops_loading = [&](uint64_t peer, double bytes) {
      const auto unit = placement.unit_of_rank[peer];
      if (unit == me) return 0.0;
      const auto route = router.route(unit, me);
      topology::NodeId at = me;
      for (auto l = route.rbegin(); l != route.rend(); ++l) {
        const auto& link = machine.topology.link(*l);
        const bool forward = link.a == at;
        link_bytes[2 * size_t(*l) + (forward ? 0 : 1)] += bytes;
        at = forward ? link.b : link.a;
      }
      return double(route.size());
    };
    auto add = [&](const std::string& name, double bytes, double h) {
      auto& c = costs[name];
      c.name = name;
      c.bytes += bytes;
      c.hop_bytes += bytes * h;
    };
    const Sends& sends = role_sends[trace.role_of(r)];
    for (const auto& [comm, bytes] : sends.ring) {
      const auto members = trace.mesh.group_members(r, axes_of.at(comm));
      const size_t self = size_t(std::find(members.begin(), members.end(), r) - members.begin());
      add(comm, bytes, bytes > 0 ? hops_loading(members[(self + 1) % members.size()], bytes) : 0.0);
    }
    for (const auto& [comm, bytes] : sends.spread) {
      const auto members = trace.mesh.group_members(r, axes_of.at(comm));
      const size_t step = std::max<size_t>(1, members.size() / 16);
      double count = 0;
      for (size_t m = 0; m < members.size() && bytes > 0; m += step) count += members[m] != r ? 1 : 0;
      double sum = 0;
      for (size_t m = 0; m < members.size() && count > 0; m += step)
        if (members[m] != r) sum += hops_loading(members[m], bytes / count);
      add(comm, bytes, count > 0 ? sum / count : 0.0);
    }
    for (const auto& [key, bytes] : sends.p2p) {
      const auto& [axis_name, offset, wrap] = key;
      const size_t axis = *trace.mesh.axis_index(axis_name);
      auto peer = trace.mesh.neighbour(r, axis, offset, wrap);
      if (peer) add("p2p:" + axis_name, bytes, hops_loading(*peer, bytes));
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
  for (size_t d = 0; d < link_bytes.size(); ++d) {
    if (link_bytes[d] <= 0) continue;
    const auto link = static_cast<topology::LinkId>(d / 2);
    const double seconds = link_bytes[d] / machine.link_bandwidth(link).value();
    if (!out.max_link_load || seconds > out.max_link_load->seconds)
      out.max_link_load = LinkLoad{link, d % 2 == 0, link_bytes[d], seconds};
  }
  return out;
}

}  // namespace zs::policy
