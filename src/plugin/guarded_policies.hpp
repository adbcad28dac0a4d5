// Policies from a plugin, wrapped so that what they throw is reported as that plugin's error.
#pragma once

#include <memory>
#include <string>

#include "policy/policy_catalog.hpp"

namespace zs::plugin {

/// Who a wrapped policy comes from, for messages: "FILE: collective policy \"x\" of this plugin failed: ...".
struct PolicyOrigin {
  std::string plugin_file;
  std::string family;  ///< policy::kPlacementFamily, ...
  std::string name;
};

/// The factories of a plugin's entries, wrapped: each policy they make guards its calls. A core::InputError
/// a policy throws passes through (the plugin refused the input, with its own message); any other exception
/// becomes a core::InputError naming the plugin's file, the policy and what it threw. A checkpoint rule's
/// interval (s, from the MTBF and checkpoint cost in s) must be finite and positive; a recovery policy's
/// choice one of RecoveryAction's, and kShrink only where the loss has replicas to drop.
policy::PlacementFactory guarded_placement_factory(policy::PlacementFactory make, PolicyOrigin origin);
policy::CollectiveFactory guarded_collective_factory(policy::CollectiveFactory make, PolicyOrigin origin);
policy::CheckpointRule guarded_checkpoint_rule(policy::CheckpointRule rule, PolicyOrigin origin);
policy::RecoveryFactory guarded_recovery_factory(policy::RecoveryFactory make, PolicyOrigin origin);

}  // namespace zs::plugin
