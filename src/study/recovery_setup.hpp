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

/// A goodput run's configuration with what the reliability section says of recovery, resolved against
/// the job on `job`: detection, restart, spares (with spares from the idle units, the re-placement setup),
/// the recovery policy (and the replicas it may shrink), scripted failures and degradations, random
/// stragglers. Names not in the job are input errors with their JSON path. The caller adds the healthy
/// iteration, the horizon and the checkpoint's costs (checkpoint_setup). The re-placement setup's
/// callback simulates `s` again on `placement`: those and `placement_policy` and `policies` stay the
/// caller's, for as long as it runs the configuration.
reliability::GoodputConfig recovery_config(const scenario::Scenario& s, const std::string& file,
                                           std::shared_ptr<const reliability::JobComponents> job,
                                           const policy::PlacementPolicy& placement_policy,
                                           const policy::Placement& placement,
                                           const policy::PolicyCatalog& policies);

/// How the engine re-simulates the iteration with degradations in force: units slowed, links derated or
/// out, memory pools down (their ranks' data in the nearest pools with room), ranks where they are.
/// `s`, `placement`, `job` and `policies` must outlive the function returned.
reliability::DegradedIterations::Simulate degraded_iteration_simulator(const scenario::Scenario& s,
                                                                       const policy::Placement& placement,
                                                                       const reliability::JobComponents& job,
                                                                       const policy::PolicyCatalog& policies);

}  // namespace zs::study
