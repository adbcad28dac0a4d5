// The cost of one Adam optimizer step with fp32 master weights, as a trace compute op.
#pragma once

#include "workload/trace.hpp"

namespace zs::workload {

/// Adam step traffic per parameter: read the bf16 gradient (2 B), the fp32 master weight (4) and
/// moments (8); write master (4), moments (8) and the bf16 weight (2): 28 B.
inline constexpr double kAdamBytesPerParam = 28.0;
/// Adam arithmetic per parameter (moment updates, bias correction, update), FLOP.
inline constexpr double kAdamFlopsPerParam = 12.0;

/// A memory-bound vector op updating `params` parameters.
inline ComputeOp adam_step(double params) {
  return ComputeOp{core::Flops(kAdamFlopsPerParam * params), core::Bytes(kAdamBytesPerParam * params),
                   core::Dtype::kFp32, core::WorkKind::kVector, 1};
}

}  // namespace zs::workload
