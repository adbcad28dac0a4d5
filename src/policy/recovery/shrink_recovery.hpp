// Recovery "shrink" (elastic): spares when in hand, else go on without the failed ranks' replicas.
#pragma once

#include "policy/recovery/recovery_policy.hpp"

namespace zs::policy {

/// Swaps spares in when enough are in hand; otherwise drops the data-parallel replicas the failed ranks
/// belong to until the repair (they rejoin at no cost), unless none would be left; then waits.
class ShrinkRecovery : public RecoveryPolicy {
 public:
  RecoveryAction choose(const RankLoss& loss) const override;
  bool may_shrink() const override { return true; }
};

}  // namespace zs::policy
