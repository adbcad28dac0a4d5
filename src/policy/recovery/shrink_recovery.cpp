// Recovery "shrink": spares, else fewer replicas, else the repair.
#include "policy/recovery/shrink_recovery.hpp"

namespace zs::policy {

RecoveryAction ShrinkRecovery::choose(const RankLoss& loss) const {
  if (loss.spares_in_hand >= loss.ranks) return RecoveryAction::kReplace;
  return loss.replicas_to_drop > 0 ? RecoveryAction::kShrink : RecoveryAction::kWaitForRepair;
}

}  // namespace zs::policy
