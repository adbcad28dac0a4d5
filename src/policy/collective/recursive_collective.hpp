// Recursive halving and doubling (Rabenseifner) collectives.
#pragma once

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// Rabenseifner: reduce-scatter by recursive halving (step j: exchange S/2^(j+1) with the member at
/// distance n/2^(j+1)), all-gather by recursive doubling (the reverse), all-reduce = both: on
/// uncontended links 2 lg(n) alpha + 2 (n-1)/n S/B, reduce-scatter and all-gather half of it. A
/// member's step waits for its previous send and for what it received in the previous step. All-reduce
/// on a non-power-of-two n first folds the r = n - 2^k extra members onto the first r (a full-buffer
/// send) and returns the result to them at the end (2 alpha + 2 S/B more); reduce-scatter and all-gather
/// need a power of two. All-to-all is scheduled direct.
class RecursiveCollective final : public CollectivePolicy {
 public:
  std::string_view name() const override { return "recursive"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  /// Round by round at each round's own distance (RouteMeasurements::recursive_rounds): halving sends
  /// S/2, S/4, ... at distances p/2, p/4, ...; doubling S/p, 2S/p, ... at 1, 2, ...; a communicator that
  /// is not a power of two folds its extra members in and out (S each way, over RouteMeasurements::all).
  /// For all-reduce, and for reduce-scatter and all-gather on a power of two; none otherwise.
  std::optional<core::Seconds> estimate(const CollectiveRequest& request, hw::CollectiveProtocol protocol,
                                        RouteMeasurements& routes) const override;
};

}  // namespace zs::policy
