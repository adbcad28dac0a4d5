// The random placement: a baseline that scatters ranks over the machine's units.
#pragma once

#include "policy/placement/placement_policy.hpp"

namespace zs::policy {

/// Ranks on a uniformly random subset of the units in random order (Fisher-Yates with our own
/// SplitMix64 generator seeded by the scenario's seed: the same seed places the same way everywhere).
class RandomPlacement final : public PlacementPolicy {
 public:
  std::string_view name() const override { return "random"; }
  Placement place(const PlacementRequest& request) const override;
};

}  // namespace zs::policy
