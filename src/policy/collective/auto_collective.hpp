// The `auto` collective policy: per collective, the catalog's policy with the least estimate.
#pragma once

#include <memory>
#include <vector>

#include "policy/collective/collective_registry.hpp"
#include "policy/collective/ring_collective.hpp"

namespace zs::policy {

/// Weighs every policy of the catalog it was made from that offers an estimate for a collective
/// (CollectivePolicy::estimate, each from the alpha-beta models of the members' routes that one
/// RouteMeasurements measures for them all; plugins included) and schedules the cheapest. Each estimate
/// is taken under the options' protocol, plus the policy's base latency under it (estimated_time); under
/// ProtocolSetting::kAuto under each protocol, keeping the least, so that algorithm and protocol are
/// picked together as NCCL's tuner picks them (ProtocolChoice then picks the protocol for the schedule).
/// Ties go to the earliest in the catalog's order. With CollectiveOptions::algorithms
/// (AlgorithmSet::kNccl), only the candidates NCCL implements for the request (nccl_algorithm) are
/// weighed. All-to-all is scheduled direct (the hierarchical all-to-all is chosen by naming it); a
/// collective no candidate estimates, and one of a single member, uses the ring. The schedule's algorithm
/// reads "auto:<picked>", so a run reports what was chosen. The estimates ignore contention between
/// collectives, as NCCL's tuner does. The built-in estimates are the closed forms of collectives.md.
class AutoCollective final : public CollectivePolicy {
 public:
  /// Chooses among the built-in collective policies (builtin_collective_policies).
  explicit AutoCollective(CollectiveOptions options = {});
  /// Chooses among `candidates`, in order of preference on a tie.
  AutoCollective(CollectiveOptions options, std::vector<std::unique_ptr<CollectivePolicy>> candidates);
  /// Every entry of `catalog` made with `options` (each with an empty catalog, so that a chooser among
  /// them has nothing to choose from and offers no estimate): what the `auto` entry chooses among.
  static std::vector<std::unique_ptr<CollectivePolicy>> candidates_of(const CollectiveRegistry& catalog,
                                                                      const CollectiveOptions& options);
  std::string_view name() const override { return "auto"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  std::pair<std::string, std::vector<RepeatedStep>> steps(const CollectiveRequest& request) const override;
  /// The picked algorithm's (none for all-to-all).
  std::optional<hw::LibraryAlgorithm> library_algorithm(const CollectiveRequest& request) const override;
  /// The picked algorithm's.
  std::optional<std::string> nccl_algorithm(const CollectiveRequest& request) const override;

 private:
  /// The candidate with the least estimate for a collective other than all-to-all.
  const CollectivePolicy& choose(const CollectiveRequest& request) const;
  CollectiveOptions options_;
  std::vector<std::unique_ptr<CollectivePolicy>> candidates_;
  RingCollective fallback_;
};

}  // namespace zs::policy
