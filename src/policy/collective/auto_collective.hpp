// The `auto` collective policy: picks an algorithm per collective from alpha-beta cost estimates.
#pragma once

#include <memory>

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// Estimates each algorithm's time with its closed form (collectives.md), taking alpha as the slowest
/// route latency and B as the narrowest route bandwidth from any member to member 0 on the machine's
/// topology (inside one domain and between domains for the hierarchical estimate), and schedules the
/// cheapest: ring, recursive (Rabenseifner), binomial tree or double binary tree for all-reduce; ring or
/// recursive (power-of-two groups) for reduce-scatter and all-gather; in-network when the members share
/// a reducing switch and hierarchical when they form equal domains, for all three; tree for broadcast
/// and reduce; direct for all-to-all (hierarchical all-to-all is chosen by naming it). Ties go to the
/// earliest in that order. The schedule's algorithm reads "auto:<picked>", so a run reports what was
/// chosen. The estimate ignores contention between collectives and the ring's neighbour locality, as
/// NCCL's tuner ignores the first.
class AutoCollective final : public CollectivePolicy {
 public:
  explicit AutoCollective(CollectiveOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "auto"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  std::pair<std::string, std::vector<RepeatedStep>> steps(const CollectiveRequest& request) const override;

 private:
  /// The policy with the cheapest estimate for a collective other than all-to-all.
  std::unique_ptr<CollectivePolicy> choose(const CollectiveRequest& request) const;
  CollectiveOptions options_;
};

}  // namespace zs::policy
