// What one replay of a training iteration measured.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/fidelity.hpp"
#include "core/units.hpp"
#include "engine/replay_timeline.hpp"

namespace zs::engine {

/// Where one rank's time went during the iteration [0, iteration time].
struct RankBreakdown {
  core::Seconds finish;           ///< when the rank's last op completed, s
  core::Seconds compute;          ///< time with at least one compute op running, s
  /// Time with a collective's transfers under way (its members all joined) and no compute running, s.
  core::Seconds exposed_comm;
  core::Seconds pipeline_bubble;  ///< waiting on a point-to-point transfer, nothing above running, s
  core::Seconds memory_stall;     ///< time with a memory move in flight and nothing above running, s
  /// Time in a collective before its last member joined (waiting for the others: a pipeline's last stage
  /// at the gradient norm's all-reduce), nothing above running, s: waiting, not communication.
  core::Seconds collective_wait;
  core::Seconds idle;  ///< the rest of the iteration, s
  /// Per communicator the rank used: the time its collectives' transfers were under way and no compute
  /// ran, s (their waiting for members to join is collective_wait's).
  /// Collectives on different communicators may overlap, so these need not add up to exposed_comm.
  std::vector<std::pair<std::string, core::Seconds>> exposed_by_communicator;
  uint64_t rank = 0;        ///< which rank this is
  uint64_t stands_for = 1;  ///< ranks it stands for: 1 in exact fidelity, the multiplicity in collapsed
};

struct ReplayResult {
  core::Seconds iteration_time;  ///< when the last rank finished, s
  uint64_t critical_rank = 0;    ///< the rank that finished last (lowest id on ties)
  size_t critical_slot = 0;      ///< its index in `ranks`
  /// One entry per simulated rank: every rank in exact fidelity, the representatives in collapsed.
  std::vector<RankBreakdown> ranks;
  core::Fidelity fidelity = core::Fidelity::kExact;  ///< kExact or kCollapsed
  std::vector<std::string> collapsed_axes;           ///< collapsed: the mesh axes merged
  /// Collapsed: expert routing drawn per call made every rank differ, so every rank was simulated.
  bool every_rank_for_routing = false;
  /// Collapsed: collectives whose members were all simulated ran transfer by transfer as charges.
  uint64_t transfer_level_collectives = 0;
  uint64_t analytic_costs = 0;       ///< collapsed: distinct transfer patterns costed analytically
  uint64_t routes_computed = 0;      ///< collapsed: distinct (source, destination) routes walked
  uint64_t distance_maps = 0;        ///< collapsed: breadth-first searches the router ran
  uint64_t compute_activities = 0;   ///< compute activities simulated
  uint64_t transfer_activities = 0;  ///< network transfers simulated (collectives)
  uint64_t memory_activities = 0;    ///< moves between units and memory pools simulated
  uint64_t p2p_activities = 0;       ///< point-to-point transfers simulated
  uint64_t collectives = 0;          ///< collective instances (one per communicator group and call)
  uint64_t circuit_waits = 0;        ///< transfers held until an optical circuit on their route was up
  std::vector<std::string> collective_algorithms;  ///< distinct algorithms the policy chose
  /// Bytes each link carried, per direction: [2 l] from its node a to b, [2 l + 1] from b to a, B.
  std::vector<double> link_bytes;
  /// Every op's span, point-to-point pairs and link transfers; only when SimulationEvents asked for it.
  std::shared_ptr<const ReplayTimeline> timeline;

  const RankBreakdown& critical() const { return ranks.at(critical_slot); }
};

}  // namespace zs::engine
