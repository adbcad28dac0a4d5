// Recovery "replace": spares when enough are in hand, else the repair.
#include "policy/recovery/replace_recovery.hpp"

namespace zs::policy {

RecoveryAction ReplaceRecovery::choose(const RankLoss& loss) const {
  return loss.spares_in_hand >= loss.ranks ? RecoveryAction::kReplace : RecoveryAction::kWaitForRepair;
}

}  // namespace zs::policy
