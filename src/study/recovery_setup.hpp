// A scenario's reliability section resolved against the placed job: recovery, scripted
// failures and degradations, and how the engine re-simulates a degraded iteration.
#pragma once

#include <memory>
#include <string>

#include "policy/placement/placement_policy.hpp"
#include "policy/policy_catalog.hpp"
#include "reliability/degraded_iterations.hpp"
#include "reliability/goodput_simulator.hpp"
#include "reliability/job_components.hpp"
#include "scenario/scenario.hpp"

namespace zs::study {

/// What a goodput run simulates again (a degraded iteration, a displaced rank), owned together: the
/// configuration built on it holds it, and needs nothing of its caller's to outlive the run.
struct SimulatedJob {
  std::shared_ptr<const scenario::Scenario> scenario;
  std::shared_ptr<const policy::Placement> placement;
  std::shared_ptr<const policy::PlacementPolicy> placement_policy;
  std::shared_ptr<const policy::PolicyCatalog> policies;
  std::shared_ptr<const reliability::JobComponents> components;  ///< the job's parts, as failures see them
};

/// A goodput run's configuration with what the reliability section says of recovery, resolved against
/// the job on `job`: detection, restart, spares (with spares from the idle units, the re-placement setup),
/// the recovery policy (and the replicas it may shrink), scripted failures and degradations, random
/// stragglers. Names not in the job are input errors with their JSON path. The caller adds the healthy
/// iteration, the horizon and the checkpoint's costs (checkpoint_setup). The re-placement setup holds
/// `job` (its machine and placement policy, and the callback that simulates a displaced rank).
reliability::GoodputConfig recovery_config(const SimulatedJob& job, const std::string& file);

/// How the engine re-simulates the iteration with degradations in force: units slowed, links derated or
/// out, memory pools down (their ranks' data in the nearest pools with room), ranks where they are. The
/// function returned holds `job`.
reliability::DegradedIterations::Simulate degraded_iteration_simulator(const SimulatedJob& job);

}  // namespace zs::study
