// The linear placement: rank r runs on the r-th unit in topology order, using the nearest memory pool.
#pragma once

#include "policy/placement/placement_policy.hpp"

namespace zs::policy {

class LinearPlacement final : public PlacementPolicy {
 public:
  std::string_view name() const override { return "linear"; }
  /// Requires at least as many units as ranks; units past the last rank stay idle.
  Placement place(const PlacementRequest& request) const override;
};

}  // namespace zs::policy
