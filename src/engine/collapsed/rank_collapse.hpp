// Which ranks collapsed fidelity simulates, and which ranks each of them stands for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workload/trace.hpp"

namespace zs::engine {

/// Collapsed fidelity simulates one representative per class of symmetric ranks: the ranks that run
/// the same role program and differ only in the coordinates of the collapsed axes. Kept are the role
/// axis and every axis a point-to-point op travels along (the pipeline); every other axis (data,
/// expert, context, tensor) is collapsed. A representative is the rank with coordinate 0 on every
/// collapsed axis. Expert routing drawn per call breaks that symmetry: each group draws its own loads,
/// so no two ranks compute alike. A trace with such a dispatch, at most kIndividualRanks ranks and
/// within exact fidelity's limits (within_exact_limits) therefore has every rank simulated (no axis
/// collapsed; engine::simulate runs exact fidelity instead); any other is collapsed all the same, and
/// its representatives estimate how long the hotter members of their groups compute (each takes its
/// group's largest expert load).
class RankCollapse {
 public:
  /// Expert dispatches over groups of at most this many members draw their routing per call, as exact
  /// fidelity does; larger ones draw once per dispatch shape.
  static constexpr uint64_t kRoutedPerCallMembers = 64;
  /// The same bound in (source, destination) pairs.
  static constexpr uint64_t kExactDispatchPairs = kRoutedPerCallMembers * kRoutedPerCallMembers;
  /// Traces with routing drawn per call, at most this many ranks and within exact fidelity's limits
  /// simulate every rank.
  static constexpr uint64_t kIndividualRanks = 4096;
  /// Collectives of at most this many members, all of them simulated, run transfer by transfer.
  static constexpr uint64_t kTransferLevelMembers = 64;
  /// Whether collective `c` over a group of `members` draws its expert routing per call.
  static bool routed_per_call(const workload::CollectiveOp& c, uint64_t members) {
    return c.dispatch && members * members <= kExactDispatchPairs;
  }

  /// When routing drawn per call may have every rank simulated: as above, or never (merge all the same).
  enum class EveryRank { kWhenAffordable, kNever };

  /// Plans the collapse of `trace`'s mesh: keeps the role axis and the point-to-point axes, or every
  /// axis (see above).
  explicit RankCollapse(const workload::Trace& trace, EveryRank every_rank = EveryRank::kWhenAffordable);

  const std::vector<size_t>& collapsed_axes() const { return collapsed_; }
  /// Names of the collapsed axes, in mesh order.
  std::vector<std::string> collapsed_axis_names() const;
  /// Whether every axis is kept because expert routing drawn per call makes every rank differ.
  bool every_rank_for_routing() const { return every_rank_for_routing_; }
  /// Representatives in ascending rank order.
  const std::vector<uint64_t>& representatives() const { return representatives_; }
  /// Ranks each representative stands for (itself included): the product of the collapsed axes' sizes.
  uint64_t multiplicity() const { return multiplicity_; }
  bool is_representative(uint64_t rank) const;
  /// The representatives in the group of `rank` over `axes` (ascending mesh axes), in group order.
  std::vector<uint64_t> representatives_in_group(uint64_t rank, const std::vector<size_t>& axes) const;
  /// Copies of a communicator group: the collapsed axes outside `axes`. Copy c (row-major over them,
  /// copy 0 = the group itself) of `rank` is `rank` with those coordinates set to c's.
  std::vector<size_t> copy_axes(const std::vector<size_t>& axes) const;
  uint64_t copy_count(const std::vector<size_t>& copy_axes) const;
  uint64_t copy_of(uint64_t rank, const std::vector<size_t>& copy_axes, uint64_t copy) const;

 private:
  const workload::Mesh& mesh_;
  std::vector<size_t> collapsed_;
  bool every_rank_for_routing_ = false;
  std::vector<uint64_t> representatives_;
  uint64_t multiplicity_ = 1;
};

}  // namespace zs::engine
