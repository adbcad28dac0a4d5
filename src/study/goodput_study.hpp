// Days of training under failures for a loaded scenario: its healthy iteration from the engine, its
// reliability section resolved against the placed job, then the Monte Carlo over the seeds.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/simulation.hpp"
#include "reliability/goodput_simulator.hpp"
#include "reliability/re_placement.hpp"
#include "scenario/scenario.hpp"
#include "study/checkpoint_setup.hpp"

namespace zs::study {

struct GoodputStudyOptions {
  uint32_t seeds = 0;  ///< overrides the scenario's when > 0
  /// Per seed, expected events (failures, stragglers, peer checkpoints) beyond which the run is refused.
  double max_events = reliability::GoodputConfig::kDefaultMaxEventsPerSeed;
  core::ProgressSink* progress = nullptr;  ///< told the healthy iteration's ops, then the seeds done
};

/// What a goodput study found, and the setup it found it with (what the reports state).
struct GoodputStudy {
  engine::SimulationResult iteration;  ///< the healthy iteration
  reliability::GoodputSummary summary;
  uint32_t seeds = 0;
  uint64_t units = 0;       ///< the job's
  uint64_t idle_units = 0;  ///< the machine's units the job does not use
  core::Seconds horizon{0};
  double checkpoint_state = 0;  ///< what a distributed checkpoint writes over all ranks, each tensor once, B
  double checkpoint_state_per_rank_max = 0;  ///< what the rank that writes most writes, B
  core::Seconds checkpoint_cost{0};          ///< a blocking checkpoint (or snapshot)
  CheckpointDescription checkpoint;
  uint32_t spares = 0;   ///< hot spares
  std::string recovery;  ///< the recovery policy's name
  bool shrinks = false;  ///< the recovery policy may shrink the job's `replicas` data-parallel replicas
  uint32_t replicas = 1;
  bool peer_checkpoints = false;       ///< two tiers: snapshots in peer memory, drained to a persistent one
  double optical_reconfiguration = 0;  ///< s, re-placement across optical islands (0: none)
  /// Re-placement: the iteration with one rank displaced, s, per (role, links from its first unit, island
  /// left); empty without re-placement.
  std::map<reliability::RePlacementSetup::Key, double> displaced_iterations;
  /// Degraded machine states met by the seeds, in key order: the iteration simulated for each.
  std::vector<reliability::DegradedIterations::State> degraded_iterations;
  std::vector<uint64_t> instances_by_component;  ///< in the failure table's order
};

/// Throws core::InputError at /reliability of `file` when the scenario has no reliability section.
void require_reliability_section(const scenario::Scenario& s, const std::string& file);

/// Runs the study; `file` names the scenario in input errors (a missing reliability section, a recovery
/// or checkpoint setup the job cannot have, a horizon that asks for too many events).
/// `policies` makes the scenario's placement and collective policies (the built-ins by default). The
/// configuration the run builds holds `s` (its callbacks simulate it again), so it is shared, not copied.
GoodputStudy run_goodput_study(std::shared_ptr<const scenario::Scenario> s, const std::string& file,
                               const GoodputStudyOptions& options = {},
                               const policy::PolicyCatalog& policies = {});

}  // namespace zs::study
