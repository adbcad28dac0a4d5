// Recursive halving and doubling (Rabenseifner) and binomial-tree collectives.
#pragma once

#include "policy/collective_policy.hpp"

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

/// Binomial tree rooted at member 0: reduce in ceil(lg n) steps (step j: members at odd multiples of
/// 2^j send the full buffer S to the member 2^j below), broadcast the reverse, all-reduce = reduce then
/// broadcast: 2 ceil(lg n) (alpha + S/B) on uncontended links when n is a power of two (members do not
/// wait for a step to end everywhere, so otherwise the latency term is the deepest path, max popcount(i)
/// hops); latency-optimal for small messages.
/// Not pipelined (NCCL's double binary tree pipelines chunks; not modelled yet). All-to-all direct.
class TreeCollective final : public CollectivePolicy {
 public:
  std::string_view name() const override { return "tree"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
};

}  // namespace zs::policy
