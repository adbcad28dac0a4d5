// The dependency graph of one role program: data dependencies plus the order of each stream.
#pragma once

#include <cstdint>
#include <vector>

#include "workload/trace.hpp"

namespace zs::engine {

/// Shared by every rank of the role: an op may start once its `initial_pending` predecessors (its deps and
/// the previous op on its stream) are done.
struct RoleGraph {
  std::vector<std::vector<uint32_t>> successors;  ///< by op
  std::vector<uint32_t> initial_pending;          ///< by op
};

RoleGraph compile(const workload::RoleProgram& program, size_t streams);

}  // namespace zs::engine
