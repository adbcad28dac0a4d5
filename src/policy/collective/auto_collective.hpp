// The `auto` collective policy: picks an algorithm per collective from alpha-beta cost estimates.
#pragma once

#include <memory>

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// Estimates each algorithm's time with its closed form (collectives.md), taking alpha as the slowest
/// route latency and B as the narrowest route bandwidth from any member to member 0 on the machine's
/// topology (inside one domain and between domains for the hierarchical estimate); for the ring's
/// neighbour steps and each round of recursive exchanges, B is the narrowest share a transfer gets when
/// all of the step's transfers cross their routes at once (a direction's bandwidth split among the
/// transfers crossing it: exchanges over several hops of a torus share links), for communicators of up
/// to 1,024 members. It schedules the
/// cheapest: ring, recursive (Rabenseifner), binomial tree or double binary tree for all-reduce; ring or
/// recursive (power-of-two groups) for reduce-scatter and all-gather; in-network when the members share
/// a reducing switch and hierarchical when they form equal domains, for all three; tree for broadcast
/// and reduce; direct for all-to-all (hierarchical all-to-all is chosen by naming it). Ties go to the
/// earliest in that order. The schedule's algorithm reads "auto:<picked>", so a run reports what was
/// chosen. The estimate ignores contention between collectives, as NCCL's tuner does. Each algorithm is
/// estimated under the options' protocol (alpha at least the protocol's step latency, B times its
/// bandwidth fraction), plus its base latency under it (collective_base_latency); under
/// ProtocolSetting::kAuto under each protocol, keeping the least, so that algorithm and protocol are picked
/// together as NCCL's tuner picks them (ProtocolChoice then picks the protocol for the schedule). With
/// CollectiveOptions::algorithms (AlgorithmSet::kNccl), only the candidates NCCL implements for the request
/// (nccl_algorithm) are weighed: the ring for broadcast and reduce, and no recursive, binomial-tree or
/// hierarchical schedule.
class AutoCollective final : public CollectivePolicy {
 public:
  explicit AutoCollective(CollectiveOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "auto"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  std::pair<std::string, std::vector<RepeatedStep>> steps(const CollectiveRequest& request) const override;
  /// The picked algorithm's (none for all-to-all).
  std::optional<hw::LibraryAlgorithm> library_algorithm(const CollectiveRequest& request) const override;
  /// The picked algorithm's.
  std::optional<std::string> nccl_algorithm(const CollectiveRequest& request) const override;

 private:
  /// The policy with the cheapest estimate for a collective other than all-to-all.
  std::unique_ptr<CollectivePolicy> choose(const CollectiveRequest& request) const;
  CollectiveOptions options_;
};

}  // namespace zs::policy
