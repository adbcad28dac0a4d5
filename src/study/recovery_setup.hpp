// A scenario's reliability section resolved against the placed job: recovery, scripted
// failures and degradations, and how the engine re-simulates a degraded iteration.
#pragma once

#include <string>

#include "policy/placement/placement_policy.hpp"
#include "policy/policy_catalog.hpp"
#include "reliability/degraded_iterations.hpp"
#include "reliability/goodput_simulator.hpp"
#include "reliability/job_components.hpp"
#include "scenario/scenario.hpp"

namespace zs::study {

/// Spares, the recovery policy, scripted failures and degradations from the reliability section, resolved
/// against the job (names that are not in it are input errors with their JSON path); checkpoint costs are
/// apply_checkpoint_setup's. With spares from the idle units, `re_placement` is filled and
/// `cfg` points to it. `s`, `placement_policy`, `placement`, `re_placement` and `policies` must outlive `cfg`
/// (its callbacks simulate `s` again).
void apply_recovery_setup(const scenario::Scenario& s, const std::string& file,
                          const reliability::JobComponents& job,
                          const policy::PlacementPolicy& placement_policy, const policy::Placement& placement,
                          reliability::RePlacementSetup& re_placement, reliability::GoodputConfig& cfg,
                          const policy::PolicyCatalog& policies);

/// How the engine re-simulates the iteration with degradations in force: units slowed, links derated or
/// out, memory pools down (their ranks' data in the nearest pools with room), ranks where they are.
/// `s`, `placement`, `job` and `policies` must outlive the function returned.
reliability::DegradedIterations::Simulate degraded_iteration_simulator(const scenario::Scenario& s,
                                                                       const policy::Placement& placement,
                                                                       const reliability::JobComponents& job,
                                                                       const policy::PolicyCatalog& policies);

}  // namespace zs::study
