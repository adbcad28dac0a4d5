// The collective policy's algorithm for each distinct collective of a placed job, and the NCCL environment
// that those choices imply.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "planner/job_plan.hpp"
#include "policy/collective/collective_policy.hpp"
#include "policy/collective/collective_registry.hpp"

namespace zs::planner {

/// One choice per distinct (communicator, kind, bytes) of the trace, in order of first appearance, asked of
/// `policy` for the group of the first rank that issues it (groups of one communicator are laid out alike
/// by the built-in placements; a placement that treats them differently may choose differently elsewhere).
/// A collective the policy does not implement, or runs by an algorithm NCCL lacks, is core::InputError
/// naming `file` and the policies of `catalog` (made with `options`) that run it as one of NCCL's.
std::vector<CollectiveChoice> collective_choices(
    const workload::Trace& trace, const topology::Machine& machine, const policy::Placement& placement,
    const policy::CollectivePolicy& policy, const policy::CollectiveRegistry& catalog,
    const policy::CollectiveOptions& options, const std::string& file);

/// NCCL_ALGO (the NCCL algorithms the choices are, as each policy names its own: CollectiveChoice::nccl),
/// NCCL_NVLS_ENABLE on machines with NVSwitch hosts, NCCL_CROSS_NIC=0 where every GPU has its own NIC;
/// and why.
std::pair<std::vector<std::pair<std::string, std::string>>, std::string> nccl_environment(
    const std::vector<CollectiveChoice>& choices, const topology::Machine& machine);

}  // namespace zs::planner
