// The recovery policy family: what replaces the ranks a failed part stops.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "core/registry.hpp"

namespace zs::policy {

/// What a recovery policy sees of one failure that stops ranks whose units must be replaced (a failed
/// unit, host, rack, switch or power domain, or a link whose loss cuts ranks off the job).
struct RankLoss {
  uint64_t ranks = 0;           ///< ranks the failure stops (at least one)
  uint64_t spares_in_hand = 0;  ///< units ready to take them now: hot spares, or the machine's idle units
  /// Data-parallel replicas a shrink would drop until the repair: those the stopped ranks belong to (one
  /// already dropped stays out until this repair too); 0 when shrinking is not possible: the policy does
  /// not shrink (may_shrink), or no replica would be left running.
  uint64_t replicas_to_drop = 0;
  uint64_t replicas_running = 0;  ///< data-parallel replicas running now (0 when the policy does not shrink)
  double swap = 0;                ///< putting spares in place of the stopped ranks' units, s
  double repair = 0;              ///< a failed part back in service, s
};

/// What the job does about a RankLoss. Every choice restarts from the last good checkpoint; they differ in
/// what the job waits for and runs on afterwards.
enum class RecoveryAction {
  kReplace,  ///< spares take the ranks (swap, or re-placement onto idle units); too few: as kWaitForRepair
  kShrink,   ///< go on without the replicas_to_drop replicas until the repair (no wait)
  kWaitForRepair,  ///< wait for the failed part's repair, the ranks staying where they are
};

/// A recovery policy: one choice per failure. Built in: replace, shrink, wait-for-repair
/// (policy_catalog); plugins add more to the same registry.
class RecoveryPolicy {
 public:
  virtual ~RecoveryPolicy() = default;
  /// What to do about `loss`. kShrink is only valid where loss.replicas_to_drop > 0.
  virtual RecoveryAction choose(const RankLoss& loss) const = 0;
  /// Whether it ever chooses kShrink: the job then needs a data-parallel axis of 2 or more, and the
  /// simulation keeps each rank's replica.
  virtual bool may_shrink() const { return false; }
};

/// Makes a recovery policy (recovery policies take no options).
using RecoveryFactory = std::function<std::unique_ptr<RecoveryPolicy>()>;
using RecoveryRegistry = core::Registry<RecoveryFactory>;

}  // namespace zs::policy
