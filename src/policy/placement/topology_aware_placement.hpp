// The topology-aware placement: of the mesh layouts (axis nestings over the listed or the locality order
// of units), the one with the fewest hop-bytes that also relieves the busiest switch-to-switch link.
#pragma once

#include <cstdint>
#include <vector>

#include "policy/placement/placement_policy.hpp"

namespace zs::policy {

/// One way to lay the mesh out: ranks ordered by their coordinates with the axes nested as in
/// `axis_order` (outermost first, the last fastest), onto the units in one of two orders.
struct MeshLayout {
  std::vector<size_t> axis_order;  ///< indices of the mesh's axes, outermost first
  bool locality_units = false;     ///< topology::locality_order instead of the topology's order
  double hop_bytes = 0;            ///< estimated from the sampled ranks, scaled to all ranks, B
  /// The sampled ranks' bytes on the busiest direction of a link between two switches, over its
  /// bandwidth, s (not scaled: a figure to compare layouts by, not an iteration's). Links of units are
  /// left out: every byte a unit sends crosses its own links wherever its peers are.
  double max_fabric_link_seconds = 0;
};

/// Every layout it considered, in the order considered (the first is the linear placement's: the mesh's
/// own axis order on the topology's unit order), and the index of the chosen one.
struct LayoutSearch {
  std::vector<MeshLayout> layouts;
  size_t chosen = 0;
};

/// How much cheaper (a fraction of the linear layout's estimate) a layout must be to be chosen.
inline constexpr double kLayoutMargin = 0.02;

/// Considers every nesting order of the mesh axes longer than 1 (axes of size 1 stay where they are),
/// on the topology's unit order and on its locality order, and estimates each layout's hop-bytes
/// from `samples` ranks spread over the job (the same ranks for every layout): bytes each sends per
/// iteration times the links on the fewest-hop route to each destination (see RankTraffic), and the
/// time of the busiest switch-to-switch link direction under those sends spread over the fewest-hop
/// routes. The layout with the fewest hop-bytes among those at least `margin` (a fraction) below the
/// first on both figures (or with no switch-to-switch traffic, as the first) is chosen, else the
/// first. Both, because fewer hop-bytes alone can concentrate traffic that the linear layout spreads
/// (moe-ep-64: 4.6% fewer hop-bytes, the same busiest circuit, a 12% slower simulated iteration); the
/// margin, because a sampled estimate should not move ranks for less than its own error.
LayoutSearch search_mesh_layouts(const workload::Trace& trace, const topology::Machine& machine,
                                 uint64_t samples = 128, double margin = kLayoutMargin);

/// Tensor-parallel groups end up inside one NVLink domain, pipeline neighbours close and all-to-all
/// groups packed, to the extent that they carry the most bytes: search_mesh_layouts decides. The
/// placement's `layout` line says which axis order and unit order it chose and the estimated saving.
class TopologyAwarePlacement final : public PlacementPolicy {
 public:
  std::string_view name() const override { return "topology-aware"; }
  Placement place(const PlacementRequest& request) const override;
};

}  // namespace zs::policy
