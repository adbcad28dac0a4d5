// What a rank keeps in its memory pool, from the memory moves of its program.
#pragma once

#include <vector>

#include "core/units.hpp"
#include "workload/trace.hpp"

namespace zs::workload {

/// Bytes a rank running `role` keeps in its memory pool: the larger of what its program writes to the pool
/// and what it reads from it in one iteration (offloaded optimizer state: 12 B per parameter of the shard,
/// read before and written after the step). 0 for a program without memory moves.
core::Bytes pool_resident_bytes(const RoleProgram& role);
/// pool_resident_bytes of each of the trace's roles, in role order, B.
std::vector<double> pool_resident_bytes_by_role(const Trace& trace);

}  // namespace zs::workload
