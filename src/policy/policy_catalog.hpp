// The one explicit list of built-in policies, looked up by kebab-case name.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "policy/collective_policy.hpp"
#include "policy/placement_policy.hpp"

namespace zs::policy {

struct PolicyInfo {
  std::string family;  ///< "placement" or "collective"
  std::string name;
  std::string description;
};

/// Every built-in policy with its description.
std::vector<PolicyInfo> builtin_policies();

/// Throws std::out_of_range, whose message lists the known names, for an unknown name.
std::unique_ptr<PlacementPolicy> make_placement_policy(const std::string& name);
std::unique_ptr<CollectivePolicy> make_collective_policy(const std::string& name);

}  // namespace zs::policy
