// Per-rank HBM accounting of a parallel plan: weights, gradients, optimizer state, activations.
#pragma once

#include <cstdint>
#include <vector>

#include "workload/parallel_plan.hpp"
#include "workload/trace.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::workload {

/// Parameters one rank of pipeline stage `stage` holds before ZeRO sharding: dense ones (attention,
/// norms, dense FFN, shared experts, router, embeddings on the first virtual stage, output layer and
/// final norm on the last) are split over tensor_parallel; routed experts are whole, experts /
/// expert_parallel of each MoE layer.
struct StageParameters {
  double dense = 0;    ///< per rank
  double experts = 0;  ///< per rank
};
/// Whether a rank's parameters count the copies it holds of tensors another rank of its model-parallel
/// group holds too: key/value heads replicated over tensor-parallel ranks (tensor_parallel above the
/// key/value heads) and the tied embedding's copy on the last pipeline stage. kUnique leaves them out: what a
/// distributed checkpoint writes, each tensor once.
enum class Copies { kHeld, kUnique };
StageParameters stage_parameters(const TransformerSpec& model, const ParallelPlan& plan, uint32_t stage,
                                 Copies copies = Copies::kHeld);

/// The same for one layer alone (no embeddings): what ZeRO-3 gathers and reduces per layer.
StageParameters layer_parameters(const TransformerSpec& model, const ParallelPlan& plan, uint32_t layer);

/// Parameters of a stage's layers on one rank (dense and experts; no embeddings, output layer or final
/// norm): the weights the fp8 recipes keep fp8 copies of (the layers' norms, biases and router, under
/// 0.1% of them, counted too).
double layer_weights(const TransformerSpec& model, const ParallelPlan& plan, uint32_t stage);

/// One layer's parameters on one rank split into the two blocks ZeRO-3 gathers one at a time, as
/// DeepSpeed gathers per module rather than per layer: the attention block (attention_params / tp) and
/// the rest (norms, dense FFN or router, shared and routed experts).
struct LayerBlocks {
  double attention = 0;  ///< per rank
  double rest = 0;       ///< per rank, dense and routed experts together
};
LayerBlocks layer_blocks(const TransformerSpec& model, const ParallelPlan& plan, uint32_t layer);

/// The layers of `chunk` on `stage`: virtual stage chunk x stages + stage holds layers/(stages x chunks),
/// or the plan's layers_per_stage entry for it, in order.
std::vector<uint32_t> chunk_layers(const TransformerSpec& model, const ParallelPlan& plan, uint32_t stage,
                                   uint32_t chunk);

/// Activation bytes one rank keeps for backward per layer and micro-batch, term by term after Korthikanti
/// et al. 2022 ("Reducing Activation Recomputation in Large Transformer Models", section 4.1, 16-bit
/// activations, s' = s / cp tokens). Replicated across tensor parallelism unless sequence parallel:
/// both norms' inputs 4 s'bh, the attention and FFN inputs 2 s'bh each, and with dropout its two 1-byte
/// masks 2 s'bh. Split over it: queries, keys, values and the attention output at their widths (2 s'b
/// each: 8 s'bh for multi-head attention, less with grouped keys and values) and the FFN's 2 s'b x
/// ffn_activation_width, and in an MoE layer the routed experts' inputs (top_k copies of each token, 2
/// s'b x top_k x h, times expert_tensor_parallel for the tokens gathered over it); and the attention
/// probabilities, 5 a s' s b with dropout (softmax output, mask, dropped-out copy) or 2 a s' s b without,
/// dropped by selective recomputation. Flash attention keeps no probabilities, only each query row's softmax
/// statistic (4 a s'b). For GPT-3-style layers (4h GELU FFN, dropout) this is the paper's 34 s'bh + 5 a s' s
/// b. Parallel blocks keep one norm's input and one block input, 4 s'bh less. Full recomputation keeps only
/// the layer input, 2 s'bh. With an fp8 recipe the inputs of the linear layers (both blocks' inputs, the
/// attention output, the FFN's second matrix's input) take the recipe's bytes instead of 2: 1 B
/// (transformer-engine), 1 + 4/128 B (deepseek-v3, the attention output 1.5 + 4/128 B as E5M6), and
/// deepseek-v3's MoE SwiGLU layers keep only their gate and up outputs, in fp8.
double layer_activation_bytes(const TransformerSpec& model, const ParallelPlan& plan, uint32_t layer,
                              Recompute recompute);

/// ZeRO accounting (Rajbhandari et al. 2020) with K = 12: weights 2 B, gradients in the plan's
/// gradient dtype (2 B as the paper, or 4 B: fp32, Megatron-LM's default for bf16, whose distributed
/// optimizer then needs 6 + 12/d B per parameter) and optimizer state 12 B per parameter (fp32 master
/// weights and Adam's two moments; 8 B with deepseek-v3's bf16 moments), divided by the data-parallel group
/// from stages 3, 2 and 1 on; activations at the schedule's peak of micro-batches in flight; buffers: the two
/// blocks ZeRO-3 keeps gathered (the one computing and the one prefetched: the largest attention and rest
/// pair, 2 B per parameter), and the full activations of the largest recompute group while full recomputation
/// rebuilds it. The pipeline's ends add their own activations per micro-batch: the embedding's dropout mask
/// on the first virtual stage, the final norm's input and the loss's fp32 softmax (4 s'b V / tp) on the last.
/// With full recomputation a recompute group keeps only its first layer's input, and layers outside every
/// group (block method) keep all their activations. fp8 recipes add the fp8 copies of the layers'
/// weights, 2 B per parameter (to the gathered blocks' buffers under ZeRO-3). Not counted:
/// temporary buffers of collectives, fragmentation.
MemoryFootprint stage_footprint(const TransformerSpec& model, const ParallelPlan& plan, uint32_t stage);

}  // namespace zs::workload
