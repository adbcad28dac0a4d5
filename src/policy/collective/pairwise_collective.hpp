// All-to-all schedules (direct and pairwise exchange), shared by the collective policies.
#pragma once

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// What member s sends to member d in an all-to-all, B: peer_bytes[s][d], or S/n without them.
double all_to_all_bytes(const CollectiveRequest& request, uint32_t s, uint32_t d);

/// Every member sends to every other member at once (one step): on a non-blocking switch with links
/// of bandwidth B and latency alpha, a uniform all-to-all takes alpha + (n-1)/n S/B. This is what
/// NCCL does for all-to-all whatever algorithm it uses for reductions.
CollectiveSchedule direct_all_to_all(const CollectiveRequest& request);

/// n-1 steps; in step k member i sends to member (i+k) mod n once its step k-1 send is done. Fewer
/// flows at a time than direct (n instead of n(n-1)), at the cost of (n-1) alpha.
CollectiveSchedule pairwise_all_to_all(const CollectiveRequest& request);

/// The policy that schedules all-to-all by pairwise exchange and everything else as the ring does.
class PairwiseCollective final : public CollectivePolicy {
 public:
  std::string_view name() const override { return "pairwise"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  /// Its all-to-all: each member's step waits for the previous step of its two ends only.
  bool members_advance_independently(const CollectiveRequest& request) const override {
    return request.kind == workload::CollectiveKind::kAllToAll;
  }
};

}  // namespace zs::policy
