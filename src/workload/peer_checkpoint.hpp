// Checkpoints to peer memory: which rank holds whose snapshot, and the trace of taking one.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/units.hpp"
#include "workload/trace.hpp"

namespace zs::workload {

/// Each rank keeps its snapshot in its own HBM and sends a copy to its peer: the rank `offset` steps
/// round its data-parallel ring along `axis` (wrapping). The peer runs the same role, so it holds a
/// snapshot of its own size.
struct PeerRule {
  size_t axis = 0;     ///< mesh axis: the outermost axis of the "dp" communicator longer than 1
  int32_t offset = 1;  ///< half the axis (rounded down): the replica farthest round the ring
  uint64_t peer_of(const Mesh& mesh, uint64_t rank) const {
    return mesh.neighbour_wrapped(rank, axis, offset);
  }
};

/// The rule for a trace whose "dp" communicator (or axis) spans an axis of 2 or more; nullopt otherwise.
std::optional<PeerRule> peer_rule(const Trace& trace);

/// One snapshot, as a trace on the job's mesh and roles: each rank copies its state (`state_of_role`, B,
/// by role) within its HBM (read and write: 2 x state of HBM traffic) while it sends it to its peer and
/// receives its own peer-of's, on three streams. Its iteration time is the blocking cost of a checkpoint.
Trace peer_snapshot_trace(const Trace& job, const PeerRule& rule,
                          const std::vector<core::Bytes>& state_of_role);

}  // namespace zs::workload
