// Placements and their costs per communicator.
#include "study/placement_study.hpp"

#include <memory>

#include "core/input_error.hpp"
#include "policy/policy_catalog.hpp"

namespace zs::study {

std::vector<PlacementStudy> study_placements(const scenario::Scenario& s, std::vector<std::string> names,
                                             uint64_t sample, const std::string& names_source,
                                             const policy::PolicyCatalog& policies) {
  if (names.empty()) names.push_back(s.placement_policy);
  std::vector<PlacementStudy> studies;
  for (const auto& name : names) {
    std::unique_ptr<policy::PlacementPolicy> p;
    try {
      p = policy::make_placement_policy(policies.placement, name,
                                        s.placement_map ? &*s.placement_map : nullptr);
    } catch (const std::exception& e) {
      throw core::InputError(names_source, "", e.what());
    }
    const auto placement = p->place({s.trace, s.machine, s.seed});
    studies.push_back(
        {name, placement.layout, policy::placement_cost(s.trace, s.machine, placement, sample)});
  }
  return studies;
}

}  // namespace zs::study
