// The cost of one Adam optimizer step with fp32 master weights, as a trace compute op.
#pragma once

#include "workload/trace.hpp"

namespace zs::workload {

/// Adam step traffic per parameter besides the gradient and the moments: read and write the fp32 master
/// weight (4 + 4), write the 16-bit weight (2): 10 B.
inline constexpr double kAdamBytesPerParamBesidesGradientAndMoments = 10.0;
/// Adam arithmetic per parameter (moment updates, bias correction, update), FLOP.
inline constexpr double kAdamFlopsPerParam = 12.0;

/// A memory-bound vector op updating `params` parameters whose gradients take `gradient_bytes` each and
/// whose two moments `moment_bytes` each, read and written (fp32 moments: 28 B per parameter in all with
/// 16-bit gradients, 30 with fp32 ones; bf16 moments and fp32 gradients: 22 B).
inline ComputeOp adam_step(double params, double gradient_bytes = 2.0, double moment_bytes = 4.0) {
  const double bytes = kAdamBytesPerParamBesidesGradientAndMoments + gradient_bytes + 4.0 * moment_bytes;
  return ComputeOp{core::Flops(kAdamFlopsPerParam * params), core::Bytes(bytes * params), core::Dtype::kFp32,
                   core::WorkKind::kVector, 1};
}

}  // namespace zs::workload
