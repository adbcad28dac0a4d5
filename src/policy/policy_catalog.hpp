// The one explicit list of built-in policies, looked up by kebab-case name.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "policy/collective/collective_policy.hpp"
#include "policy/placement/placement_policy.hpp"

namespace zs::policy {

struct PolicyInfo {
  std::string family;  ///< "placement" or "collective"
  std::string name;
  std::string description;
};

/// Every built-in policy with its description.
std::vector<PolicyInfo> builtin_policies();

/// An explicit rank-to-unit map for the "from-file" placement.
struct PlacementMap {
  std::string file;                     ///< where it was read from, for errors
  std::vector<std::string> unit_names;  ///< the unit of each rank, in rank order
};

/// Throws std::out_of_range, whose message lists the known names, for an unknown name, and
/// std::invalid_argument for "from-file" without a map.
std::unique_ptr<PlacementPolicy> make_placement_policy(const std::string& name,
                                                       const PlacementMap* map = nullptr);
/// `options` set the chunking of the pipelined algorithms (in-network, double-binary-tree, and auto's
/// use of them).
std::unique_ptr<CollectivePolicy> make_collective_policy(const std::string& name,
                                                         const CollectiveOptions& options = {});

}  // namespace zs::policy
