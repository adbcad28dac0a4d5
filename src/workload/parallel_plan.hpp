// How a transformer's training iteration is split over ranks: the 5D parallel plan and its options.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/choice_names.hpp"
#include "core/json_object.hpp"
#include "core/param_reader.hpp"
#include "workload/expert_routing.hpp"
#include "workload/gradient_compression.hpp"
#include "workload/mixed_precision.hpp"
#include "workload/pipeline_order.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::workload {

enum class Recompute { kNone, kSelective, kFull };
/// Which layers full recomputation covers (Megatron-LM's --recompute-method): every layer in groups of
/// recompute_layers (uniform), or only the first recompute_layers of each virtual stage (block).
enum class RecomputeMethod { kUniform, kBlock };

/// Layers [first, end) of a virtual stage, by position in it, whose forward is rerun at once before
/// their backward; only the input of `first` is kept from the forward pass.
struct RecomputeGroup {
  uint32_t first = 0;
  uint32_t end = 0;
};

/// Megatron-Core-style parallelism. Mesh axes, slowest first: pp, dp (split into edp x ep when
/// expert_parallel > 1), cp, tp; axes of size 1 other than pp, dp and tp are left out. Tensor-parallel
/// groups are consecutive ranks.
/// - Tensor parallelism shards attention and dense FFN (Megatron-style); with sequence_parallel the
///   all-reduces become reduce-scatter + all-gather and activations outside them are sharded too. With
///   more ranks than key/value heads (a multiple of them), each rank keeps one key/value head, a copy
///   shared by tensor_parallel / kv_heads ranks: its projection weights, FLOPs and activations count on
///   every rank that holds it (the all-reduce of the copies' weight gradients, 2 h x head width per
///   layer, is not modelled).
/// - Context parallelism splits each sequence over cp ranks; keys and values are all-gathered for
///   attention (the volume of ring attention, not its overlap).
/// - Expert parallelism spreads each MoE layer's routed experts over ep ranks of the data-parallel
///   axis. MoE with tensor_parallel > 1 needs sequence_parallel (as Megatron-Core requires), each rank
///   routing its own token shard. With expert_tensor_parallel 1 every rank runs whole experts on the
///   tokens it receives; with expert_tensor_parallel = tensor_parallel (Megatron-Core's default) the
///   tensor-parallel ranks all-gather what they received, each runs its 1/tp slice of every expert's
///   FFN on all of it and the outputs are reduce-scattered back before the combine.
/// - ZeRO stage 1 shards optimizer state over the data-parallel group (dp x cp for dense weights,
///   edp x cp x tp for experts), stage 2 also gradients (reduce-scattered every micro-batch), stage 3
///   (FSDP) also weights (all-gathered per layer before forward and backward).
struct ParallelPlan {
  uint32_t data_parallel = 1;
  uint32_t tensor_parallel = 1;
  uint32_t pipeline_parallel = 1;
  uint32_t context_parallel = 1;
  uint32_t expert_parallel = 1;
  /// Ranks splitting each expert's FFN: 1, or tensor_parallel (Megatron-LM's
  /// --expert-tensor-parallel-size, which defaults to the tensor-parallel size).
  uint32_t expert_tensor_parallel = 1;
  uint32_t micro_batch = 1;   ///< sequences per micro-batch
  uint32_t global_batch = 1;  ///< sequences per iteration, whole job
  PipelineSchedule schedule = PipelineSchedule::k1F1B;
  uint32_t virtual_stages = 1;  ///< model chunks per pipeline stage (interleaved-1f1b)
  /// Micro-batches each chunk runs in a row (interleaved-1f1b; Megatron-Core's
  /// microbatch_group_size_per_vp_stage): pipeline_parallel unless the plan says.
  uint32_t microbatch_group = 0;
  /// Layers of each virtual stage (chunk x pipeline_parallel + stage: every stage's first chunk, then
  /// every stage's second, ...), summing to the model's layers; empty: an even split.
  std::vector<uint32_t> layers_per_stage;
  bool sequence_parallel = false;
  uint32_t zero_stage = 0;  ///< 0..3
  Recompute recompute = Recompute::kNone;
  RecomputeMethod recompute_method = RecomputeMethod::kUniform;  ///< with full recomputation
  uint32_t recompute_layers = 1;  ///< layers per group (uniform) or recomputed per virtual stage (block)
  /// Element type of gradients (their memory and data-parallel reduction); left out, as Megatron-LM:
  /// fp16 for fp16 models, fp32 otherwise (it accumulates and all-reduces bf16 models' gradients in
  /// fp32). from_params always sets it.
  std::optional<core::Dtype> gradient_dtype;
  /// Gradients clipped by their global norm before the step (Megatron-LM's --clip-grad > 0).
  bool gradient_clipping = true;
  bool offload_optimizer = false;  ///< optimizer state in the rank's memory pool, moved for the step
  /// Megatron-LM's combined 1F1B (--overlap-moe-expert-parallel-comm): each steady-state forward runs
  /// beside the next backward, one's expert all-to-alls on their own stream while the other computes.
  bool overlap_expert_communication = false;
  /// Megatron-LM 2021's pipeline exchanges (its SC'21 schedules): after each step its sends and the next
  /// step's receives are posted together and waited for (batch_isend_irecv, then a device synchronize),
  /// except between a forward and the backward it is paired with in the interleaved schedule's steady
  /// state. false: each send on its own stream as soon as its step ends, each receive just before the
  /// step that needs it (unless overlap_pipeline_exchanges posts it a step ahead).
  bool batched_exchanges = false;
  /// Megatron-Core's overlapped exchanges of the interleaved schedule (its overlap_p2p_comm): each step
  /// posts its send together with the receive of the next step in the same direction (forward or
  /// backward), so a receive is posted a step ahead in the steady state; a step's compute waits for its
  /// receive and for the send of the previous step in its direction.
  bool overlap_pipeline_exchanges = false;
  /// Megatron-LM's --overlap-grad-reduce (NeMo's overlap_grad_sync; ZeRO stages 0 and 1): gradients are
  /// reduced over data parallelism during the backward of each chunk's last micro-batch, a layer at a time
  /// in the first chunk (its buckets) and a chunk at a time in the others, instead of after the whole
  /// backward; only what the last buckets reduce is left exposed before the optimizer step.
  bool overlap_gradient_reduction = false;
  /// Megatron-LM's --overlap-param-gather (NeMo's overlap_param_sync; ZeRO stage 1, with
  /// overlap_gradient_reduction): the updated weights are all-gathered at the start of the next iteration,
  /// a layer at a time in the first chunk and a chunk at a time in the others, each before its first
  /// forward, instead of after the optimizer step.
  bool overlap_parameter_gather = false;
  /// Megatron-LM's --tp-comm-overlap (Transformer Engine userbuffers): each tensor-parallel all-gather and
  /// reduce-scatter of a block runs beside the GEMM it feeds or drains (needs sequence parallelism).
  bool overlap_tensor_communication = false;
  Fp8Recipe fp8 = Fp8Recipe::kNone;  ///< which products run in fp8, and what the recipe keeps
  /// Transformer Engine's delayed scaling with reduce_amax (its default, NeMo's reduce_amax: true): at the
  /// end of each chunk's forward and of its backward, the amaxes of the chunk's fp8 tensors are
  /// all-reduced (max) over the stage's tensor-, data- and context-parallel ranks on the compute stream,
  /// which waits for it. Only with fp8 transformer-engine.
  bool fp8_amax_reduction = false;
  /// Attention scores stay on chip (FlashAttention); false: the b x heads x s x s scores go through HBM
  /// (softmax and dropout kernels, as Megatron-LM did in 2021), costing traffic and activation memory.
  bool flash_attention = true;
  /// How data-parallel gradient reductions are compressed on the wire (none unless the plan says).
  GradientCompression gradient_compression;
  ExpertRoutingModel routing;  ///< capacity_factor from the model unless the plan sets it
  uint64_t seed = 1;           ///< expert routing draws

  /// Reads the plan and checks it against the model; each failed constraint is an InputError at its
  /// key (divisibility of layers, heads, key/value heads, FFN width, experts, batch; schedules).
  /// `files` reads a routing histogram_file (relative to json.file()); nullptr: inline histograms only.
  static ParallelPlan from_params(core::ParamReader& json, const TransformerSpec& model,
                                  const core::FileSource* files = nullptr);
  /// The plan's keys (type "workload.megatron").
  static const core::ParamTable& params();
  /// What follows from the plan: {"micro_batches": per replica and iteration, "gradient_dtype": resolved}.
  nlohmann::json derived() const;
  uint32_t micro_batches() const { return global_batch / (data_parallel * micro_batch); }
  uint64_t ranks() const {
    return uint64_t(data_parallel) * tensor_parallel * pipeline_parallel * context_parallel;
  }
  uint32_t chunks() const { return schedule == PipelineSchedule::kInterleaved1F1B ? virtual_stages : 1; }
  /// The order of `stage`'s forward and backward steps: the schedule's (pipeline_order); with
  /// overlap_expert_communication each backward and the forward after it are one combined step, written
  /// forward first (1F1B without a pipeline: F0, F1 B0, F2 B1, ..., B(m-1)). A backward pairs with the
  /// next forward, not the previous one, so that neither waits for the other through the pipeline
  /// (the previous forward's output is what the next stage needs for this backward's gradients); the
  /// forward's activations are counted before the backward frees its own.
  std::vector<PipelineStep> stage_steps(uint32_t stage) const;
  /// Ranks sharing dense weights (data parallel x context parallel).
  uint32_t dense_replicas() const { return data_parallel * context_parallel; }
  /// Ranks sharing the same experts: (dp / ep) x cp x tp / etp.
  uint32_t expert_replicas() const {
    return data_parallel / expert_parallel * context_parallel * (tensor_parallel / expert_tensor_parallel);
  }
  /// The gradients' element type for `model`: gradient_dtype, or Megatron-LM's rule when left out.
  core::Dtype gradients_in(const TransformerSpec& model) const {
    if (gradient_dtype) return *gradient_dtype;
    return model.dtype == core::Dtype::kFp16 ? core::Dtype::kFp16 : core::Dtype::kFp32;
  }
  /// The recipe's bytes and dtypes for `model`.
  MixedPrecision precision(const TransformerSpec& model) const { return {fp8, model.dtype}; }
  /// With full recomputation, the groups of a virtual stage of `layers` layers, in order (the last
  /// uniform group is shorter when recompute_layers does not divide them); otherwise none.
  std::vector<RecomputeGroup> recompute_groups(uint32_t layers) const;
  /// One line, e.g. "dp 8 x pp 4 x tp 8 (1F1B), sequence parallel, ZeRO-1".
  std::string describe() const;
};

/// The names of the closed sets a plan chooses from, as the workload section writes them.
const core::ChoiceNames<PipelineSchedule>& schedules();
const core::ChoiceNames<Recompute>& recomputations();
const core::ChoiceNames<RecomputeMethod>& recompute_methods();
const core::ChoiceNames<Fp8Recipe>& fp8_recipes();

std::string_view to_string(PipelineSchedule s);
std::string_view to_string(Recompute r);
std::string_view to_string(RecomputeMethod m);

}  // namespace zs::workload
