// How busy compute units, links and memory pools were over one replayed iteration.
#pragma once

#include <cstdint>
#include <string>

#include "engine/replay_result.hpp"
#include "topology/machine.hpp"

namespace zs::engine {

/// How busy the parts were over the iteration, as fractions of the iteration time (compute) or of
/// bandwidth x iteration time (links, one direction; pools, all ports).
struct Utilization {
  double compute_mean = 0, compute_min = 0, compute_max = 0;  ///< over ranks
  uint64_t compute_min_rank = 0;
  double link_max = 0;           ///< the busiest link direction
  std::string link_max_name;     ///< "node a -> node b"
  double link_mean_active = 0;   ///< over link directions that carried anything
  uint64_t links_over_half = 0;  ///< link directions busier than 50%
  uint64_t links_active = 0;     ///< link directions that carried anything
  double pool_max = 0;           ///< the busiest memory pool (bytes over the pool's ports)
};

/// Compute: each rank's compute time over the iteration time. Links: the bytes each direction carried
/// (ReplayResult::link_bytes) over its bandwidth x the iteration time. Pools: the bytes through a pool's
/// links over its ports x port bandwidth. Needs an iteration time > 0.
Utilization utilization_of(const topology::Machine& machine, const ReplayResult& replay);

}  // namespace zs::engine
