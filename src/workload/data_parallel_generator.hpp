// Generates the idealized trace of one data-parallel iteration of a dense transformer, for closed-form
// checks.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/param_reader.hpp"
#include "core/units.hpp"
#include "workload/trace.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::workload {

/// Data parallelism without sharding (ZeRO stage 0): every rank holds the whole model. The trace is an
/// idealization (generator "ideal-data-parallel"): a layer's forward or backward is one matrix kernel of
/// its FLOPs, with no element-wise, loss or gradient-clipping work; bf16 gradients are all-reduced a layer
/// at a time as its backward ends. The megatron generator models the same plan as Megatron-LM runs it
/// (tests/study/ideal_data_parallel_test.cpp itemizes the difference).
struct DataParallelPlan {
  uint32_t data_parallel = 1;  ///< ranks
  uint32_t micro_batch = 1;    ///< sequences per rank per micro-batch
  uint32_t global_batch = 1;   ///< sequences per iteration, whole job

  /// Reads {"data_parallel", "micro_batch", "global_batch"}; global_batch must be a multiple of
  /// data_parallel x micro_batch.
  static DataParallelPlan from_params(core::ParamReader& json);
  /// The plan's keys (type "workload.ideal-data-parallel").
  static const core::ParamTable& params();
  /// What follows from the plan: {"accumulation_steps": micro-batches per iteration}.
  nlohmann::json derived() const;
  uint32_t accumulation_steps() const { return global_batch / (data_parallel * micro_batch); }
};

/// Bytes of model state per rank: bf16 weights and gradients (2 + 2 B/param) plus fp32 master
/// weights and Adam moments (4 + 4 + 4 B/param), as in the ZeRO paper's 16 B/param.
core::Bytes model_state_bytes(const TransformerSpec& model);

/// One role ("rank"), streams "compute" and "comm". Per micro-batch: forward of every layer, the
/// logits forward and backward, backward of every layer in reverse. After the last micro-batch,
/// each layer's gradients are all-reduced over "dp" on the comm stream as soon as its backward is
/// done (layer 0 together with the tied embedding), overlapping the remaining backward; the
/// optimizer step (memory-bound Adam) waits for all of them.
/// Costs: matmul FLOPs per TransformerSpec; HBM bytes = weights read (forward), weights read and
/// gradients written (backward); one kernel per op.
Trace generate_data_parallel_trace(const TransformerSpec& model, const DataParallelPlan& plan);

}  // namespace zs::workload
