// Generates the trace of one iteration under Megatron-LM's 3D parallelism: data x pipeline x tensor.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json_object.hpp"
#include "core/units.hpp"
#include "workload/trace.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::workload {

enum class PipelineSchedule { kGpipe, k1F1B };

/// Data parallelism (no sharding) x pipeline parallelism x tensor parallelism (Megatron-style, no
/// sequence parallelism). Mesh axes [pp, dp, tp]: tensor-parallel groups are consecutive ranks.
struct MegatronPlan {
  uint32_t data_parallel = 1;
  uint32_t tensor_parallel = 1;
  uint32_t pipeline_parallel = 1;
  uint32_t micro_batch = 1;   ///< sequences per micro-batch
  uint32_t global_batch = 1;  ///< sequences per iteration, whole job
  PipelineSchedule schedule = PipelineSchedule::k1F1B;

  /// Reads the plan and checks it against the model: layers divisible by pipeline_parallel; heads,
  /// key/value heads and FFN width divisible by tensor_parallel; global_batch a multiple of
  /// data_parallel x micro_batch. Each failed constraint is an InputError at its key.
  static MegatronPlan from_json(core::JsonObject& json, const TransformerSpec& model);
  nlohmann::json to_json() const;
  uint32_t micro_batches() const { return global_batch / (data_parallel * micro_batch); }
  uint64_t ranks() const { return uint64_t(data_parallel) * tensor_parallel * pipeline_parallel; }
};

/// Model state per rank of the most loaded stage: 16 B per parameter it holds (a 1/tp share of its
/// layers, plus the embedding on the first stage and the output layer on the last).
core::Bytes megatron_model_state_bytes(const TransformerSpec& model, const MegatronPlan& plan);

/// One role per pipeline stage. Per micro-batch, forward: receive activations from the previous
/// stage (b*s*h/tp elements, Megatron's scatter/gather optimization), per layer the attention and
/// FFN computations (1/tp of the FLOPs) each followed by a tensor-parallel all-reduce of the
/// activations (b*s*h elements), the logits on the last stage, and a send to the next stage;
/// backward mirrors it at twice the FLOPs. Schedules: GPipe (all forwards, then all backwards) or
/// 1F1B (pp - stage - 1 warm-up forwards, then one forward one backward, then the rest). After the
/// last backward, the stage's gradients are all-reduced over dp, then Adam runs (memory-bound).
/// Recvs and tensor-parallel all-reduces block the compute stream; sends use one stream per
/// direction. Not modelled: embedding gradient sync between first and last stage, vocabulary-parallel
/// loss all-reduces, activation recomputation.
Trace generate_megatron_trace(const TransformerSpec& model, const MegatronPlan& plan);

}  // namespace zs::workload
