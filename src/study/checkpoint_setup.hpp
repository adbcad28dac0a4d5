// What a checkpoint costs on the placed job: its store's bandwidth, or a snapshot to peer memory simulated
// by the engine and the persistent tier it drains to.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "policy/placement/placement_policy.hpp"
#include "policy/policy_catalog.hpp"
#include "reliability/goodput_simulator.hpp"
#include "scenario/scenario.hpp"

namespace zs::study {

/// The checkpoint, as the report and goodput.json state it.
struct CheckpointDescription {
  std::string text;     ///< one line: size, where, cost
  nlohmann::json json;  ///< the figures, seconds and bytes
};

/// What checkpoints cost the job, as a goodput run takes them.
struct CheckpointSetup {
  CheckpointDescription description;
  core::Seconds cost{0};   ///< a blocking checkpoint, or the snapshot of an asynchronous or peer one
  core::Seconds drain{0};  ///< an asynchronous checkpoint's background write; 0: synchronous
  /// Two tiers: snapshots in peer memory, drained to a persistent one; null: one tier.
  std::shared_ptr<const reliability::PeerCheckpoints> peer;
};

/// The checkpoint's costs from the reliability section's checkpoint store. `state` is what the distributed
/// checkpoint writes over all ranks, B (workload::Trace::checkpoint_size). Peer memory needs a
/// data-parallel axis and, in every rank's HBM beside its footprint, room for its own snapshot and its
/// peer's; a file system needs room for two checkpoints (the last complete one while the next is written).
/// Otherwise core::InputError at /reliability/checkpoint.
CheckpointSetup checkpoint_setup(const scenario::Scenario& s, const std::string& file,
                                 const policy::Placement& placement, double state,
                                 const policy::PolicyCatalog& policies);

}  // namespace zs::study
