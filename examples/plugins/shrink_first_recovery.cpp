// Example recovery plugin: shrink first, keeping the hot spares for failures a shrink cannot absorb.
#include <memory>

#include "policy/plugin_api.hpp"

namespace {

using zs::policy::RankLoss;
using zs::policy::RecoveryAction;

/// Drops the failed ranks' data-parallel replicas whenever one would still run (they rejoin after the
/// repair); swaps spares in only when shrinking is not possible; else waits for the repair. Against the
/// built-in "shrink" (spares first), it trades throughput while shrunk for spares kept in hand.
class ShrinkFirstRecovery : public zs::policy::RecoveryPolicy {
 public:
  RecoveryAction choose(const RankLoss& loss) const override {
    if (loss.replicas_to_drop > 0) return RecoveryAction::kShrink;
    return loss.spares_in_hand >= loss.ranks ? RecoveryAction::kReplace : RecoveryAction::kWaitForRepair;
  }
  bool may_shrink() const override { return true; }
};

void add_policies(zs::policy::PolicyCatalog& catalog) {
  catalog.recovery.add("shrink-first",
                       "shrink whenever a data-parallel replica would still run, spares only when it "
                       "would not, else wait for the repair (example plugin)",
                       [] { return std::make_unique<ShrinkFirstRecovery>(); });
}

}  // namespace

ZETTASIM_PLUGIN("example-recovery", add_policies)
