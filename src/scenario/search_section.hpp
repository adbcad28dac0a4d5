// A scenario's plan-search space: its "search" section over the scenario's own plan and policies.
#pragma once

#include "core/param_reader.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/scenario.hpp"
#include "search/search_space.hpp"

namespace zs::scenario {

/// The space `zettasim search` weighs for `s` (a megatron workload): what `section` (its "search"
/// section; nullptr: none) pins or bounds around the scenario's plan and policies, the policies named among
/// `policies`'. Throws core::InputError at the section, or at "workload" when the scenario has no megatron
/// plan to search from.
search::SearchSpace search_space(const Scenario& s, const policy::PolicyCatalog& policies,
                                 core::ParamReader* section);

}  // namespace zs::scenario
