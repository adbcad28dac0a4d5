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
};

}  // namespace zs::policy
