// The cost of one Adam optimizer step with fp32 master weights, as a trace compute op.
#pragma once

#include "workload/trace.hpp"

namespace zs::workload {

/// Adam step traffic per parameter besides reading the gradient: read the fp32 master weight (4) and
/// moments (8); write master (4), moments (8) and the 16-bit weight (2): 26 B.
inline constexpr double kAdamBytesPerParamBesidesGradient = 26.0;
/// Adam arithmetic per parameter (moment updates, bias correction, update), FLOP.
inline constexpr double kAdamFlopsPerParam = 12.0;

/// A memory-bound vector op updating `params` parameters whose gradients take `gradient_bytes` each
/// (28 B per parameter in all with 16-bit gradients, 30 with fp32 ones).
inline ComputeOp adam_step(double params, double gradient_bytes = 2.0) {
  return ComputeOp{core::Flops(kAdamFlopsPerParam * params),
                   core::Bytes((kAdamBytesPerParamBesidesGradient + gradient_bytes) * params),
                   core::Dtype::kFp32, core::WorkKind::kVector, 1};
}

}  // namespace zs::workload
