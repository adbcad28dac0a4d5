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
StageParameters stage_parameters(const TransformerSpec& model, const ParallelPlan& plan, uint32_t stage);

/// The same for one layer alone (no embeddings): what ZeRO-3 gathers and reduces per layer.
StageParameters layer_parameters(const TransformerSpec& model, const ParallelPlan& plan, uint32_t layer);

/// One layer's parameters on one rank split into the two blocks ZeRO-3 gathers one at a time, as
/// DeepSpeed gathers per module rather than per layer: the attention block (attention_params / tp) and
/// the rest (norms, dense FFN or router, shared and routed experts).
struct LayerBlocks {
  double attention = 0;  ///< per rank
  double rest = 0;       ///< per rank, dense and routed experts together
};
LayerBlocks layer_blocks(const TransformerSpec& model, const ParallelPlan& plan, uint32_t layer);

/// The layers of `chunk` on `stage`: virtual stage chunk x stages + stage holds layers/(stages x chunks).
std::vector<uint32_t> chunk_layers(const TransformerSpec& model, const ParallelPlan& plan, uint32_t stage,
                                   uint32_t chunk);

/// Activation bytes one rank keeps for backward per layer and micro-batch, after Korthikanti et al.
/// 2022 ("Reducing Activation Recomputation in Large Transformer Models", eq. 1-2, 16-bit activations,
/// s' = s / cp tokens): 10 s'bh replicated across tensor parallelism without sequence parallelism
/// (norm inputs, attention and FFN inputs, dropout masks), 8 s'bh + 2 s'b x ffn_activation_width
/// split over it (34 s'bh in all with a 4h GELU FFN), and 5 a s' s b of attention scores (dropped by
/// selective recomputation, and absent under flash attention, which keeps no scores). Full recomputation
/// keeps only the layer input, 2 s'bh.
double layer_activation_bytes(const TransformerSpec& model, const ParallelPlan& plan, uint32_t layer,
                              Recompute recompute);

/// ZeRO accounting (Rajbhandari et al. 2020) with K = 12: weights 2 B, gradients 2 B and optimizer
/// state 12 B per parameter, divided by the data-parallel group from stages 3, 2 and 1 on; activations
/// at the schedule's peak of micro-batches in flight; buffers: the two blocks ZeRO-3 keeps gathered
/// (the one computing and the one prefetched: the largest attention and rest pair, 2 B per parameter),
/// and one layer's full activations while full recomputation rebuilds it. Not counted: logits,
/// temporary buffers of collectives, fragmentation.
MemoryFootprint stage_footprint(const TransformerSpec& model, const ParallelPlan& plan, uint32_t stage);

}  // namespace zs::workload
