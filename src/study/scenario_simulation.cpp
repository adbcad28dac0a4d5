// One iteration of a loaded scenario.
#include "study/scenario_simulation.hpp"

#include "policy/policy_catalog.hpp"

namespace zs::study {

std::unique_ptr<policy::PlacementPolicy> placement_policy_of(const scenario::Scenario& s,
                                                             const policy::PolicyCatalog& policies) {
  return policy::make_placement_policy(policies.placement, s.placement_policy,
                                       s.placement_map ? &*s.placement_map : nullptr);
}

engine::SimulationResult simulate_scenario(const scenario::Scenario& s, const policy::PolicyCatalog& policies,
                                           bool record_timeline, core::ProgressSink* progress) {
  const auto placement = placement_policy_of(s, policies);
  const auto collective =
      policy::make_collective_policy(policies.collective, s.collective_policy, s.collective_options);
  return engine::simulate(s.machine, s.trace, *placement, *collective,
                          {s.circuit_reconfigurations, s.seed, record_timeline, progress}, s.fidelity);
}

engine::SimulationResult simulate_scenario(const scenario::Scenario& s, const policy::Placement& placement,
                                           const policy::PolicyCatalog& policies) {
  const auto collective =
      policy::make_collective_policy(policies.collective, s.collective_policy, s.collective_options);
  return engine::simulate(s.machine, s.trace, placement, "given", *collective,
                          {s.circuit_reconfigurations, s.seed}, s.fidelity);
}

}  // namespace zs::study
