// Generates the trace of one training iteration of a transformer under a Megatron-Core-style plan.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "workload/parallel_plan.hpp"
#include "workload/stack_costs.hpp"
#include "workload/trace.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::workload {

/// Most ops a generated trace holds, over all its roles (far above any shipped plan; a trace this size
/// takes about 5 GiB). A plan that needs more is refused with TraceTooLarge: at once when its layers times
/// micro-batches already exceed it (a model of 10^7 layers), else when generation reaches it.
inline constexpr uint64_t kMaxGeneratedOps = uint64_t(1) << 24;

/// A plan whose trace would exceed kMaxGeneratedOps.
class TraceTooLarge : public std::length_error {
 public:
  using std::length_error::length_error;
};

/// One role per pipeline stage, run by its dp x cp x tp ranks. Per micro-batch and model chunk, in
/// the schedule's order (pipeline_order): forward: receive activations from the previous virtual
/// stage (b s' h / tp elements, Megatron's scatter/gather: without sequence parallelism the receivers
/// all-gather the full tensor over tp), per layer attention then FFN, the logits on
/// the last virtual stage, send to the next; backward mirrors it at twice the FLOPs, after
/// recomputing the layer's forward under full recomputation (or the attention scores under selective).
/// Per layer, with tensor parallelism: an all-reduce of the activations (b s' h elements) after
/// attention and after a dense FFN, or with sequence parallelism an all-gather before and a
/// reduce-scatter after each. With context parallelism, keys and values are all-gathered over cp before
/// attention (again in backward), and their gradients reduce-scattered. An MoE layer runs the router
/// and shared experts on the rank's tokens, dispatches them to the experts' ranks over ep
/// (all-to-all-v drawn from the plan's routing model), runs its experts on what it received, and
/// combines the results back. Around each block's matrix products, one memory-bound op carries the
/// norm, residual, activation-function and (without flash attention) softmax and dropout traffic.
/// Gradients: all-reduced over dp (dense) and over the expert replicas (experts) after the last backward, or
/// reduce-scattered with ZeRO (stage 2: every micro-batch; stage 3: every layer, whose weights are
/// all-gathered before its forward and backward); then Adam (memory-bound) on the rank's shard, the optimizer
/// state moved from and to the memory pool when offloaded, and the updated weights all-gathered under ZeRO
/// 1-2. Point-to-point receives, tensor-, context- and expert-parallel collectives block the compute stream;
/// sends use one stream per direction; data-parallel collectives their own. Each receive is posted just
/// before its step; with overlap_pipeline_exchanges, a step ahead on a stream per direction (Megatron-Core's
/// overlap_p2p_comm); with batched_exchanges, as Megatron-LM 2021 (batched_exchange_actions). Tied embeddings
/// on a pipeline sum their two gradients between the first and last stage; the loss runs over the rank's
/// vocabulary shard with its tensor-parallel all-reduces. Each role states its memory footprint
/// (stage_footprint).
/// `max_ops`: the most ops the trace may hold (TraceTooLarge past it, before generating when the plan
/// alone exceeds it).
/// `stack`: the software stack's fixed host-side costs, each an op of its duration on the compute stream
/// (none by default).
Trace generate_megatron_trace(const TransformerSpec& model, const ParallelPlan& plan,
                              uint64_t max_ops = kMaxGeneratedOps, const StackCosts& stack = {});

}  // namespace zs::workload
