// Simulates one iteration of a loaded scenario with its policies and fidelity (run and goodput share it).
#pragma once

#include <memory>

#include "core/input_error.hpp"
#include "engine/simulation.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/scenario.hpp"

namespace zs::cli {

/// The scenario's placement and collective policies, seed, optical reconfigurations and fidelity
/// (`s.fidelity`; a bad value is an input error naming `fidelity_source`, e.g. "--fidelity").
/// `placement`, when given, replaces the scenario's placement policy.
inline engine::SimulationResult simulate_scenario(const scenario::Scenario& s,
                                                  const std::string& fidelity_source,
                                                  const policy::PlacementPolicy* placement = nullptr) {
  const auto fidelity = engine::parse_fidelity(s.fidelity);
  if (!fidelity)
    throw core::InputError(fidelity_source, "",
                           "expected auto, exact or collapsed, got \"" + s.fidelity + "\"");
  std::unique_ptr<policy::PlacementPolicy> own;
  if (placement == nullptr) {
    own = policy::make_placement_policy(s.placement_policy, s.placement_map ? &*s.placement_map : nullptr);
    placement = own.get();
  }
  auto collective = policy::make_collective_policy(s.collective_policy, s.collective_options);
  return engine::simulate(s.machine, s.trace, *placement, *collective, {s.circuit_reconfigurations, s.seed},
                          *fidelity);
}

}  // namespace zs::cli
