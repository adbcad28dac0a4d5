// Recovery "wait-for-repair": every failed part is repaired before the job restarts on it.
#pragma once

#include "policy/recovery/recovery_policy.hpp"

namespace zs::policy {

/// Never uses spares: the job restarts from its checkpoint once the failed part is back (the baseline a
/// spare pool is weighed against).
class WaitForRepairRecovery : public RecoveryPolicy {
 public:
  RecoveryAction choose(const RankLoss&) const override { return RecoveryAction::kWaitForRepair; }
};

}  // namespace zs::policy
