// Parameter tables of the reliability section: checkpoints, spares, scripted events, degradations.
#include "scenario/reliability_params.hpp"

#include "scenario/reliability_setup.hpp"

namespace zs::scenario {

using core::Param;

const core::ParamTable& reliability_params() {
  static const core::ParamTable table(
      "reliability", "failures, checkpoints and recovery over a horizon of training (zettasim goodput)",
      {Param::text("failure_rates", "a failure-rates file, relative to this file"),
       Param::seconds("horizon", "wall-clock time of training simulated").positive(),
       Param::integer("seeds", 1, 100000, "Monte Carlo seeds (independent histories)"),
       Param::object("checkpoint", checkpoint_params(), "when and where checkpoints are written"),
       Param::seconds("detection",
                      "from a failure to the job knowing (default: PyTorch's NCCL watchdog timeout)")
           .or_default(core::to_string(core::Seconds(kDefaultDetection))),
       Param::seconds("restart", "re-initialization and loading the checkpoint (default: Daly 2006's R)")
           .or_default(core::to_string(core::Seconds(kDefaultRestart))),
       Param::seconds("repair", "until a failed part is replaced").positive(),
       Param::object("spares", spares_params(), "hot spares; left out, repairs are waited for").optional(),
       Param::text("recovery",
                   "a recovery policy (zettasim list): what replaces the ranks a failed part stops")
           .or_default("replace"),
       Param::list("events", scripted_failure_params(), "failures at given times; left out, none").optional(),
       Param::list("degradations", degradation_params(), "slow units or links for a while; left out, none")
           .optional(),
       Param::object("stragglers", straggler_params(), "units slowing down at random; left out, none")
           .optional()});
  return table;
}

const core::ChoiceNames<CheckpointTarget>& checkpoint_targets() {
  static const core::ChoiceNames<CheckpointTarget> names{{CheckpointTarget::kMemoryPools, "memory-pools"},
                                                         {CheckpointTarget::kPeerMemory, "peer-memory"}};
  return names;
}

const core::ChoiceNames<CheckpointMode>& checkpoint_modes() {
  static const core::ChoiceNames<CheckpointMode> names{{CheckpointMode::kSync, "sync"},
                                                       {CheckpointMode::kAsync, "async"}};
  return names;
}

const core::ChoiceNames<SpareSource>& spare_sources() {
  static const core::ChoiceNames<SpareSource> names{{SpareSource::kIdleUnits, "idle-units"}};
  return names;
}

const core::ParamTable& checkpoint_params() {
  static const core::ParamTable table(
      "reliability.checkpoint", "checkpoint interval, store and mode",
      {Param::text("interval", "a checkpoint rule (zettasim list) or a fixed time such as \"30min\""),
       Param::byte_rate("bandwidth", "the store's write and read bandwidth, all ranks together").optional(),
       Param::text("target", "\"memory-pools\" (the machine's pools) or \"peer-memory\" (two tiers)")
           .optional(),
       Param::text("file_system", "a file-system model file, relative to this file").optional(),
       Param::object("persistent", checkpoint_store_params(),
                     "peer-memory: the tier the peer copies drain to (required then)")
           .optional(),
       Param::integer(
           "peer_offset", 1, 1 << 30,
           "peer-memory: the peer is this many ranks round the data-parallel ring (left out, half)")
           .optional(),
       Param::choice("mode", checkpoint_modes().names(),
                     "sync: the job waits for the write; async: a snapshot, then a background drain")
           .noun("checkpoint mode")
           .or_default("sync"),
       Param::byte_rate("snapshot_bandwidth", "async: the blocking snapshot's bandwidth, all ranks together")
           .optional()});
  return table;
}

const core::ParamTable& checkpoint_store_params() {
  static const core::ParamTable table(
      "reliability.checkpoint.persistent", "a persistent checkpoint tier: one of the three keys",
      {Param::byte_rate("bandwidth", "the store's bandwidth, all ranks together").optional(),
       Param::text("target", "\"memory-pools\": the machine's pools").optional(),
       Param::text("file_system", "a file-system model file, relative to this file").optional()});
  return table;
}

const core::ParamTable& spares_params() {
  static const core::ParamTable table(
      "reliability.spares", "hot spares: a pool of units, or the machine's idle units (one of units, from)",
      {Param::integer("units", 0, 1 << 30, "spare units in a pool").optional(),
       Param::text("from", "\"idle-units\": failed ranks move to units the job leaves idle").optional(),
       Param::seconds("swap", "putting a spare in a failed part's place")});
  return table;
}

const core::ParamTable& scripted_failure_params() {
  static const core::ParamTable table(
      "reliability.event", "one failure at a given time",
      {Param::seconds("at", "when, from the start of training"),
       Param::text("component", "a component of the failure-rate table"),
       Param::text("instance", "which one: a unit, switch, link or power domain of the job")});
  return table;
}

const core::ParamTable& degradation_params() {
  static const core::ParamTable table(
      "reliability.degradation", "a unit running slower, or a link carrying less, for a while",
      {Param::seconds("at", "when it starts, from the start of training"),
       Param::seconds("for", "how long it lasts").positive(),
       Param::text("unit", "the slow unit's name (or link)").optional(),
       Param::number("slowdown", 1.0, 1e6, "unit: its compute takes this many times longer").optional(),
       Param::list("link", "the names of the link's two ends", "the degraded link (or unit)").optional(),
       Param::number("bandwidth_fraction", 1e-6, 1.0, "link: the fraction of its bandwidth left")
           .optional()});
  return table;
}

const core::ParamTable& straggler_params() {
  static const core::ParamTable table(
      "reliability.stragglers", "units that start running slower at random",
      {Param::seconds("per_unit_mtbf", "mean time between a unit's slow spells").positive(),
       Param::number("slowdown", 1.0, 1e6, "a straggler's compute takes this many times longer"),
       Param::seconds("duration", "how long a slow spell lasts").positive()});
  return table;
}

}  // namespace zs::scenario
