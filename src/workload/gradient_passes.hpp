// The passes over gradients between their reduction and the optimizer step (Megatron-LM's mixed-precision
// optimizer: conversion to fp32, loss unscaling, global-norm clipping), as trace compute ops.
#pragma once

#include "workload/trace.hpp"

namespace zs::workload {

/// Bytes of one main gradient element: the optimizer works on fp32 gradients, B.
inline constexpr double kMainGradientBytes = 4.0;
/// The scalar that the inf/NaN check and the gradient norm each all-reduce: one fp32, B.
inline constexpr double kGradientScalarBytes = 4.0;

/// What a gradient pass does to each main-gradient element of the rank's shard.
enum class GradientPass {
  kToFp32,   ///< 16-bit gradients copied to fp32 main gradients: read g, write 4 B
  kUnscale,  ///< fp16 loss scaling: multiply by 1/scale and check for inf/NaN: read and write 4 B
  kNorm,     ///< squares summed for the global norm: read 4 B
  kClip,     ///< multiply by max_norm / norm: read and write 4 B
};

/// A memory-bound vector op over `params` gradients held as `gradient_bytes`-byte elements: one FLOP
/// per element, the bytes of its pass.
inline ComputeOp gradient_pass(GradientPass pass, double params, double gradient_bytes) {
  double bytes_per_param = 0;
  switch (pass) {
    case GradientPass::kToFp32:
      bytes_per_param = gradient_bytes + kMainGradientBytes;
      break;
    case GradientPass::kUnscale:
    case GradientPass::kClip:
      bytes_per_param = 2.0 * kMainGradientBytes;
      break;
    case GradientPass::kNorm:
      bytes_per_param = kMainGradientBytes;
      break;
  }
  return ComputeOp{core::Flops(params), core::Bytes(bytes_per_param * params), core::Dtype::kFp32,
                   core::WorkKind::kVector, 1};
}

}  // namespace zs::workload
