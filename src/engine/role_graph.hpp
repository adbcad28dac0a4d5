// The dependency graph of one role program: data dependencies plus the order of each stream.
#pragma once

#include <cstdint>
#include <vector>

#include "workload/trace.hpp"

namespace zs::engine {

/// Shared by every rank of the role: an op may start once its `initial_pending` predecessors (its deps and
/// the previous op on its stream) are done.
struct RoleGraph {
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<std::vector<uint32_t>> successors;  ///< by op
  std::vector<uint32_t> initial_pending;          ///< by op
  /// By compute op: the compute op that can only run right after it (its sole successor, waiting on
  /// nothing else, not scaled by an expert dispatch), so the engine runs both as one activity; kNone
  /// otherwise. Chains follow it op to op.
  std::vector<uint32_t> fused_next;
};

RoleGraph compile(const workload::RoleProgram& program, size_t streams);

}  // namespace zs::engine
