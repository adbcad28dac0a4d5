// Placements of a loaded scenario's job by one or more policies, and what each costs the fabric,
// without simulating.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "policy/placement/placement_cost.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/scenario.hpp"

namespace zs::study {

/// One policy's placement and its cost.
struct PlacementStudy {
  std::string policy;
  std::string layout;  ///< what the policy chose and why; empty when it says nothing
  policy::PlacementCost cost;
};

/// Places the job with each named policy (empty: the scenario's own) and costs it on at most `sample`
/// ranks (every k-th, scaled up). An unknown policy name is an input error naming `names_source`.
std::vector<PlacementStudy> study_placements(const scenario::Scenario& s, std::vector<std::string> names,
                                             uint64_t sample, const std::string& names_source,
                                             const policy::PolicyCatalog& policies = {});

}  // namespace zs::study
