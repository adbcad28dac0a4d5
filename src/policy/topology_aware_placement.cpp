// Topology-aware placement by a search over mesh layouts.
#include "policy/topology_aware_placement.hpp"

#include <algorithm>
#include <cstdio>

#include "core/splitmix.hpp"
#include "policy/placement_cost.hpp"
#include "policy/rank_traffic.hpp"
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

}  // namespace

LayoutSearch search_mesh_layouts(const workload::Trace& trace, const topology::Machine& machine,
                                 uint64_t samples, double margin) {
  const uint64_t ranks = trace.mesh.size();
  const RankTraffic traffic(trace);
  // The sampled ranks: one at a seeded offset inside each of `samples` equal spans of ranks, so that
  // the sample does not alias with the mesh's strides.
  std::vector<uint64_t> sampled;
  const uint64_t count = std::max<uint64_t>(1, std::min(samples, ranks));
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t begin = i * ranks / count, end = (i + 1) * ranks / count;
    sampled.push_back(begin + core::splitmix64(i) % std::max<uint64_t>(1, end - begin));
  }
  std::vector<std::vector<RankTraffic::Send>> sends(sampled.size());
  for (size_t i = 0; i < sampled.size(); ++i) traffic.sends_of(sampled[i], sends[i]);

  const std::vector<topology::NodeId> unit_orders[2] = {machine.topology.units(),
                                                        topology::locality_order(machine)};
  topology::Router router(machine.topology, topology::PathSelection::kLowestId);
  std::vector<double> link_bytes(2 * machine.topology.links().size());  ///< per link direction, B
  std::vector<char> fabric;                                             ///< per link: between two switches
  for (const auto& link : machine.topology.links())
    fabric.push_back(machine.topology.node(link.a).kind == topology::NodeKind::kSwitch &&
                     machine.topology.node(link.b).kind == topology::NodeKind::kSwitch);
  LayoutSearch search;
  for (int locality = 0; locality < 2; ++locality) {
    const auto& units = unit_orders[locality];
    if (locality == 1 && units == unit_orders[0]) continue;  // the same layouts again
    for (auto& order : axis_orders(trace.mesh)) {
      const SlotMap slots(trace.mesh, order);
      double hop_bytes = 0;
      std::fill(link_bytes.begin(), link_bytes.end(), 0.0);
      for (size_t i = 0; i < sampled.size(); ++i) {
        const auto me = units[slots.slot(sampled[i])];
        for (const auto& send : sends[i]) {
          const auto peer = units[slots.slot(send.peer)];
          if (send.bytes <= 0 || peer == me) continue;
          hop_bytes += send.bytes * double(router.route(peer, me).size());
          load_fewest_hop_routes(router, machine.topology, me, peer, send.bytes, link_bytes);
        }
      }
      double max_fabric_link_seconds = 0;
      for (size_t d = 0; d < link_bytes.size(); ++d)
        if (link_bytes[d] > 0 && fabric[d / 2])
          max_fabric_link_seconds =
              std::max(max_fabric_link_seconds,
                       link_bytes[d] / machine.link_bandwidth(topology::LinkId(d / 2)).value());
      search.layouts.push_back({std::move(order), locality == 1, hop_bytes * double(ranks) / double(count),
                                max_fabric_link_seconds});
    }
  }
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
  const size_t n = search.layouts.size();
  const std::string of_layouts = "of " + std::to_string(n) + (n == 1 ? " layout" : " layouts");
  const std::string margin = std::to_string(int(100 * kLayoutMargin)) + "%";
  if (search.chosen == 0) {
    p.layout = "kept the linear layout (" + describe(request.trace.mesh, layout) + "): no layout has both " +
               margin + " fewer hop-bytes and a " + margin + " less loaded busiest switch-to-switch link, " +
               of_layouts;
  } else {
    const MeshLayout& linear = search.layouts.front();
    char saving[96];
    std::snprintf(saving, sizeof saving,
                  ": estimated hop-bytes %.1f%% and busiest switch-to-switch link %.1f%% below linear's, ",
                  100.0 * (1.0 - layout.hop_bytes / linear.hop_bytes),
                  linear.max_fabric_link_seconds > 0
                      ? 100.0 * (1.0 - layout.max_fabric_link_seconds / linear.max_fabric_link_seconds)
                      : 0.0);
    p.layout = describe(request.trace.mesh, layout) + saving + of_layouts;
  }
  return p;
}

}  // namespace zs::policy
