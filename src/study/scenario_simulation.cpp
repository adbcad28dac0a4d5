// One iteration of a loaded scenario.
#include "study/scenario_simulation.hpp"

#include "core/input_error.hpp"
#include "policy/policy_catalog.hpp"

namespace zs::study {
namespace {

engine::Fidelity fidelity_of(const scenario::Scenario& s, const std::string& fidelity_source) {
  const auto fidelity = engine::parse_fidelity(s.fidelity);
  if (!fidelity)
    throw core::InputError(fidelity_source, "",
                           "expected auto, exact or collapsed, got \"" + s.fidelity + "\"");
  return *fidelity;
}

}  // namespace

std::unique_ptr<policy::PlacementPolicy> placement_policy_of(const scenario::Scenario& s) {
  return policy::make_placement_policy(s.placement_policy, s.placement_map ? &*s.placement_map : nullptr);
}

engine::SimulationResult simulate_scenario(const scenario::Scenario& s, const std::string& fidelity_source) {
  const engine::Fidelity fidelity = fidelity_of(s, fidelity_source);
  const auto placement = placement_policy_of(s);
  const auto collective = policy::make_collective_policy(s.collective_policy, s.collective_options);
  return engine::simulate(s.machine, s.trace, *placement, *collective, {s.circuit_reconfigurations, s.seed},
                          fidelity);
}

engine::SimulationResult simulate_scenario(const scenario::Scenario& s, const std::string& fidelity_source,
                                           const policy::Placement& placement) {
  const engine::Fidelity fidelity = fidelity_of(s, fidelity_source);
  const auto collective = policy::make_collective_policy(s.collective_policy, s.collective_options);
  return engine::simulate(s.machine, s.trace, placement, "given", *collective,
                          {s.circuit_reconfigurations, s.seed}, fidelity);
}

}  // namespace zs::study
