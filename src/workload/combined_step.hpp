// Combined 1F1B: a forward and a backward pass interleaved at their expert all-to-alls.
#pragma once

#include <cstdint>
#include <vector>

#include "workload/trace.hpp"

namespace zs::workload {

/// Where a program's streams are, for interleave_at_expert_exchanges.
struct CombinedStreams {
  uint32_t compute = 0;   ///< the in-order stream of compute (and blocking collectives)
  uint32_t exchange = 0;  ///< the stream the expert all-to-alls move to
};

/// Interleaves two passes of `program`: ops [start, middle) (a forward) and [middle, end of the
/// program) (a backward), generated one after the other with every op on the compute stream waiting
/// for the one before. Each pass is cut after each of its expert all-to-alls (collectives with a
/// dispatch); the pieces alternate (the forward's first, the backward's first, the forward's second,
/// ...). The exchanges move to `streams.exchange`, each depending on its pass's previous compute-stream
/// op, and its pass's next compute-stream op depends on it, so that while one pass's tokens travel the
/// other pass computes. Every reference to a moved op (dependencies, ComputeOp::scaled_by) follows it.
/// Returns where each op of [start, end) went: new index of old index start + i at [i].
std::vector<uint32_t> interleave_at_expert_exchanges(RoleProgram& program, uint32_t start, uint32_t middle,
                                                     CombinedStreams streams);

}  // namespace zs::workload
