// Builds one pipeline stage's program for the Megatron generator (internal to generate_megatron_trace).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "workload/expert_routing.hpp"
#include "workload/memory_accounting.hpp"
#include "workload/mixed_precision.hpp"
#include "workload/parallel_plan.hpp"
#include "workload/pipeline_order.hpp"
#include "workload/plan_layout.hpp"
#include "workload/stack_costs.hpp"
#include "workload/trace.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::workload {

/// Builds one stage's program: its pipeline steps (the forward and backward passes of its micro-batches
/// and model chunks, with their exchanges: stage_builder.cpp; the blocks' ops: stage_builder_layers.cpp),
/// then gradient synchronization and the optimizer step (stage_builder_optimizer.cpp), and its memory
/// footprint.
class StageBuilder {
 public:
  /// The program's streams: ops on one stream run in order. Overlapped pipeline exchanges add two
  /// receive streams after these (receive_streams).
  static constexpr uint32_t kCompute = 0, kSendNext = 1, kSendPrev = 2, kDataParallel = 3,
                            kExpertExchange = 4;
  /// The first of the two receive streams of overlapped pipeline exchanges (from the previous stage,
  /// then from the next), after the expert-exchange stream when the plan has one.
  static uint32_t receive_streams(const ParallelPlan& plan) {
    return plan.overlap_expert_communication ? kExpertExchange + 1 : kExpertExchange;
  }
  using Body = std::variant<ComputeOp, CollectiveOp, MemoryOp, P2POp>;

  /// `ops_left`: ops the whole trace may still add, of `max_ops`; generation stops with TraceTooLarge
  /// past it.
  StageBuilder(const TransformerSpec& model, const ParallelPlan& plan, const PlanLayout& layout,
               uint32_t stage, RoleProgram& program, uint64_t& ops_left, uint64_t max_ops,
               const StackCosts& stack = {})
      : model_(model),
        plan_(plan),
        precision_(plan.precision(model)),
        layout_(layout),
        stage_(stage),
        program_(program),
        ops_left_(ops_left),
        max_ops_(max_ops),
        stack_(stack) {}

  void build();

 private:
  double elem() const { return core::bytes_per_element(model_.dtype); }
  /// Bytes of one gradient element.
  double gradient_elem() const { return core::bytes_per_element(plan_.gradients_in(model_)); }
  double tp() const { return plan_.tensor_parallel; }
  double cp() const { return plan_.context_parallel; }
  bool sp() const { return plan_.sequence_parallel && plan_.tensor_parallel > 1; }
  uint32_t virtual_stage(uint32_t chunk) const { return chunk * plan_.pipeline_parallel + stage_; }
  uint32_t virtual_stages() const { return plan_.pipeline_parallel * plan_.chunks(); }
  /// Tokens of one micro-batch on one tensor-parallel group: b s / cp.
  double tokens() const { return double(plan_.micro_batch) * model_.seq_len / cp(); }
  /// Tokens a rank routes to experts: its sequence-parallel shard.
  uint64_t rank_tokens() const { return static_cast<uint64_t>(tokens() / (sp() ? tp() : 1.0)); }
  core::Bytes activations() const { return core::Bytes(tokens() * model_.hidden * elem()); }

  uint32_t add(std::string name, std::string phase, uint32_t stream, std::vector<uint32_t> deps, Body body);

  /// A matrix op in the model's dtype: FLOPs already per rank; `params` read once per rank (HBM traffic).
  uint32_t compute(const std::string& name, const std::string& phase, core::Flops flops, double params,
                   std::vector<uint32_t> deps = {});
  /// The products of linear layers: in fp8 under an fp8 recipe, reading the weights' fp8 copies.
  ComputeOp linear_op(core::Flops flops, double params) const {
    return ComputeOp{flops, core::Bytes(params * precision_.linear_weight_bytes()), precision_.linear_dtype(),
                     core::WorkKind::kMatrix, 1};
  }
  uint32_t linear(const std::string& name, const std::string& phase, core::Flops flops, double params,
                  std::vector<uint32_t> deps = {});

  /// Attention's matrix work of one pass (`factor` 1 forward, 2 backward): one op in the model's dtype,
  /// or under an fp8 recipe the projections in fp8 and the core (scores and values, and what selective
  /// recomputation redoes of them: `extra_core`) in the model's dtype.
  void attention_products(const std::string& at, const std::string& phase, const std::string& pass,
                          double factor, core::Flops extra_core, std::vector<uint32_t> deps);
  /// With context parallelism, attention in the order ring attention runs it (Transformer Engine's
  /// context-parallel attention): forward the query/key/value projections, the gather of the keys and
  /// values over `cp`, the core, the output projection; backward the output projection, the gather, the
  /// core, the reduce-scatter of the key/value gradients, the query/key/value projections. The
  /// projections are linear layers (fp8 under an fp8 recipe), the core in the model's dtype.
  void context_parallel_attention(const std::string& at, const std::string& phase, bool backward,
                                  core::Flops extra_core, std::vector<uint32_t> deps);

  /// Elements of the activation operands an fp8 recipe casts in one pass of a block: in forward the
  /// inputs of its linear layers, in backward the gradients of their outputs (0 without fp8).
  double attention_casts(bool backward) const;
  double ffn_casts(uint32_t l, bool backward) const;

  /// The memory-bound kernels around a block's matrix products (norm, residual add, activation
  /// function, and without flash attention the softmax and dropout over the scores), as one vector op.
  /// Elements of HBM traffic per micro-batch in forward: 5 T h for the pre-norm (read, write) and the
  /// residual add (read two, write one), replicated over tensor parallelism unless sequence parallel;
  /// the FFN activation function reads and writes T x ffn_activation_width / tp (GELU: f in, f out;
  /// SwiGLU: 2f in, f out); unfused attention scores cost 6.5 per score with dropout, a/tp x T x s of
  /// them (the score product writes them, softmax reads and writes, dropout reads, writes and stores a
  /// one-byte mask, the value product reads them), 4 without. Backward moves twice the forward's
  /// traffic. One FLOP per element: these kernels are bound by HBM bandwidth. Under an fp8 recipe the
  /// `casts` elements of fp8 operands each write their rowwise and transposed fp8 copies (2 B; the read
  /// is fused into the kernel producing them, as Transformer Engine fuses casts into norms and
  /// activation functions).
  void elementwise(const std::string& name, const std::string& phase, double split_elements,
                   double score_elements, double factor, uint32_t kernels, double casts = 0.0);

  /// Attention scores one rank moves through HBM per micro-batch in forward (elements; 0 with flash
  /// attention).
  double score_elements() const;

  /// The FFN activation function's traffic per micro-batch in forward (elements, per rank).
  double activation_elements(uint32_t l) const { return tokens() * model_.ffn_activation_width(l) / tp(); }

  void collective(const std::string& name, const std::string& phase, CollectiveKind kind, const char* comm,
                  core::Bytes bytes);

  /// Tensor-parallel exchange of activations at the start (`entering`) or end of a block.
  void tensor_exchange(const std::string& at, const std::string& phase, bool entering);

  /// A pipeline exchange of one micro-batch's activations (or their gradients): each tensor-parallel
  /// rank sends b s' h / tp elements. With sequence parallelism that is the rank's own shard; without
  /// it, Megatron's scatter/gather (Narayanan et al. 2021, section 4.1): the receivers then all-gather
  /// the full tensor over tp before using it (receive_gather). Returns the op's index.
  uint32_t p2p(const std::string& name, const std::string& phase, P2PDirection dir, int32_t offset,
               uint32_t stream, std::vector<uint32_t> deps);

  /// The receive a step starts from, if any, on `stream` after `deps`; the op's index.
  std::optional<uint32_t> receive(const PipelineStep& step, uint32_t stream, std::vector<uint32_t> deps);

  /// Dense parameters of one layer on this rank, and its routed experts here.
  double layer_dense(uint32_t l) const { return layer_parameters(model_, plan_, l).dense; }
  double layer_experts(uint32_t l) const { return layer_parameters(model_, plan_, l).experts; }

  /// "mb<m>/" and, with interleaving, "chunk<c>/": where a pipeline step's op names start.
  std::string step_prefix(uint32_t mb, uint32_t chunk) const {
    return "mb" + std::to_string(mb) + "/" +
           (plan_.chunks() > 1 ? "chunk" + std::to_string(chunk) + "/" : "");
  }

  /// Keys and values of the whole sequence on one tensor-parallel shard: what context parallelism
  /// gathers, B.
  core::Bytes kv_bytes() const {
    return core::Bytes(tokens() * cp() * model_.kv_width() * model_.kv_replicas(plan_.tensor_parallel) *
                       elem() / tp());
  }
  /// Attention weights one rank holds, replicated key/value heads included.
  double attention_weights() const { return model_.attention_params_per_rank(plan_.tensor_parallel); }
  /// Attention FLOPs of one rank's forward per micro-batch.
  core::Flops attention_flops() const {
    return model_.attention_forward_flops_per_rank(plan_.micro_batch, plan_.tensor_parallel) / cp();
  }

  /// ZeRO-3: gather one block's weights (`dense` on the dense communicator, `experts` on the experts'
  /// one) on the data-parallel stream; returns the ops compute waits on. Issued once the compute two
  /// blocks back is done: a prefetch depth of one block, so two blocks are gathered at a time.
  std::vector<uint32_t> gather_block(const std::string& at, const std::string& phase, double dense,
                                     double experts);
  std::vector<uint32_t> gather_attention(const std::string& at, const std::string& phase, uint32_t l);
  std::vector<uint32_t> gather_rest(const std::string& at, const std::string& phase, uint32_t l);

  /// Weight matrices among a stage's or a bucket's gradients, dense and routed experts' (PowerSGD
  /// compresses each as a matrix of the hidden width's rows).
  struct Matrices {
    double dense;
    double experts;
  };
  /// Layer l's: attention 2 (its fused input projection and its output), a dense FFN 2 or, in an MoE
  /// layer, the router 1 and 2 per shared expert; 2 per routed expert on the rank (gated FFNs fused).
  Matrices layer_matrices(uint32_t l) const;
  /// The extras' (embeddings, output layer): one per vocabulary-by-hidden matrix they hold.
  double extras_matrices() const;
  /// The data-parallel reductions of `dense` and `experts` gradients after the last compute op, compressed
  /// as the plan says (`matrices` for PowerSGD); their ids (the last step of each reduction).
  std::vector<uint32_t> reduce_gradients(const std::string& at, const std::string& phase, double dense,
                                         double experts, Matrices matrices = {0.0, 0.0});
  /// One reduction of `elements` gradients over `axis` (`group` ranks), compressed; the last step's id.
  uint32_t reduce_group(const std::string& name, const std::string& phase, const std::string& axis,
                        uint32_t group, double elements, double matrices);

  uint64_t routing_seed(uint32_t l, uint32_t mb) const {
    return plan_.seed * 0x100000001B3ull + (uint64_t(l) << 32) + mb;
  }

  ExpertDispatch dispatch(uint32_t l, uint32_t mb, bool combine) const;

  /// Bytes per element of the all-to-alls: the dispatch (and the gradients it carries to the experts in
  /// backward) in the recipe's dispatch format, the combine in the model's dtype.
  double token_bytes(bool combine) const { return combine ? elem() : precision_.dispatch_bytes(); }
  core::Bytes dispatch_bytes(bool combine) const {
    return core::Bytes(double(rank_tokens()) * model_.moe->top_k * model_.hidden * token_bytes(combine));
  }

  void layer_forward(uint32_t l, uint32_t mb, const std::string& at, const std::string& phase);

  /// An MoE block: router and shared experts, dispatch, routed experts, combine; backward runs the
  /// same all-to-alls (the gradients of the same tokens) at twice the FLOPs, router last.
  /// `gathered`: the ZeRO-3 gathers its first compute waits on.
  void moe_block(uint32_t l, uint32_t mb, const std::string& at, const std::string& phase, bool backward,
                 const std::vector<uint32_t>& gathered);

  static std::string layer_prefix(const std::string& step, uint32_t layer) {
    return step + "layer" + std::to_string(layer) + "/";
  }

  void layer_backward(uint32_t l, uint32_t mb, const std::string& at);

  /// The cross-entropy loss over this rank's logits (the micro-batch's tokens x vocab / tp): forward
  /// with its tensor-parallel all-reduces of one fp32 value per token, or backward.
  void loss(const std::string& at, bool forward);

  /// One forward or backward pass of a micro-batch through a model chunk; with `exchanges`, from its
  /// receive to its send.
  void run_step(const PipelineStep& step, bool exchanges);

  void forward_step(uint32_t mb, uint32_t chunk);

  /// Transformer Engine's amax reduction at the end of a chunk's forward or backward (fp8_amax_reduction):
  /// one all-reduce on the compute stream over the "amax" communicator of 4 B per amax, three per fp8
  /// product in forward (input, weight, output) and two in backward (output and input gradients).
  void reduce_amaxes(const std::string& at, bool forward, uint32_t chunk);

  /// The products Transformer Engine runs in fp8 in layer `l` on this rank: the attention projections,
  /// and the dense FFN's two or, in an MoE layer, two per local expert and two for the shared experts.
  uint32_t fp8_products(uint32_t l) const;

  void backward_step(uint32_t mb, uint32_t chunk);

  /// Megatron-LM 2021's batched exchanges (batched_exchange_actions): the sends an exchange posts are
  /// waited for by the compute after its receives.
  void batched_steps(const std::vector<PipelineStep>& steps);

  /// Megatron-Core's overlapped exchanges (overlap_p2p_comm): the receive of each step is posted on a
  /// receive stream when the previous step in its direction ends (with that step's send), or for the
  /// first backward when the last warm-up forward ends; a step's compute waits for its receive and for
  /// the previous send in its direction.
  void overlapped_steps(const std::vector<PipelineStep>& steps);

  /// The send a step ends with, if any (its activations to the next virtual stage, its gradients to
  /// the previous one); the op's index.
  std::optional<uint32_t> step_send(const PipelineStep& step);

  /// The receive a step starts from, if any, on the compute stream (with its tensor-parallel gather
  /// when the pipeline sends a 1/tp slice without sequence parallelism); the op's index.
  std::optional<uint32_t> step_recv(const PipelineStep& step);

  /// The same receive posted ahead on its receive stream, after the last compute op so far; its gather
  /// (receive_gather) runs when the step starts.
  std::optional<uint32_t> post_receive(const PipelineStep& step);

  /// The tensor-parallel all-gather that follows a step's receive without sequence parallelism.
  void receive_gather(const PipelineStep& step);

  /// Megatron-LM's combined 1F1B: forward `f` and backward `b` (of different micro-batches or chunks,
  /// paired by ParallelPlan::stage_steps) as one step: each pass generated as usual, then the two
  /// interleaved at their expert all-to-alls (interleave_at_expert_exchanges).
  void combined_step(const PipelineStep& f, const PipelineStep& b);

  /// ZeRO-2: after a chunk's backward, reduce-scatter its gradients. Embeddings, output layer and final
  /// norm go with the last chunk on the last stage, else with chunk 0.
  void reduce_chunk_gradients(const std::string& at, uint32_t chunk);
  /// The dense parameters outside the transformer layers (embeddings, output layer, final norm) and the
  /// chunk that holds them (the last on the last stage, else the first).
  double extras_dense() const;
  uint32_t extras_chunk() const;
  /// The buckets of overlapped data-parallel communication: each layer of the first chunk (its
  /// bucketed gradients), each later chunk whole (Megatron-LM does not bucket later chunks, whose
  /// communication hides behind the other chunks' compute); the extras join their chunk's first bucket.
  /// Each bucket is named by its first layer, with its dense and expert parameters.
  struct Bucket {
    uint32_t first_layer;
    double dense;    ///< dense parameters on this rank (count)
    double experts;  ///< routed-expert parameters on this rank (count)
    Matrices matrices;
  };
  std::vector<Bucket> buckets(uint32_t chunk) const;
  /// overlap_gradient_reduction: in the chunk's last micro-batch, reduce `bucket`'s gradients as soon
  /// as the backward of its layers ends (the dependency on the last compute op).
  void reduce_bucket(const std::string& at, const Bucket& bucket);
  /// overlap_parameter_gather: at the start of the iteration, every bucket's all-gather in forward
  /// order on the data-parallel stream; the first forward of a bucket's first layer waits for it.
  void gather_parameters();

  /// Tied embeddings on a pipeline: the first stage's word embedding and the last stage's output layer
  /// are one matrix, whose two gradients are summed (Megatron-LM's embedding group, an all-reduce of
  /// two ranks: each sends its V h / tp gradients to the other over the wrapped pipeline axis and adds).
  void sync_embedding_gradients(const std::vector<uint32_t>& after_sync);

  /// Megatron-LM's passes before the step over the rank's `shard` of gradients: 16-bit gradients
  /// copied to fp32 main gradients; with fp16 loss scaling, unscaled and checked for inf/NaN (an
  /// all-reduce of the flag); with clipping, the global norm (a pass, an all-reduce of the sum of
  /// squares over the ranks holding distinct gradients) and the scaling pass, counted every step (it
  /// runs whenever the norm exceeds the threshold).
  void prepare_gradients(double shard, const std::vector<uint32_t>& after_sync);

  void optimizer();

  const TransformerSpec& model_;
  const ParallelPlan& plan_;
  const MixedPrecision precision_;
  const PlanLayout& layout_;
  uint32_t stage_;
  RoleProgram& program_;
  uint64_t& ops_left_;
  const uint64_t max_ops_;
  StageParameters params_;
  uint32_t last_compute_ = 0;
  StackCosts stack_;
  /// The software stack's host time `wait` as an op on the compute stream; nothing when it is 0.
  void host_wait(const std::string& name, const std::string& phase, core::Seconds wait);
  /// Exchanges the next compute-stream op waits for (batched and overlapped exchanges).
  std::vector<uint32_t> wait_for_;
  /// overlap_gradient_reduction's reductions, which the optimizer step waits for.
  std::vector<uint32_t> gradient_reductions_;
  /// overlap_parameter_gather's all-gathers by the first layer of their bucket.
  std::map<uint32_t, std::vector<uint32_t>> parameter_gathers_;
  std::vector<uint32_t> compute_history_;  ///< the last compute op of each block pass, in order
};

}  // namespace zs::workload
