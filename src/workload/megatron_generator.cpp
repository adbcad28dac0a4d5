// Megatron-Core-style trace generation: 5D parallelism, pipeline schedules, ZeRO, recomputation.
#include "workload/megatron_generator.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "workload/adam_step.hpp"
#include "workload/combined_step.hpp"
#include "workload/cross_entropy.hpp"
#include "workload/gradient_passes.hpp"
#include "workload/memory_accounting.hpp"
#include "workload/plan_layout.hpp"
#include "workload/tensor_overlap.hpp"

namespace zs::workload {
namespace {

constexpr uint32_t kCompute = 0, kSendNext = 1, kSendPrev = 2, kDataParallel = 3, kExpertExchange = 4;
using Body = std::variant<ComputeOp, CollectiveOp, MemoryOp, P2POp>;

/// Builds one stage's program.
class StageBuilder {
 public:
  /// `ops_left`: ops the whole trace may still add, of `max_ops`; generation stops with TraceTooLarge
  /// past it.
  StageBuilder(const TransformerSpec& model, const ParallelPlan& plan, const PlanLayout& layout,
               uint32_t stage, RoleProgram& program, uint64_t& ops_left, uint64_t max_ops)
      : model_(model),
        plan_(plan),
        precision_(plan.precision(model)),
        layout_(layout),
        stage_(stage),
        program_(program),
        ops_left_(ops_left),
        max_ops_(max_ops) {}

  void build() {
    params_ = stage_parameters(model_, plan_, stage_);
    const auto steps = plan_.stage_steps(stage_);
    if (plan_.batched_exchanges) {
      batched_steps(steps);
    } else {
      for (size_t i = 0; i < steps.size(); ++i) {
        const PipelineStep& step = steps[i];
        if (step.combined_with_next) {
          combined_step(step, steps[++i]);
          continue;
        }
        step.forward ? forward_step(step.micro_batch, step.chunk)
                     : backward_step(step.micro_batch, step.chunk);
      }
    }
    optimizer();
    program_.memory = stage_footprint(model_, plan_, stage_);
  }

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

  uint32_t add(std::string name, std::string phase, uint32_t stream, std::vector<uint32_t> deps, Body body) {
    if (ops_left_ == 0)
      throw TraceTooLarge("the generated trace would hold more than " + std::to_string(max_ops_) +
                          " ops (one per kernel, transfer and collective of every pipeline stage; layers and "
                          "micro-batches multiply them)");
    --ops_left_;
    if (stream == kCompute && !wait_for_.empty()) {  // a batched exchange's sends, waited for
      deps.insert(deps.end(), wait_for_.begin(), wait_for_.end());
      wait_for_.clear();
    }
    program_.ops.push_back({std::move(name), std::move(phase), stream, std::move(deps), std::move(body)});
    auto id = static_cast<uint32_t>(program_.ops.size() - 1);
    if (stream == kCompute) last_compute_ = id;
    return id;
  }

  /// A matrix op in the model's dtype: FLOPs already per rank; `params` read once per rank (HBM traffic).
  uint32_t compute(const std::string& name, const std::string& phase, core::Flops flops, double params,
                   std::vector<uint32_t> deps = {}) {
    return add(name, phase, kCompute, std::move(deps),
               ComputeOp{flops, core::Bytes(params * elem()), model_.dtype, core::WorkKind::kMatrix, 1});
  }
  /// The products of linear layers: in fp8 under an fp8 recipe, reading the weights' fp8 copies.
  ComputeOp linear_op(core::Flops flops, double params) const {
    return ComputeOp{flops, core::Bytes(params * precision_.linear_weight_bytes()), precision_.linear_dtype(),
                     core::WorkKind::kMatrix, 1};
  }
  uint32_t linear(const std::string& name, const std::string& phase, core::Flops flops, double params,
                  std::vector<uint32_t> deps = {}) {
    return add(name, phase, kCompute, std::move(deps), linear_op(flops, params));
  }

  /// Attention's matrix work of one pass (`factor` 1 forward, 2 backward): one op in the model's dtype,
  /// or under an fp8 recipe the projections in fp8 and the core (scores and values, and what selective
  /// recomputation redoes of them: `extra_core`) in the model's dtype.
  void attention_products(const std::string& at, const std::string& phase, const std::string& pass,
                          double factor, core::Flops extra_core, std::vector<uint32_t> deps) {
    const core::Flops core = model_.attention_score_flops(plan_.micro_batch) / (tp() * cp());
    if (!precision_.fp8()) {
      compute(at + "attention/" + pass, phase, attention_flops() * factor + extra_core,
              factor * attention_weights(), std::move(deps));
      return;
    }
    linear(at + "attention/projections-" + pass, phase, (attention_flops() - core) * factor,
           factor * attention_weights(), std::move(deps));
    compute(at + "attention/core-" + pass, phase, core * factor + extra_core, 0.0);
  }

  /// Elements of the activation operands an fp8 recipe casts in one pass of a block: in forward the
  /// inputs of its linear layers, in backward the gradients of their outputs (0 without fp8).
  double attention_casts(bool backward) const {
    if (!precision_.fp8()) return 0.0;
    const double t = tokens(), h = model_.hidden;
    if (!backward) return t * h + t * model_.attention_output_width() / tp();
    const double qkv = model_.query_width() + model_.kv_replicas(plan_.tensor_parallel) *
                                                  (model_.key_width() + model_.value_width());
    return t * h + t * qkv / tp();
  }
  double ffn_casts(uint32_t l, bool backward) const {
    if (!precision_.fp8()) return 0.0;
    const double tensors = model_.ffn_matrices();
    const double width = model_.ffn_activation_width(l) / tensors, h = model_.hidden;
    const double second = backward ? tensors - 1.0 : 1.0;  // the matrices whose operands are cast
    if (model_.is_moe_layer(l)) {
      const double t = double(rank_tokens()), paths = model_.moe->top_k + model_.moe->shared_experts;
      return t * paths * h + t * second * width;
    }
    const double t = tokens();
    const double input = backward || !model_.parallel_blocks ? t * h : 0.0;  // parallel: attention's cast
    return input + t * second * width / tp();
  }

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
                   double score_elements, double factor, uint32_t kernels, double casts = 0.0) {
    const double replicated = 5.0 * tokens() * model_.hidden / (sp() ? tp() : 1.0);
    const double elements = factor * (replicated + split_elements + score_elements);
    add(name, phase, kCompute, {},
        ComputeOp{core::Flops(elements), core::Bytes(elements * elem() + casts * precision_.cast_bytes()),
                  model_.dtype, core::WorkKind::kVector, kernels});
  }

  /// Attention scores one rank moves through HBM per micro-batch in forward (elements; 0 with flash
  /// attention).
  double score_elements() const {
    if (plan_.flash_attention) return 0.0;
    return (model_.dropout ? 6.5 : 4.0) * model_.heads / tp() * tokens() * double(model_.seq_len);
  }

  /// The FFN activation function's traffic per micro-batch in forward (elements, per rank).
  double activation_elements(uint32_t l) const { return tokens() * model_.ffn_activation_width(l) / tp(); }

  void collective(const std::string& name, const std::string& phase, CollectiveKind kind, const char* comm,
                  core::Bytes bytes) {
    add(name, phase, kCompute, {}, CollectiveOp{kind, comm, bytes});
  }

  /// Tensor-parallel exchange of activations at the start (`entering`) or end of a block.
  void tensor_exchange(const std::string& at, const std::string& phase, bool entering) {
    if (plan_.tensor_parallel == 1) return;
    if (sp())
      collective(at + (entering ? "tp-all-gather" : "tp-reduce-scatter"), phase,
                 entering ? CollectiveKind::kAllGather : CollectiveKind::kReduceScatter, "tp", activations());
    else if (!entering)
      collective(at + "tp-all-reduce", phase, CollectiveKind::kAllReduce, "tp", activations());
  }

  /// A pipeline exchange of one micro-batch's activations (or their gradients): each tensor-parallel
  /// rank sends b s' h / tp elements. With sequence parallelism that is the rank's own shard; without
  /// it, Megatron's scatter/gather (Narayanan et al. 2021, section 4.1): the receivers then all-gather
  /// the full tensor over tp before using it.
  void p2p(const std::string& name, const std::string& phase, P2PDirection dir, int32_t offset) {
    core::Bytes bytes(tokens() * model_.hidden * elem() / tp());
    const uint32_t stream = dir == P2PDirection::kRecv ? kCompute : offset > 0 ? kSendNext : kSendPrev;
    std::vector<uint32_t> deps;
    if (dir == P2PDirection::kSend) deps.push_back(last_compute_);
    add(name, phase, stream, deps, P2POp{dir, "pp", offset, bytes, plan_.chunks() > 1});
    if (dir == P2PDirection::kRecv && plan_.tensor_parallel > 1 && !sp())
      collective(name + "/tp-all-gather", phase, CollectiveKind::kAllGather, "tp", activations());
  }

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
                                     double experts) {
    if (plan_.zero_stage < 3) return {};
    std::vector<uint32_t> deps;
    if (compute_history_.size() >= 2) deps.push_back(compute_history_[compute_history_.size() - 2]);
    std::vector<uint32_t> out;
    if (dense > 0)
      out.push_back(add(at + "dp-all-gather-weights", phase, kDataParallel, deps,
                        CollectiveOp{CollectiveKind::kAllGather, "dp", core::Bytes(dense * elem())}));
    if (layout_.expert_sync && experts > 0)
      out.push_back(
          add(at + "expert-dp-all-gather-weights", phase, kDataParallel, deps,
              CollectiveOp{CollectiveKind::kAllGather, "expert-dp", core::Bytes(experts * elem())}));
    return out;
  }
  std::vector<uint32_t> gather_attention(const std::string& at, const std::string& phase, uint32_t l) {
    return gather_block(at + "attention/", phase, layer_blocks(model_, plan_, l).attention, 0.0);
  }
  std::vector<uint32_t> gather_rest(const std::string& at, const std::string& phase, uint32_t l) {
    return gather_block(at + (model_.is_moe_layer(l) ? "moe/" : "ffn/"), phase,
                        layer_dense(l) - layer_blocks(model_, plan_, l).attention, layer_experts(l));
  }

  void reduce_gradients(const std::string& at, const std::string& phase, double dense, double experts) {
    const auto kind = plan_.zero_stage == 0 ? CollectiveKind::kAllReduce : CollectiveKind::kReduceScatter;
    const std::string verb = plan_.zero_stage == 0 ? "all-reduce" : "reduce-scatter";
    if (plan_.dense_replicas() > 1 && dense > 0)
      add(at + "dp-" + verb + "-gradients", phase, kDataParallel, {last_compute_},
          CollectiveOp{kind, "dp", core::Bytes(dense * gradient_elem())});
    if (layout_.expert_sync && experts > 0)
      add(at + "expert-dp-" + verb + "-gradients", phase, kDataParallel, {last_compute_},
          CollectiveOp{kind, "expert-dp", core::Bytes(experts * gradient_elem())});
  }

  uint64_t routing_seed(uint32_t l, uint32_t mb) const {
    return plan_.seed * 0x100000001B3ull + (uint64_t(l) << 32) + mb;
  }

  ExpertDispatch dispatch(uint32_t l, uint32_t mb, bool combine) const {
    return {plan_.routing,
            rank_tokens(),
            model_.moe->experts,
            model_.moe->top_k,
            core::Bytes(double(model_.hidden) * token_bytes(combine)),
            routing_seed(l, mb),
            combine};
  }

  /// Bytes per element of the all-to-alls: the dispatch (and the gradients it carries to the experts in
  /// backward) in the recipe's dispatch format, the combine in the model's dtype.
  double token_bytes(bool combine) const { return combine ? elem() : precision_.dispatch_bytes(); }
  core::Bytes dispatch_bytes(bool combine) const {
    return core::Bytes(double(rank_tokens()) * model_.moe->top_k * model_.hidden * token_bytes(combine));
  }

  void layer_forward(uint32_t l, uint32_t mb, const std::string& at, const std::string& phase) {
    auto deps = gather_attention(at, phase, l);
    tensor_exchange(at + "attention/", phase, true);
    if (plan_.context_parallel > 1)
      collective(at + "attention/cp-all-gather-kv", phase, CollectiveKind::kAllGather, "cp", kv_bytes());
    attention_products(at, phase, "forward", 1.0, core::Flops(0.0), deps);
    elementwise(at + "attention/elementwise-forward", phase, 0.0, score_elements(), 1.0,
                plan_.flash_attention ? 2 : 4, attention_casts(false));
    // Parallel blocks: one exchange enters both blocks (attention's) and one leaves them (the FFN's).
    if (!model_.parallel_blocks) tensor_exchange(at + "attention/", phase, false);
    compute_history_.push_back(last_compute_);
    deps = gather_rest(at, phase, l);
    if (!model_.is_moe_layer(l)) {
      if (!model_.parallel_blocks) tensor_exchange(at + "ffn/", phase, true);
      linear(at + "ffn/forward", phase, model_.ffn_forward_flops(l, plan_.micro_batch) / (tp() * cp()),
             layer_dense(l) - attention_weights(), deps);
      elementwise(at + "ffn/elementwise-forward", phase, activation_elements(l), 0.0, 1.0, 3,
                  ffn_casts(l, false));
      tensor_exchange(at + "ffn/", phase, false);
    } else {
      moe_block(l, mb, at, phase, false, deps);
    }
    compute_history_.push_back(last_compute_);
  }

  /// An MoE block: router and shared experts, dispatch, routed experts, combine; backward runs the
  /// same all-to-alls (the gradients of the same tokens) at twice the FLOPs, router last.
  /// `gathered`: the ZeRO-3 gathers its first compute waits on.
  void moe_block(uint32_t l, uint32_t mb, const std::string& at, const std::string& phase, bool backward,
                 const std::vector<uint32_t>& gathered) {
    const auto& moe = *model_.moe;
    const double t = double(rank_tokens());
    const double local =
        double(moe.shared_experts) * model_.expert_weights() + double(model_.hidden) * moe.experts;
    const double factor = backward ? 2.0 : 1.0;
    // The router's h x experts weights go with the shared experts (in fp8 when there are any).
    auto local_compute = [&] {
      const std::string name = at + "moe/router-shared/" + (backward ? "backward" : "forward");
      const core::Flops flops(factor * 2.0 * t * local);
      std::vector<uint32_t> deps = backward ? std::vector<uint32_t>{} : gathered;
      if (moe.shared_experts > 0)
        linear(name, phase, flops, local, std::move(deps));
      else
        compute(name, phase, flops, local, std::move(deps));
    };
    if (!backward) local_compute();
    std::optional<uint32_t> sent;
    if (plan_.expert_parallel > 1)
      sent =
          add(at + "moe/ep-dispatch", phase, kCompute, {},
              CollectiveOp{CollectiveKind::kAllToAll, "ep", dispatch_bytes(false), dispatch(l, mb, false)});
    // Expert tensor parallelism: the tp ranks' received tokens gathered, a 1/etp slice of every expert
    // run on all of them (the same FLOPs per rank), the partial outputs reduce-scattered back.
    const bool split = plan_.expert_tensor_parallel > 1;
    if (split)
      collective(at + "moe/etp-all-gather", phase, CollectiveKind::kAllGather, "etp",
                 dispatch_bytes(false) * double(plan_.expert_tensor_parallel));
    ComputeOp experts =
        linear_op(core::Flops(factor * 2.0 * t * moe.top_k * model_.expert_weights()), layer_experts(l));
    experts.scaled_by = sent;
    add(at + "moe/experts/" + (backward ? "backward" : "forward"), phase, kCompute,
        backward ? gathered : std::vector<uint32_t>{}, experts);
    elementwise(at + "moe/elementwise-" + (backward ? "backward" : "forward"), phase, activation_elements(l),
                0.0, factor, 3, ffn_casts(l, backward));
    if (split)
      collective(at + "moe/etp-reduce-scatter", phase, CollectiveKind::kReduceScatter, "etp",
                 dispatch_bytes(true) * double(plan_.expert_tensor_parallel));
    if (plan_.expert_parallel > 1)
      add(at + "moe/ep-combine", phase, kCompute, {},
          CollectiveOp{CollectiveKind::kAllToAll, "ep", dispatch_bytes(true), dispatch(l, mb, true)});
    if (backward) local_compute();
  }

  static std::string layer_prefix(const std::string& step, uint32_t layer) {
    return step + "layer" + std::to_string(layer) + "/";
  }

  void layer_backward(uint32_t l, uint32_t mb, const std::string& at) {
    const std::string phase = "backward";
    auto deps = gather_rest(at, phase, l);
    if (!model_.is_moe_layer(l)) {
      tensor_exchange(at + "ffn/", phase, true);
      elementwise(at + "ffn/elementwise-backward", phase, activation_elements(l), 0.0, 2.0, 3,
                  ffn_casts(l, true));
      linear(at + "ffn/backward", phase, model_.ffn_forward_flops(l, plan_.micro_batch) * 2.0 / (tp() * cp()),
             2 * (layer_dense(l) - attention_weights()), deps);
      if (!model_.parallel_blocks) tensor_exchange(at + "ffn/", phase, false);
    } else {
      moe_block(l, mb, at, phase, true, deps);
    }
    compute_history_.push_back(last_compute_);
    deps = gather_attention(at, phase, l);
    if (!model_.parallel_blocks) tensor_exchange(at + "attention/", phase, true);
    if (plan_.context_parallel > 1)
      collective(at + "attention/cp-all-gather-kv", phase, CollectiveKind::kAllGather, "cp", kv_bytes());
    // Selective recomputation redoes the score kernels' forward before their backward.
    core::Flops redone(0.0);
    if (plan_.recompute == Recompute::kSelective)
      redone = model_.attention_score_flops(plan_.micro_batch) / (tp() * cp());
    const double scores = score_elements() * (plan_.recompute == Recompute::kSelective ? 1.5 : 1.0);
    elementwise(at + "attention/elementwise-backward", phase, 0.0, scores, 2.0,
                plan_.flash_attention ? 2 : (plan_.recompute == Recompute::kSelective ? 6 : 4),
                attention_casts(true));
    attention_products(at, phase, "backward", 2.0, redone, deps);
    if (plan_.context_parallel > 1)
      collective(at + "attention/cp-reduce-scatter-kv-gradients", phase, CollectiveKind::kReduceScatter, "cp",
                 kv_bytes());
    tensor_exchange(at + "attention/", phase, false);
    compute_history_.push_back(last_compute_);
    if (plan_.zero_stage == 3) reduce_gradients(at, phase, layer_dense(l), layer_experts(l));
  }

  /// The cross-entropy loss over this rank's logits (the micro-batch's tokens x vocab / tp): forward
  /// with its tensor-parallel all-reduces of one fp32 value per token, or backward.
  void loss(const std::string& at, const std::string& phase) {
    const double logits = tokens() * model_.vocab / tp();
    const bool forward = phase == "forward";
    add(at + "loss/" + phase, phase, kCompute, {},
        loss_step(logits, forward ? kLossForwardBytesPerLogit : kLossBackwardBytesPerLogit));
    if (!forward || plan_.tensor_parallel == 1) return;
    for (const char* value : kLossAllReduces)
      collective(at + "loss/tp-all-reduce-" + value, phase, CollectiveKind::kAllReduce, "tp",
                 core::Bytes(tokens() * kLossAllReduceBytesPerToken));
  }

  void forward_step(uint32_t mb, uint32_t chunk) {
    const std::string at = step_prefix(mb, chunk);
    const uint32_t vs = virtual_stage(chunk);
    const bool exchanges = !plan_.batched_exchanges;  // else batched_steps posts them
    if (vs > 0 && exchanges) p2p(at + "recv-activations", "forward", P2PDirection::kRecv, -1);
    for (uint32_t l : chunk_layers(model_, plan_, stage_, chunk))
      layer_forward(l, mb, layer_prefix(at, l), "forward");
    if (vs + 1 == virtual_stages()) {
      compute(at + "logits/forward", "forward",
              model_.logits_forward_flops(plan_.micro_batch) / (tp() * cp()),
              double(model_.vocab) * model_.hidden / tp());
      loss(at, "forward");
    } else if (exchanges) {
      p2p(at + "send-activations", "forward", P2PDirection::kSend, +1);
    }
  }

  void backward_step(uint32_t mb, uint32_t chunk) {
    const std::string at = step_prefix(mb, chunk);
    const uint32_t vs = virtual_stage(chunk);
    const bool exchanges = !plan_.batched_exchanges;  // else batched_steps posts them
    if (vs + 1 == virtual_stages()) {
      loss(at, "backward");
      compute(at + "logits/backward", "backward",
              model_.logits_forward_flops(plan_.micro_batch) * 2.0 / (tp() * cp()),
              2.0 * model_.vocab * model_.hidden / tp());
    } else if (exchanges) {
      p2p(at + "recv-gradients", "backward", P2PDirection::kRecv, +1);
    }
    const auto layers = chunk_layers(model_, plan_, stage_, chunk);
    const auto groups = plan_.recompute_groups(static_cast<uint32_t>(layers.size()));
    for (uint32_t i = static_cast<uint32_t>(layers.size()); i-- > 0;) {
      // Full recomputation reruns a group's forward before the backward of its last layer.
      for (const auto& group : groups)
        if (group.end == i + 1)
          for (uint32_t j = group.first; j < group.end; ++j)
            layer_forward(layers[j], mb, layer_prefix(at, layers[j]) + "recompute/", "recompute");
      layer_backward(layers[i], mb, layer_prefix(at, layers[i]));
    }
    if (vs > 0 && exchanges) p2p(at + "send-gradients", "backward", P2PDirection::kSend, -1);
    if (plan_.zero_stage == 2) reduce_chunk_gradients(at, chunk);
  }

  /// Megatron-LM 2021's schedules (batched_exchanges): an exchange after every step but a forward that
  /// the interleaved schedule pairs with the backward after it; each exchange posts the sends of the
  /// steps since the previous one and the receives of the steps up to the next one, and the next compute
  /// waits for all of them (batch_isend_irecv, wait, device synchronize). Receives run in order on the
  /// compute stream after the sends are posted, so no exchange waits on a neighbour's send.
  void batched_steps(const std::vector<PipelineStep>& steps) {
    // A steady state (a backward before the last forward): without one, as when every step of the
    // stage is a warm-up forward, the last forward is followed by an exchange too.
    const auto last_forward = std::find_if(steps.rbegin(), steps.rend(), [](auto& s) { return s.forward; });
    const bool steady = std::any_of(last_forward, steps.rend(), [](auto& s) { return !s.forward; });
    auto paired = [&](size_t i) {
      return steady && plan_.chunks() > 1 && steps[i].forward && i + 1 < steps.size() &&
             !steps[i + 1].forward;
    };
    size_t sent_from = 0;
    auto exchange = [&](size_t done, size_t next) {
      std::vector<uint32_t> sends;
      for (size_t i = sent_from; i < done; ++i)
        if (auto id = step_send(steps[i])) sends.push_back(*id);
      for (size_t i = next; i < steps.size(); ++i) {
        step_recv(steps[i]);
        if (!paired(i)) break;
      }
      sent_from = done;
      wait_for_ = std::move(sends);
    };
    exchange(0, 0);
    for (size_t i = 0; i < steps.size(); ++i) {
      steps[i].forward ? forward_step(steps[i].micro_batch, steps[i].chunk)
                       : backward_step(steps[i].micro_batch, steps[i].chunk);
      if (!paired(i)) exchange(i + 1, i + 1);
    }
  }

  /// The send a step ends with, if any (its activations to the next virtual stage, its gradients to
  /// the previous one); the op's index.
  std::optional<uint32_t> step_send(const PipelineStep& step) {
    const std::string at = step_prefix(step.micro_batch, step.chunk);
    const uint32_t vs = virtual_stage(step.chunk);
    if (step.forward && vs + 1 < virtual_stages())
      p2p(at + "send-activations", "forward", P2PDirection::kSend, +1);
    else if (!step.forward && vs > 0)
      p2p(at + "send-gradients", "backward", P2PDirection::kSend, -1);
    else
      return std::nullopt;
    return static_cast<uint32_t>(program_.ops.size() - 1);
  }

  /// The receive a step starts from, if any.
  void step_recv(const PipelineStep& step) {
    const std::string at = step_prefix(step.micro_batch, step.chunk);
    const uint32_t vs = virtual_stage(step.chunk);
    if (step.forward && vs > 0) p2p(at + "recv-activations", "forward", P2PDirection::kRecv, -1);
    if (!step.forward && vs + 1 < virtual_stages())
      p2p(at + "recv-gradients", "backward", P2PDirection::kRecv, +1);
  }

  /// Megatron-LM's combined 1F1B: forward `f` and backward `b` (of different micro-batches or chunks,
  /// paired by ParallelPlan::stage_steps) as one step: each pass generated as usual, then the two
  /// interleaved at their expert all-to-alls (interleave_at_expert_exchanges).
  void combined_step(const PipelineStep& f, const PipelineStep& b) {
    const auto start = static_cast<uint32_t>(program_.ops.size());
    forward_step(f.micro_batch, f.chunk);
    const auto middle = static_cast<uint32_t>(program_.ops.size());
    backward_step(b.micro_batch, b.chunk);
    const auto moved = interleave_at_expert_exchanges(program_, start, middle, {kCompute, kExpertExchange});
    for (uint32_t i = start; i < program_.ops.size(); ++i)
      if (program_.ops[i].stream == kCompute) last_compute_ = i;
    for (auto& id : compute_history_)
      if (id >= start) id = moved[id - start];
  }

  /// ZeRO-2: after a chunk's backward, reduce-scatter its gradients. Embeddings, output layer and final
  /// norm go with the last chunk on the last stage, else with chunk 0.
  void reduce_chunk_gradients(const std::string& at, uint32_t chunk) {
    double dense = 0, experts = 0;
    for (uint32_t l : chunk_layers(model_, plan_, stage_, chunk)) {
      dense += layer_dense(l);
      experts += layer_experts(l);
    }
    const uint32_t extras_chunk = stage_ + 1 == plan_.pipeline_parallel ? plan_.chunks() - 1 : 0;
    if (chunk == extras_chunk) {
      double layers_dense = 0;
      for (uint32_t c = 0; c < plan_.chunks(); ++c)
        for (uint32_t l : chunk_layers(model_, plan_, stage_, c)) layers_dense += layer_dense(l);
      dense += params_.dense - layers_dense;
    }
    reduce_gradients(at, "gradient-sync", dense, experts);
  }

  /// Tied embeddings on a pipeline: the first stage's word embedding and the last stage's output layer
  /// are one matrix, whose two gradients are summed (Megatron-LM's embedding group, an all-reduce of
  /// two ranks: each sends its V h / tp gradients to the other over the wrapped pipeline axis and adds).
  void sync_embedding_gradients(const std::vector<uint32_t>& after_sync) {
    const bool first = stage_ == 0, last = stage_ + 1 == plan_.pipeline_parallel;
    if (!model_.tied_embeddings || plan_.pipeline_parallel == 1 || !(first || last)) return;
    const double elements = double(model_.vocab) * model_.hidden / tp();
    const core::Bytes bytes(elements * gradient_elem());
    const int32_t peer = first ? -1 : +1;
    add("optimizer/embedding-gradients/send", "gradient-sync", first ? kSendPrev : kSendNext, after_sync,
        P2POp{P2PDirection::kSend, "pp", peer, bytes, true});
    add("optimizer/embedding-gradients/recv", "gradient-sync", kCompute, after_sync,
        P2POp{P2PDirection::kRecv, "pp", peer, bytes, true});
    add("optimizer/embedding-gradients/add", "gradient-sync", kCompute, {},
        ComputeOp{core::Flops(elements), core::Bytes(3.0 * elements * gradient_elem()),
                  plan_.gradients_in(model_), core::WorkKind::kVector, 1});
  }

  /// Megatron-LM's passes before the step over the rank's `shard` of gradients: 16-bit gradients
  /// copied to fp32 main gradients; with fp16 loss scaling, unscaled and checked for inf/NaN (an
  /// all-reduce of the flag); with clipping, the global norm (a pass, an all-reduce of the sum of
  /// squares over the ranks holding distinct gradients) and the scaling pass, counted every step (it
  /// runs whenever the norm exceeds the threshold).
  void prepare_gradients(double shard, const std::vector<uint32_t>& after_sync) {
    const double g = gradient_elem();
    if (g < kMainGradientBytes)
      add("optimizer/gradients-to-fp32", "optimizer", kCompute, after_sync,
          gradient_pass(GradientPass::kToFp32, shard, g));
    if (model_.dtype == core::Dtype::kFp16) {
      add("optimizer/unscale-gradients", "optimizer", kCompute, after_sync,
          gradient_pass(GradientPass::kUnscale, shard, g));
      if (layout_.norm_reduction)
        collective("optimizer/found-inf-all-reduce", "optimizer", CollectiveKind::kAllReduce,
                   kGradientNormGroup, core::Bytes(kGradientScalarBytes));
    }
    if (!plan_.gradient_clipping) return;
    add("optimizer/gradient-norm", "optimizer", kCompute, after_sync,
        gradient_pass(GradientPass::kNorm, shard, g));
    if (layout_.norm_reduction)
      collective("optimizer/gradient-norm-all-reduce", "optimizer", CollectiveKind::kAllReduce,
                 kGradientNormGroup, core::Bytes(kGradientScalarBytes));
    add("optimizer/clip-gradients", "optimizer", kCompute, {}, gradient_pass(GradientPass::kClip, shard, g));
  }

  void optimizer() {
    if (plan_.zero_stage <= 1) reduce_gradients("", "gradient-sync", params_.dense, params_.experts);
    const double dense_shard = plan_.zero_stage >= 1 ? params_.dense / plan_.dense_replicas() : params_.dense;
    const double expert_shard =
        plan_.zero_stage >= 1 ? params_.experts / plan_.expert_replicas() : params_.experts;
    const double shard = dense_shard + expert_shard;
    std::vector<uint32_t> after_sync;
    if (!program_.ops.empty()) after_sync.push_back(static_cast<uint32_t>(program_.ops.size() - 1));
    sync_embedding_gradients(after_sync);
    prepare_gradients(shard, after_sync);
    const core::Bytes state(precision_.optimizer_bytes() * shard);
    if (plan_.offload_optimizer)
      add("optimizer/load-state", "optimizer", kCompute, after_sync, MemoryOp{MemoryDirection::kRead, state});
    add("optimizer/adam", "optimizer", kCompute, after_sync,
        adam_step(shard, kMainGradientBytes, precision_.moment_bytes()));
    if (plan_.offload_optimizer)
      add("optimizer/store-state", "optimizer", kCompute, {}, MemoryOp{MemoryDirection::kWrite, state});
    if (plan_.zero_stage == 1 || plan_.zero_stage == 2) {
      if (plan_.dense_replicas() > 1)
        add("optimizer/dp-all-gather-weights", "optimizer", kDataParallel, {last_compute_},
            CollectiveOp{CollectiveKind::kAllGather, "dp", core::Bytes(params_.dense * elem())});
      if (layout_.expert_sync && params_.experts > 0)
        add("optimizer/expert-dp-all-gather-weights", "optimizer", kDataParallel, {last_compute_},
            CollectiveOp{CollectiveKind::kAllGather, "expert-dp", core::Bytes(params_.experts * elem())});
    }
  }

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
  std::vector<uint32_t> wait_for_;         ///< sends the next compute-stream op waits for (batched exchanges)
  std::vector<uint32_t> compute_history_;  ///< the last compute op of each block pass, in order
};

}  // namespace

Trace generate_megatron_trace(const TransformerSpec& model, const ParallelPlan& plan, uint64_t max_ops) {
  const PlanLayout layout = layout_of(model, plan);
  Trace trace;
  trace.name = model.name + "-dp" + std::to_string(plan.data_parallel) + "-pp" +
               std::to_string(plan.pipeline_parallel) + "-tp" + std::to_string(plan.tensor_parallel);
  if (plan.context_parallel > 1) trace.name += "-cp" + std::to_string(plan.context_parallel);
  if (plan.expert_parallel > 1) trace.name += "-ep" + std::to_string(plan.expert_parallel);
  if (plan.expert_tensor_parallel > 1) trace.name += "-etp" + std::to_string(plan.expert_tensor_parallel);
  trace.mesh = layout.mesh;
  trace.communicators = layout.communicators;
  trace.streams = {"compute", "send-next", "send-previous", "data-parallel"};
  if (plan.overlap_expert_communication) trace.streams.push_back("expert-exchange");
  if (plan.overlap_tensor_communication) trace.streams.push_back("tp-overlap");
  const TensorOverlapStreams tp_overlap{kCompute, static_cast<uint32_t>(trace.streams.size() - 1)};
  trace.role_axis = "pp";
  if (plan.offload_optimizer) trace.memory_moves_key = "offload_optimizer";  // its only memory moves
  trace.model_dtype = model.dtype;
  trace.model_flops = model.training_flops(plan.global_batch);
  trace.tokens_per_iteration = double(plan.global_batch) * model.seq_len;
  // Every layer runs at least a forward and a backward op per micro-batch: refuse before generating when
  // even that exceeds the bound, so that a model of 10^7 layers costs no time.
  const double at_least = 2.0 * model.layers * plan.micro_batches();
  if (at_least > double(max_ops))
    throw TraceTooLarge("the generated trace would hold more than " + std::to_string(max_ops) +
                        " ops (at least " + std::to_string(uint64_t(at_least)) +
                        ": a forward and a backward op per layer and micro-batch)");
  uint64_t ops_left = max_ops;
  for (uint32_t s = 0; s < plan.pipeline_parallel; ++s) {
    trace.roles.push_back({"stage" + std::to_string(s), {}});
    StageBuilder(model, plan, layout, s, trace.roles.back(), ops_left, max_ops).build();
    if (plan.overlap_tensor_communication) overlap_tensor_exchanges(trace.roles.back(), tp_overlap);
  }
  return trace;
}

}  // namespace zs::workload
