// The order in which one pipeline stage runs the forward and backward passes of its micro-batches.
#pragma once

#include <cstdint>
#include <vector>

namespace zs::workload {

/// gpipe: all forwards, then all backwards. 1f1b: PipeDream-Flush (p - stage - 1 warm-up forwards,
/// then one forward one backward). interleaved-1f1b: Megatron-LM's schedule with v model chunks per
/// stage (Narayanan et al., SC'21, section 2.2.2), bubble (p-1)/(v m) of the ideal time.
enum class PipelineSchedule { kGpipe, k1F1B, kInterleaved1F1B };

struct PipelineStep {
  bool forward = true;
  uint32_t micro_batch = 0;
  uint32_t chunk = 0;  ///< model chunk of this stage: virtual stage chunk x stages + stage
  /// A forward that runs beside the backward after it, as one combined 1F1B step.
  bool combined_with_next = false;
};

/// Every forward and every backward of every (micro-batch, chunk) once, in the stage's order.
/// Interleaved runs micro-batches in groups of `group` (0: `stages`, Megatron-LM's only choice before
/// Megatron-Core's microbatch_group_size_per_vp_stage), each group through every chunk, the last group
/// holding what is left; its warm-up is (stages - stage - 1) x 2 + (chunks - 1) x group steps. The caller
/// checks Megatron-Core's conditions: group in [stages, micro_batches], and micro_batches % group either 0
/// or at least stages. With chunks = 1, interleaved is 1F1B with Megatron's doubled warm-up.
std::vector<PipelineStep> pipeline_order(PipelineSchedule schedule, uint32_t stage, uint32_t stages,
                                         uint32_t micro_batches, uint32_t chunks, uint32_t group = 0);

}  // namespace zs::workload
