// Whether a placed trace fits its machine, checked before replay, and the JSON paths its errors name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "policy/placement/placement_policy.hpp"
#include "topology/machine.hpp"
#include "workload/trace.hpp"

namespace zs::policy {

/// The JSON path of op `op` of role `role` in the trace, for errors.
inline std::string op_path(uint32_t role, size_t op) {
  return "/roles/" + std::to_string(role) + "/ops/" + std::to_string(op);
}

/// Throws core::InputError when a role does not fit the unit that runs it: a dtype the unit has no
/// matrix peak for, a memory move on a machine without pools, a role footprint or an op's resident
/// memory above the unit's HBM. Checked once per (role, unit model), so cheap at any mesh size. Also
/// when the ranks using a memory pool keep more in it than it holds (workload::pool_resident_bytes), one
/// pass over the ranks.
void check_trace_fits(const topology::Machine& machine, const workload::Trace& trace,
                      const policy::Placement& placement);

}  // namespace zs::policy
