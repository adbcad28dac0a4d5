// Recovery "replace": spares take the failed ranks; without enough, the job waits for the repair.
#pragma once

#include "policy/recovery/recovery_policy.hpp"

namespace zs::policy {

/// Swaps spares in when enough are in hand (hot spares, or idle units the placement policy re-places the
/// ranks onto), else waits for the repair. The default; with no spares it always waits.
class ReplaceRecovery : public RecoveryPolicy {
 public:
  RecoveryAction choose(const RankLoss& loss) const override;
};

}  // namespace zs::policy
