// When a rank was busy with each kind of op, and the time breakdown that follows from it.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/replay_result.hpp"

namespace zs::engine {

/// Intervals [start, end] in s during which a rank had an op of each kind in flight.
struct BusyTime {
  using Interval = std::pair<double, double>;
  std::vector<Interval> compute, collective, p2p, memory;
  /// In a collective before its last member joined.
  std::vector<Interval> collective_wait;
  std::vector<std::vector<Interval>> collective_by_communicator;  ///< indexed by communicator

  /// The breakdown of [0, iteration_end]: each category counts the time it is active and no category
  /// before it (compute, collective, p2p, memory, collective_wait) is; the rest is idle. `communicators` maps names to
  /// indices of collective_by_communicator. Leaves rank and stands_for at their defaults.
  RankBreakdown breakdown(double finish, double iteration_end,
                          const std::map<std::string, size_t>& communicators) const;
};

/// Length of the union of intervals, s.
double union_length(std::vector<BusyTime::Interval> intervals);

}  // namespace zs::engine
