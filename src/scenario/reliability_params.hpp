// The keys of a scenario's reliability section and of the objects inside it.
#pragma once

#include "core/choice_names.hpp"
#include "core/param_table.hpp"

namespace zs::scenario {

/// Where a checkpoint's "target" puts it: the machine's memory pools, or each rank's peer's memory (two
/// tiers; the checkpoint section's only).
enum class CheckpointTarget : uint8_t { kMemoryPools, kPeerMemory };
/// "memory-pools", "peer-memory".
const core::ChoiceNames<CheckpointTarget>& checkpoint_targets();
/// Whether checkpoints block training for the write, or take a snapshot that drains in the background.
enum class CheckpointMode : uint8_t { kSync, kAsync };
/// "sync", "async".
const core::ChoiceNames<CheckpointMode>& checkpoint_modes();
/// Where spares come from besides a pool of their own ("from"): the machine's units the job leaves idle.
enum class SpareSource : uint8_t { kIdleUnits };
/// "idle-units".
const core::ChoiceNames<SpareSource>& spare_sources();

/// The section: failure_rates, horizon, seeds, checkpoint, detection, restart, repair, spares, recovery,
/// events, degradations, stragglers.
const core::ParamTable& reliability_params();
/// "checkpoint": interval, where checkpoints go (bandwidth, target or file_system; persistent and
/// peer_offset for peer memory), mode and snapshot_bandwidth.
const core::ParamTable& checkpoint_params();
/// A persistent checkpoint tier: one of bandwidth, target "memory-pools" or file_system.
const core::ParamTable& checkpoint_store_params();
/// "spares": a pool of units, or the machine's idle units; the swap time.
const core::ParamTable& spares_params();
/// One scripted failure: at, component, instance.
const core::ParamTable& scripted_failure_params();
/// One degradation: at, for, and a unit with its slowdown or a link with its bandwidth fraction.
const core::ParamTable& degradation_params();
/// "stragglers": per_unit_mtbf, slowdown, duration.
const core::ParamTable& straggler_params();

}  // namespace zs::scenario
