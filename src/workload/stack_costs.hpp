// The fixed host-side costs a training framework adds to an iteration, as the trace generator charges them.
#pragma once

#include "core/units.hpp"

namespace zs::workload {

/// Time the framework's host-side work and synchronizations keep the compute stream waiting, beyond the
/// kernels the trace holds, s. Each is charged as an op of that duration on the compute stream (the unit
/// waits for the host); zero charges nothing and adds no op.
struct StackCosts {
  core::Seconds per_layer_pass{0.0};         ///< each layer's forward (recomputed ones too) and backward
  core::Seconds per_moe_layer_forward{0.0};  ///< each MoE layer's forward on top (a blocking host sync)
  core::Seconds per_step{0.0};               ///< each forward and each backward pipeline step (a micro-batch
                                             ///< on one virtual stage)
  core::Seconds per_iteration{0.0};          ///< once, before the optimizer step

  bool any() const {
    return per_layer_pass.value() > 0 || per_moe_layer_forward.value() > 0 || per_step.value() > 0 ||
           per_iteration.value() > 0;
  }
};

}  // namespace zs::workload
