// The cost of Megatron-LM's vocabulary-parallel cross-entropy loss on the last pipeline stage.
#pragma once

#include <array>

#include "workload/trace.hpp"

namespace zs::workload {

/// Logit bytes the loss keeps for backward: the softmax in fp32, 4 B per logit (Korthikanti et al. 2022,
/// section 4.3: 4 s b v / t on the last stage).
inline constexpr double kLossKeptBytesPerLogit = 4.0;
/// Forward HBM traffic per logit, B. Assumption (an unfused fp32 loss as Megatron-LM's
/// vocab_parallel_cross_entropy runs it): read the 16-bit logit (2) and write it in fp32 (4); the
/// maximum's pass reads it (4); subtracting the maximum and exponentiating read and write it (8); the
/// sum reads it (4).
inline constexpr double kLossForwardBytesPerLogit = 22.0;
/// Backward HBM traffic per logit, B. Assumption: read the kept softmax (4), write the fp32 gradient
/// (4), read it and write the 16-bit gradient the output layer takes (6).
inline constexpr double kLossBackwardBytesPerLogit = 14.0;
/// Tensor-parallel all-reduces of the forward, one fp32 value (4 B) per token each: the logits' maximum,
/// the target's logit and the sum of exponentials (Megatron-LM's vocab_parallel_cross_entropy).
inline constexpr std::array<const char*, 3> kLossAllReduces = {"max", "target", "sum-exp"};
inline constexpr double kLossAllReduceBytesPerToken = 4.0;

/// A memory-bound vector op over `logits` logits moving `bytes_per_logit` each, about one FLOP per byte
/// moved (exponentials and sums over memory-bound passes).
inline ComputeOp loss_step(double logits, double bytes_per_logit) {
  return ComputeOp{core::Flops(logits * bytes_per_logit / 4.0), core::Bytes(logits * bytes_per_logit),
                   core::Dtype::kFp32, core::WorkKind::kVector, 3};
}

}  // namespace zs::workload
