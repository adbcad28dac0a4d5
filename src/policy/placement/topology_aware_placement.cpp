// Topology-aware placement by a search over mesh layouts.
#include "policy/placement/topology_aware_placement.hpp"

#include <algorithm>
#include <cstdio>

#include "core/splitmix.hpp"
#include "policy/placement/placement_cost.hpp"
#include "policy/placement/rank_traffic.hpp"
#include "topology/locality_order.hpp"
#include "topology/router.hpp"

namespace zs::policy {
namespace {

/// Position of each rank in the order of a layout: its coordinates read with the axes nested in
/// `order` (outermost first).
class SlotMap {
 public:
  SlotMap(const workload::Mesh& mesh, const std::vector<size_t>& order)
      : mesh_(mesh), stride_(mesh.axes().size(), 0) {
    uint64_t s = 1;
    for (auto a = order.rbegin(); a != order.rend(); ++a) {
      stride_[*a] = s;
      s *= mesh.axes()[*a].size;
    }
  }
  uint64_t slot(uint64_t rank) const {
    uint64_t s = 0;
    for (size_t a = 0; a < stride_.size(); ++a) s += uint64_t(mesh_.coordinate(rank, a)) * stride_[a];
    return s;
  }

 private:
  const workload::Mesh& mesh_;
  std::vector<uint64_t> stride_;
};

/// Every nesting order of the axes longer than 1, the mesh's own first; axes of size 1 keep their
/// place.
std::vector<std::vector<size_t>> axis_orders(const workload::Mesh& mesh) {
  std::vector<size_t> identity(mesh.axes().size()), long_axes;
  for (size_t a = 0; a < identity.size(); ++a) {
    identity[a] = a;
    if (mesh.axes()[a].size > 1) long_axes.push_back(a);
  }
  std::vector<std::vector<size_t>> orders;
  std::vector<size_t> perm = long_axes;  // sorted ascending: next_permutation starts at the mesh's own
  do {
    std::vector<size_t> order = identity;
    size_t next = 0;
    for (auto& a : order)
      if (mesh.axes()[a].size > 1) a = perm[next++];
    orders.push_back(std::move(order));
  } while (std::next_permutation(perm.begin(), perm.end()));
  return orders;
}

std::string describe(const workload::Mesh& mesh, const MeshLayout& layout) {
  std::string text = "axes ";
  for (size_t i = 0; i < layout.axis_order.size(); ++i) {
    const auto& axis = mesh.axes()[layout.axis_order[i]];
    if (axis.size <= 1) continue;
    text += (text.size() > 5 ? " > " : "") + axis.name;
  }
  return text + (layout.locality_units ? " on the locality order of units" : " on the topology's unit order");
}

/// `count` ranks of `ranks`: one at a seeded offset inside each of `count` equal spans, so that the
/// sample does not alias with the mesh's strides.
std::vector<uint64_t> spread_sample(uint64_t ranks, uint64_t count) {
  std::vector<uint64_t> sampled;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t begin = i * ranks / count, end = (i + 1) * ranks / count;
    sampled.push_back(begin + core::splitmix64(i) % std::max<uint64_t>(1, end - begin));
  }
  return sampled;
}

/// Scores layouts from the sends of a fixed sample of ranks.
class LayoutScorer {
 public:
  LayoutScorer(const workload::Trace& trace, const topology::Machine& machine, uint64_t samples)
      : trace_(trace),
        machine_(machine),
        router_(machine, topology::PathSelection::kLowestId),
        link_bytes_(2 * machine.topology.links().size()) {
    const RankTraffic traffic(trace);
    sampled_ = spread_sample(trace.mesh.size(), std::max<uint64_t>(1, std::min(samples, trace.mesh.size())));
    sends_.resize(sampled_.size());
    for (size_t i = 0; i < sampled_.size(); ++i) traffic.sends_of(sampled_[i], sends_[i]);
    for (const auto& link : machine.topology.links())
      between_switches_.push_back(machine.topology.node(link.a).kind == topology::NodeKind::kSwitch &&
                                  machine.topology.node(link.b).kind == topology::NodeKind::kSwitch);
  }

  /// The layout of the mesh with `order` over `units`, with its hop-bytes and busiest
  /// switch-to-switch link.
  MeshLayout score(std::vector<size_t> order, const std::vector<topology::NodeId>& units, bool locality) {
    const SlotMap slots(trace_.mesh, order);
    double hop_bytes = 0;
    std::fill(link_bytes_.begin(), link_bytes_.end(), 0.0);
    for (size_t i = 0; i < sampled_.size(); ++i) {
      const auto me = units[slots.slot(sampled_[i])];
      for (const auto& send : sends_[i]) {
        const auto peer = units[slots.slot(send.peer)];
        if (send.bytes <= 0 || peer == me) continue;
        hop_bytes += send.bytes * double(router_.route(peer, me).size());
        load_fewest_hop_routes(router_, machine_.topology, me, peer, send.bytes, link_bytes_);
      }
    }
    const auto busiest = busiest_link_direction(machine_, link_bytes_, between_switches_);
    return {std::move(order), locality, hop_bytes * double(trace_.mesh.size()) / double(sampled_.size()),
            busiest ? busiest->seconds : 0.0};
  }

 private:
  const workload::Trace& trace_;
  const topology::Machine& machine_;
  topology::Router router_;
  std::vector<uint64_t> sampled_;
  std::vector<std::vector<RankTraffic::Send>> sends_;  ///< per sampled rank
  std::vector<double> link_bytes_;                     ///< per link direction, B
  std::vector<char> between_switches_;                 ///< per link
};

/// The text of Placement::layout: what the search chose, or that it kept linear.
std::string decision(const workload::Mesh& mesh, const LayoutSearch& search) {
  const MeshLayout& layout = search.layouts[search.chosen];
  const size_t n = search.layouts.size();
  const std::string of_layouts = "of " + std::to_string(n) + (n == 1 ? " layout" : " layouts");
  const std::string margin = std::to_string(int(100 * kLayoutMargin)) + "%";
  if (search.chosen == 0)
    return "kept the linear layout (" + describe(mesh, layout) + "): no layout has both " + margin +
           " fewer hop-bytes and a " + margin + " less loaded busiest switch-to-switch link, " + of_layouts;
  const MeshLayout& linear = search.layouts.front();
  char saving[96];
  std::snprintf(saving, sizeof saving,
                ": estimated hop-bytes %.1f%% and busiest switch-to-switch link %.1f%% below linear's, ",
                100.0 * (1.0 - layout.hop_bytes / linear.hop_bytes),
                linear.max_fabric_link_seconds > 0
                    ? 100.0 * (1.0 - layout.max_fabric_link_seconds / linear.max_fabric_link_seconds)
                    : 0.0);
  return describe(mesh, layout) + saving + of_layouts;
}

}  // namespace

LayoutSearch search_mesh_layouts(const workload::Trace& trace, const topology::Machine& machine,
                                 uint64_t samples, double margin) {
  LayoutScorer scorer(trace, machine, samples);
  const std::vector<topology::NodeId>& listed = machine.topology.units();
  const std::vector<topology::NodeId> local = topology::locality_order(machine);
  LayoutSearch search;
  for (auto& order : axis_orders(trace.mesh)) search.layouts.push_back(scorer.score(order, listed, false));
  if (local != listed)  // else the same layouts again
    for (auto& order : axis_orders(trace.mesh)) search.layouts.push_back(scorer.score(order, local, true));

  const MeshLayout& linear = search.layouts.front();
  for (size_t i = 1; i < search.layouts.size(); ++i) {
    const MeshLayout& l = search.layouts[i];
    const bool better = l.hop_bytes < (1.0 - margin) * linear.hop_bytes &&
                        (l.max_fabric_link_seconds < (1.0 - margin) * linear.max_fabric_link_seconds ||
                         (linear.max_fabric_link_seconds == 0 && l.max_fabric_link_seconds == 0));
    if (better && (search.chosen == 0 || l.hop_bytes < search.layouts[search.chosen].hop_bytes))
      search.chosen = i;
  }
  return search;
}

Placement TopologyAwarePlacement::place(const PlacementRequest& request) const {
  require_enough_units(request.trace.mesh, request.machine);
  const auto search = search_mesh_layouts(request.trace, request.machine);
  const MeshLayout& layout = search.layouts[search.chosen];
  const auto units =
      layout.locality_units ? topology::locality_order(request.machine) : request.machine.topology.units();
  const SlotMap slots(request.trace.mesh, layout.axis_order);
  std::vector<topology::NodeId> unit_of_rank(request.trace.mesh.size());
  for (uint64_t r = 0; r < unit_of_rank.size(); ++r) unit_of_rank[r] = units[slots.slot(r)];
  Placement p = place_on_units(std::move(unit_of_rank), request.machine);
  p.layout = decision(request.trace.mesh, search);
  return p;
}

}  // namespace zs::policy
