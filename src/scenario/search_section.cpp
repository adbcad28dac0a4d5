// A scenario's plan-search space: its "search" section over the scenario's own plan and policies.
#include "scenario/search_section.hpp"

#include "core/input_error.hpp"

namespace zs::scenario {
namespace {

template <class Registry>
std::vector<std::string> names_of(const Registry& registry) {
  std::vector<std::string> out;
  for (const auto& e : registry.entries()) out.push_back(e.name);
  return out;
}

}  // namespace

search::SearchSpace search_space(const Scenario& s, const policy::PolicyCatalog& policies,
                                 core::ParamReader* section) {
  if (!s.megatron)
    throw core::InputError(s.file, section != nullptr ? section->pointer() : "/workload",
                           "a plan search needs a generated megatron workload (\"generator\": \"megatron\")");
  return search::SearchSpace::read(section, s.megatron->model, s.megatron->plan, s.trace.mesh.size(),
                                   names_of(policies.collective), names_of(policies.placement),
                                   s.collective_policy, s.placement_policy);
}

}  // namespace zs::scenario
