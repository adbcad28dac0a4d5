// Binomial-tree collectives (latency-optimal for small messages).
#pragma once

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// Binomial tree rooted at member 0: reduce in ceil(lg n) steps (step j: members at odd multiples of
/// 2^j send the full buffer S to the member 2^j below), broadcast the reverse, all-reduce = reduce then
/// broadcast: 2 ceil(lg n) (alpha + S/B) on uncontended links when n is a power of two (members do not
/// wait for a step to end everywhere, so otherwise the latency term is the deepest path, max popcount(i)
/// hops); latency-optimal for small messages.
/// Not pipelined (the double-binary-tree policy pipelines chunks). All-to-all direct.
class TreeCollective final : public CollectivePolicy {
 public:
  std::string_view name() const override { return "tree"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  /// Broadcast and reduce depth alpha + ceil(lg n) S/B, all-reduce twice that, over
  /// RouteMeasurements::all (depth: max popcount(i) over the members); none for the other kinds.
  std::optional<core::Seconds> estimate(const CollectiveRequest& request, hw::CollectiveProtocol protocol,
                                        RouteMeasurements& routes) const override;
};

/// Hops on the longest path to the root of a binomial tree of n members: member i is popcount(i) hops
/// away. Members do not wait for a step to end everywhere, so this, not ceil(lg n), is the latency depth
/// when n is not a power of two.
double binomial_tree_depth(size_t n);

}  // namespace zs::policy
