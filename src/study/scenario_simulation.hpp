// Simulates one iteration of a loaded scenario with its policies and fidelity (run, goodput, validate).
#pragma once

#include <memory>
#include <string>

#include "engine/simulation.hpp"
#include "policy/placement/placement_policy.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/scenario.hpp"

namespace zs::study {

// Every function takes the policies the scenario's names are made from: the built-ins by default, or a
// front end's catalog with its plugins (the one its scenarios were loaded against).

/// The scenario's placement policy (with its placement map when it names one).
std::unique_ptr<policy::PlacementPolicy> placement_policy_of(const scenario::Scenario& s,
                                                             const policy::PolicyCatalog& policies = {});

/// One iteration with the scenario's placement and collective policies, seed, optical reconfigurations
/// and fidelity; `record_timeline` also records what a timeline shows (ReplayResult::timeline);
/// `progress` is told how far the replay got.
engine::SimulationResult simulate_scenario(const scenario::Scenario& s,
                                           const policy::PolicyCatalog& policies = {},
                                           bool record_timeline = false,
                                           core::ProgressSink* progress = nullptr);

/// The same with the ranks where `placement` puts them (a re-placed or degraded job): the result's
/// placement policy reads "given".
engine::SimulationResult simulate_scenario(const scenario::Scenario& s, const policy::Placement& placement,
                                           const policy::PolicyCatalog& policies = {});

}  // namespace zs::study
