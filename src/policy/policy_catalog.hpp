// The explicit lists of built-in policies, one per family, each open to additions (plugins) at run time.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "policy/collective/collective_registry.hpp"
#include "policy/placement/placement_policy.hpp"
#include "policy/recovery/checkpoint_policy.hpp"
#include "policy/recovery/recovery_policy.hpp"

namespace zs::policy {

struct PolicyInfo {
  std::string family;  ///< "placement", "collective" or "recovery"
  std::string name;
  std::string description;
};

/// Every built-in placement, collective and recovery policy with its description.
std::vector<PolicyInfo> builtin_policies();

/// An explicit rank-to-unit map for the "from-file" placement.
struct PlacementMap {
  std::string file;                     ///< where it was read from, for errors
  std::vector<std::string> unit_names;  ///< the unit of each rank, in rank order
};

/// Makes a placement policy; `map` is the scenario's placement map, or nullptr when it gives none.
using PlacementFactory = std::function<std::unique_ptr<PlacementPolicy>(const PlacementMap* map)>;
using PlacementRegistry = core::Registry<PlacementFactory>;
using CheckpointRuleRegistry = core::Registry<CheckpointRule>;

/// The families' names, as messages and `zettasim list` write them.
inline constexpr const char* kPlacementFamily = "placement policy";
inline constexpr const char* kCheckpointRuleFamily = "checkpoint interval rule";
inline constexpr const char* kRecoveryFamily = "recovery policy";

/// The built-in placement policies (family "placement policy"), one line each.
PlacementRegistry builtin_placement_policies();
/// The built-in collective policies (family "collective policy"), one line each.
CollectiveRegistry builtin_collective_policies();
/// The checkpoint interval rules (family "checkpoint interval rule"): daly, young.
CheckpointRuleRegistry builtin_checkpoint_rules();
/// The built-in recovery policies (family "recovery policy"): replace, shrink, wait-for-repair.
RecoveryRegistry builtin_recovery_policies();

/// A plugin whose policies a catalog holds.
struct LoadedPlugin {
  std::string name;  ///< the plugin's own name
  std::string file;  ///< the shared library, as an absolute path
};

/// Every policy family, as one object a front end builds once and may add plugins to.
struct PolicyCatalog {
  PlacementRegistry placement = builtin_placement_policies();
  CollectiveRegistry collective = builtin_collective_policies();
  CheckpointRuleRegistry checkpoint_rule = builtin_checkpoint_rules();
  RecoveryRegistry recovery = builtin_recovery_policies();
  /// The plugins loaded into it, in load order.
  std::vector<LoadedPlugin> plugins = {};

  /// A catalog with no entries in any family: what a plugin's entry point is handed to fill.
  static PolicyCatalog empty();
  /// The loaded plugin whose file is `file` (an absolute path), or nullptr.
  const LoadedPlugin* plugin_from(const std::string& file) const;
};

/// Makes the placement policy `name` of `placements`. Throws std::out_of_range, whose message lists the
/// known names, for an unknown name, and std::invalid_argument for "from-file" without a map.
std::unique_ptr<PlacementPolicy> make_placement_policy(const PlacementRegistry& placements,
                                                       const std::string& name,
                                                       const PlacementMap* map = nullptr);
/// The same among the built-ins.
std::unique_ptr<PlacementPolicy> make_placement_policy(const std::string& name,
                                                       const PlacementMap* map = nullptr);
/// Makes the collective policy `name` of `collectives` (wrapped in ProtocolChoice when options.protocol
/// is not Simple); throws std::out_of_range for an unknown name.
std::unique_ptr<CollectivePolicy> make_collective_policy(const CollectiveRegistry& collectives,
                                                         const std::string& name,
                                                         const CollectiveOptions& options = {});
/// The same among the built-ins.
std::unique_ptr<CollectivePolicy> make_collective_policy(const std::string& name,
                                                         const CollectiveOptions& options = {});

}  // namespace zs::policy
