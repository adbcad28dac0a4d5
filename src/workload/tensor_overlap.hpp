// Tensor-parallel communication overlapped with the GEMMs beside it (Megatron-LM's --tp-comm-overlap).
#pragma once

#include <cstdint>

#include "workload/trace.hpp"

namespace zs::workload {

/// Where a program's streams are, for overlap_tensor_exchanges.
struct TensorOverlapStreams {
  uint32_t compute = 0;  ///< the in-order stream of compute (and blocking collectives)
  uint32_t overlap = 0;  ///< the stream the overlapped tensor-parallel exchanges move to
};

/// Whether `op` is a tensor-parallel exchange of a block's activations that Megatron-LM overlaps with a
/// GEMM under sequence parallelism: an all-gather or reduce-scatter over the "tp" communicator.
bool is_tensor_exchange(const Op& op);

/// Moves every tensor-parallel exchange of `program` (is_tensor_exchange) off the compute stream so that
/// it runs beside the GEMM it feeds or drains, as Transformer Engine's userbuffers split both into
/// chunks: an all-gather runs with the compute-stream ops after it up to and including the next matrix
/// op, a reduce-scatter with the compute-stream ops before it back to the previous matrix op. The
/// exchange waits for the compute-stream op before that stretch, and the compute-stream op after the
/// stretch waits for the exchange; an exchange with no matrix op on its side stays where it is. The
/// overlap is perfect (no pipeline fill of the first chunk); the SMs the exchange takes are the unit
/// model's overlap_slowdown. Op indices do not change.
void overlap_tensor_exchanges(RoleProgram& program, TensorOverlapStreams streams);

}  // namespace zs::workload
