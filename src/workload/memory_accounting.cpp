// Weights, gradients, optimizer state and activations per rank of a pipeline stage.
#include "workload/memory_accounting.hpp"

#include <algorithm>

#include "workload/cross_entropy.hpp"

namespace zs::workload {
std::vector<uint32_t> chunk_layers(const TransformerSpec& model, const ParallelPlan& plan, uint32_t stage,
                                   uint32_t chunk) {
  const uint32_t virtual_stage = chunk * plan.pipeline_parallel + stage;
  uint32_t first = 0, count = model.layers / (plan.pipeline_parallel * plan.chunks());
  if (plan.layers_per_stage.empty()) {
    first = virtual_stage * count;
  } else {
    for (uint32_t v = 0; v < virtual_stage; ++v) first += plan.layers_per_stage[v];
    count = plan.layers_per_stage.at(virtual_stage);
  }
  std::vector<uint32_t> layers(count);
  for (uint32_t i = 0; i < count; ++i) layers[i] = first + i;
  return layers;
}

namespace {

/// Parameters of a layer's routed experts, all of them (0 for a dense layer).
double routed_expert_params(const TransformerSpec& model, uint32_t layer) {
  return model.is_moe_layer(layer) ? double(model.moe->experts) * model.expert_params() : 0.0;
}

/// Per tensor-parallel rank, the key/value parameters held beyond an even split (replicated heads).
double replicated_kv_params(const TransformerSpec& model, const ParallelPlan& plan) {
  return (model.kv_replicas(plan.tensor_parallel) - 1.0) * model.kv_params() / plan.tensor_parallel;
}

/// Activation bytes one virtual stage's layers keep per micro-batch, and the full activations of its
/// largest recompute group, which backward rebuilds at once.
struct ChunkActivations {
  double kept = 0;
  double largest_group = 0;
};

ChunkActivations chunk_activations(const TransformerSpec& model, const ParallelPlan& plan,
                                   const std::vector<uint32_t>& layers) {
  ChunkActivations a;
  std::vector<bool> recomputed(layers.size(), false);
  for (const auto& group : plan.recompute_groups(static_cast<uint32_t>(layers.size()))) {
    double rebuilt = 0;
    for (uint32_t i = group.first; i < group.end; ++i) {
      recomputed[i] = true;
      rebuilt += layer_activation_bytes(model, plan, layers[i], Recompute::kNone);
    }
    a.kept += layer_activation_bytes(model, plan, layers[group.first], Recompute::kFull);
    a.largest_group = std::max(a.largest_group, rebuilt);
  }
  const Recompute others = plan.recompute == Recompute::kFull ? Recompute::kNone : plan.recompute;
  for (size_t i = 0; i < layers.size(); ++i)
    if (!recomputed[i]) a.kept += layer_activation_bytes(model, plan, layers[i], others);
  return a;
}

/// Activation bytes per micro-batch the pipeline's ends keep beyond their layers (Korthikanti et al.
/// 2022, section 4.3): on the first virtual stage the embedding's dropout mask (s'bh, 1 B each); on the
/// last, the final norm's input (2 s'bh, /tp with sequence parallelism) and the loss's fp32 softmax over
/// the vocabulary shard (4 s'b V / tp).
double ends_activation_bytes(const TransformerSpec& model, const ParallelPlan& plan, uint32_t virtual_stage) {
  const double t = plan.tensor_parallel,
               sb = double(model.seq_len) / plan.context_parallel * plan.micro_batch;
  const double replicated = plan.sequence_parallel ? t : 1.0;
  double bytes = 0;
  if (virtual_stage == 0 && model.dropout) bytes += sb * model.hidden / replicated;
  if (virtual_stage + 1 == plan.pipeline_parallel * plan.chunks())
    bytes += 2.0 * sb * model.hidden / replicated + kLossKeptBytesPerLogit * sb * model.vocab / t;
  return bytes;
}

/// Bytes one token keeps of a layer's FFN activations: the first matrices' outputs (GELU: one, SwiGLU:
/// gate and up) at 2 B and the second matrix's input at the recipe's linear-input bytes, per unit of
/// FFN width (all active experts'); with MoE SwiGLU recomputation, only the gate and up outputs, in fp8.
double ffn_activation_bytes(const TransformerSpec& model, const MixedPrecision& precision, uint32_t layer) {
  const double tensors = model.ffn_matrices();
  const double width = model.ffn_activation_width(layer) / tensors;
  if (model.is_moe_layer(layer) && model.ffn_activation == FfnActivation::kSwiglu &&
      precision.recomputes_moe_swiglu())
    return width * 2.0 * precision.saved_linear_input_bytes();
  return width * ((tensors - 1.0) * MixedPrecision::kHalfBytes + precision.saved_linear_input_bytes());
}

}  // namespace

StageParameters layer_parameters(const TransformerSpec& model, const ParallelPlan& plan, uint32_t layer) {
  const double routed = routed_expert_params(model, layer);
  return {(model.layer_params(layer) - routed) / plan.tensor_parallel + replicated_kv_params(model, plan),
          routed / (double(plan.expert_parallel) * plan.expert_tensor_parallel)};
}

LayerBlocks layer_blocks(const TransformerSpec& model, const ParallelPlan& plan, uint32_t layer) {
  const auto params = layer_parameters(model, plan, layer);
  const double attention = model.attention_params_per_rank(plan.tensor_parallel);
  return {attention, params.dense - attention + params.experts};
}

double layer_weights(const TransformerSpec& model, const ParallelPlan& plan, uint32_t stage) {
  double weights = 0;
  for (uint32_t c = 0; c < plan.chunks(); ++c)
    for (uint32_t l : chunk_layers(model, plan, stage, c)) {
      const auto params = layer_parameters(model, plan, l);
      weights += params.dense + params.experts;
    }
  return weights;
}

StageParameters stage_parameters(const TransformerSpec& model, const ParallelPlan& plan, uint32_t stage,
                                 Copies copies) {
  const bool held = copies == Copies::kHeld;
  const uint32_t p = plan.pipeline_parallel;
  const double vh = double(model.vocab) * model.hidden;
  const double positions = model.learned_positions ? double(model.seq_len) * model.hidden : 0.0;
  const double final_norm = model.embedding_params() - vh * (model.tied_embeddings ? 1 : 2) - positions;
  const bool first = stage == 0, last = stage + 1 == p;
  double dense = 0, experts = 0;
  for (uint32_t c = 0; c < plan.chunks(); ++c)
    for (uint32_t l : chunk_layers(model, plan, stage, c)) {
      dense += model.layer_params(l) - routed_expert_params(model, l) +
               (held ? replicated_kv_params(model, plan) * plan.tensor_parallel : 0.0);
      experts += routed_expert_params(model, l);
    }
  if (first) dense += vh + positions;
  // The output layer: a copy of the tied embedding when the first and last stages differ.
  if (last) dense += final_norm + (model.tied_embeddings && (first || !held) ? 0.0 : vh);
  return {dense / plan.tensor_parallel,
          experts / (double(plan.expert_parallel) * plan.expert_tensor_parallel)};
}

double layer_activation_bytes(const TransformerSpec& model, const ParallelPlan& plan, uint32_t layer,
                              Recompute recompute) {
  const double t = plan.tensor_parallel;
  const double s = double(model.seq_len) / plan.context_parallel, b = plan.micro_batch, h = model.hidden;
  const double sb = s * b;
  if (recompute == Recompute::kFull) return 2.0 * sb * h / (plan.sequence_parallel ? t : 1.0);
  const MixedPrecision precision = plan.precision(model);
  const double linear_input = precision.saved_linear_input_bytes();
  // Replicated without sequence parallelism: the two norms' inputs (2 B each), the attention and FFN
  // blocks' inputs (the inputs of their first linear layers) and the two dropout masks (1 B each);
  // parallel blocks have one norm, whose output both blocks read.
  const double norms_and_inputs = model.parallel_blocks ? 2.0 + linear_input : 4.0 + 2.0 * linear_input;
  const double replicated = sb * h * (norms_and_inputs + (model.dropout ? 2.0 : 0.0));
  // Split over tensor parallelism: queries, keys, values (each key/value head on kv_replicas ranks) and
  // the attention output (the output projection's input), and the FFN's. An MoE layer's routed experts
  // also keep their first matrix's input, each token once per expert it is routed to (top_k copies of h,
  // the rank's sequence-parallel shard), and under expert tensor parallelism the copies its etp group
  // gathered. The combine keeps the experts' outputs it weighs by the router's probabilities (top_k copies
  // of h at 2 B, the rank's own tokens), which the probabilities' gradient reads: Megatron-Core's unpermute
  // and Transformer Engine's moe_unpermute with merging probabilities save their input for backward.
  const double replicas = model.kv_replicas(plan.tensor_parallel);
  const double combine_output_bytes = 2.0;  // B per element: the combine runs in 16 bits, fp8 recipe or not
  const double routed_copies =
      model.is_moe_layer(layer)
          ? double(model.moe->top_k) * h *
                (linear_input * double(plan.expert_tensor_parallel) + combine_output_bytes)
          : 0.0;
  const double split =
      sb * (2.0 * (model.query_width() + replicas * (model.key_width() + model.value_width())) +
            precision.saved_attention_output_bytes() * model.attention_output_width() +
            ffn_activation_bytes(model, precision, layer) + routed_copies);
  // Attention probabilities: 2 B per score for softmax's output, and with dropout a 1 B mask and the
  // 2 B dropped-out copy; flash attention keeps only each query row's softmax statistic (4 B per head).
  double scores = 0;
  if (plan.flash_attention)
    scores = 4.0 * model.heads * sb;
  else if (recompute != Recompute::kSelective)
    scores = (model.dropout ? 5.0 : 2.0) * model.heads * s * double(model.seq_len) * b;
  if (plan.sequence_parallel) return (replicated + split + scores) / t;
  return replicated + (split + scores) / t;
}

MemoryFootprint stage_footprint(const TransformerSpec& model, const ParallelPlan& plan, uint32_t stage) {
  const auto params = stage_parameters(model, plan, stage);
  const double dense_shards = plan.dense_replicas(), expert_shards = plan.expert_replicas();
  auto sharded = [&](uint32_t from_stage) {
    return plan.zero_stage >= from_stage ? params.dense / dense_shards + params.experts / expert_shards
                                         : params.dense + params.experts;
  };
  const MixedPrecision precision = plan.precision(model);
  MemoryFootprint f;
  f.weights = core::Bytes(2.0 * sharded(3));
  // fp8 copies of the linear weights for the iteration (with ZeRO-3, of the gathered blocks: buffers).
  if (plan.zero_stage < 3)
    f.weights += core::Bytes(precision.weight_copy_bytes() * layer_weights(model, plan, stage));
  f.gradients = core::Bytes(core::bytes_per_element(plan.gradients_in(model)) * sharded(2));
  // Top-k and PowerSGD keep an fp32 error-feedback residual of every gradient element (ZeRO 0 or 1).
  if (plan.gradient_compression.keeps_residual())
    f.gradients += core::Bytes(4.0 * (params.dense + params.experts));
  f.optimizer = core::Bytes(plan.offload_optimizer ? 0.0 : precision.optimizer_bytes() * sharded(1));
  // A distributed checkpoint (Megatron-Core's torch_dist format with its fully parallel save, PyTorch DCP)
  // writes each tensor once: the 16-bit weights and the optimizer state (fp32 master weights and Adam's
  // moments, offloaded or not), a tensor held by several data-parallel replicas shared among them.
  // Gradients and the fp8 weight copies are not saved.
  const auto unique = stage_parameters(model, plan, stage, Copies::kUnique);
  f.checkpoint = core::Bytes((2.0 + precision.optimizer_bytes()) *
                             (unique.dense / dense_shards + unique.experts / expert_shards));

  // Activations: walk the schedule, adding a chunk's layers at its forward, removing them at its
  // backward; keep the peak.
  std::vector<double> per_chunk(plan.chunks(), 0.0);
  double largest_group = 0, largest_gathered = 0;
  for (uint32_t c = 0; c < plan.chunks(); ++c) {
    const auto layers = chunk_layers(model, plan, stage, c);
    const auto activations = chunk_activations(model, plan, layers);
    per_chunk[c] = activations.kept + ends_activation_bytes(model, plan, c * plan.pipeline_parallel + stage);
    largest_group = std::max(largest_group, activations.largest_group);
    for (uint32_t l : layers) {
      // Blocks run attention, rest, attention, ... and every layer's attention is the same size, so
      // any two adjacent blocks are an attention block and some layer's rest.
      const auto blocks = layer_blocks(model, plan, l);
      largest_gathered = std::max(largest_gathered, blocks.attention + blocks.rest);
    }
  }
  double now = 0, peak = 0;
  for (const auto& step : plan.stage_steps(stage)) {
    now += step.forward ? per_chunk[step.chunk] : -per_chunk[step.chunk];
    peak = std::max(peak, now);
  }
  f.activations = core::Bytes(peak);
  double buffers = 0;
  // Two blocks gathered, 2 B each, and their fp8 copies.
  if (plan.zero_stage == 3) buffers += (2.0 + precision.weight_copy_bytes()) * largest_gathered;
  buffers += largest_group;
  f.buffers = core::Bytes(buffers);
  return f;
}

}  // namespace zs::workload
