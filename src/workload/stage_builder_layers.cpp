// A stage's transformer layers: attention, dense FFN and MoE blocks, forward and backward.
#include "workload/mesh_axes.hpp"
#include "workload/stage_builder.hpp"

#include <optional>

namespace zs::workload {

void StageBuilder::attention_products(const std::string& at, const std::string& phase,
                                      const std::string& pass, double factor, core::Flops extra_core,
                                      std::vector<uint32_t> deps) {
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

void StageBuilder::context_parallel_attention(const std::string& at, const std::string& phase, bool backward,
                                              core::Flops extra_core, std::vector<uint32_t> deps) {
  const double factor = backward ? 2.0 : 1.0;
  const core::Flops core = model_.attention_score_flops(plan_.micro_batch) / (tp() * cp());
  // The output projection (h x output width per tp shard) and the rest of the projections.
  const double output_weights = model_.attention_output_width() * model_.hidden / tp();
  const core::Flops output(2.0 * tokens() * output_weights);
  const core::Flops qkv = attention_flops() - core - output;
  const std::string pass = backward ? "backward" : "forward";
  auto project = [&](const char* which, core::Flops flops, double weights, std::vector<uint32_t> after) {
    linear(at + "attention/" + which + "-" + pass, phase, flops * factor, factor * weights, std::move(after));
  };
  auto gather_kv = [&] {
    collective(at + "attention/cp-all-gather-kv", phase, CollectiveKind::kAllGather, axis_names::kContext,
               kv_bytes());
  };
  if (!backward) {
    project("qkv", qkv, attention_weights() - output_weights, std::move(deps));
    gather_kv();
    compute(at + "attention/core-" + pass, phase, core + extra_core, 0.0);
    project("output", output, output_weights, {});
    return;
  }
  project("output", output, output_weights, std::move(deps));
  gather_kv();
  compute(at + "attention/core-" + pass, phase, core * factor + extra_core, 0.0);
  collective(at + "attention/cp-reduce-scatter-kv-gradients", phase, CollectiveKind::kReduceScatter,
             axis_names::kContext, kv_bytes());
  project("qkv", qkv, attention_weights() - output_weights, {});
}

double StageBuilder::attention_casts(bool backward) const {
  if (!precision_.fp8()) return 0.0;
  const double t = tokens(), h = model_.hidden;
  if (!backward) return t * h + t * model_.attention_output_width() / tp();
  const double qkv = model_.query_width() +
                     model_.kv_replicas(plan_.tensor_parallel) * (model_.key_width() + model_.value_width());
  return t * h + t * qkv / tp();
}

double StageBuilder::ffn_casts(uint32_t l, bool backward) const {
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

void StageBuilder::elementwise(const std::string& name, const std::string& phase, double split_elements,
                               double score_elements, double factor, uint32_t kernels, double casts) {
  const double replicated = 5.0 * tokens() * model_.hidden / (sp() ? tp() : 1.0);
  const double elements = factor * (replicated + split_elements + score_elements);
  add(name, phase, kCompute, {},
      ComputeOp{core::Flops(elements), core::Bytes(elements * elem() + casts * precision_.cast_bytes()),
                model_.dtype, core::WorkKind::kVector, kernels});
}

double StageBuilder::score_elements() const {
  if (plan_.flash_attention) return 0.0;
  return (model_.dropout ? 6.5 : 4.0) * model_.heads / tp() * tokens() * double(model_.seq_len);
}

std::vector<uint32_t> StageBuilder::gather_block(const std::string& at, const std::string& phase,
                                                 double dense, double experts) {
  if (plan_.zero_stage < 3) return {};
  std::vector<uint32_t> deps;
  if (compute_history_.size() >= 2) deps.push_back(compute_history_[compute_history_.size() - 2]);
  std::vector<uint32_t> out;
  if (dense > 0)
    out.push_back(
        add(at + "dp-all-gather-weights", phase, kDataParallel, deps,
            CollectiveOp{CollectiveKind::kAllGather, axis_names::kData, core::Bytes(dense * elem())}));
  if (layout_.expert_sync && experts > 0)
    out.push_back(add(at + "expert-dp-all-gather-weights", phase, kDataParallel, deps,
                      CollectiveOp{CollectiveKind::kAllGather, axis_names::kExpertReplicas,
                                   core::Bytes(experts * elem())}));
  return out;
}

std::vector<uint32_t> StageBuilder::gather_attention(const std::string& at, const std::string& phase,
                                                     uint32_t l) {
  return gather_block(at + "attention/", phase, layer_blocks(model_, plan_, l).attention, 0.0);
}

std::vector<uint32_t> StageBuilder::gather_rest(const std::string& at, const std::string& phase, uint32_t l) {
  return gather_block(at + (model_.is_moe_layer(l) ? "moe/" : "ffn/"), phase,
                      layer_dense(l) - layer_blocks(model_, plan_, l).attention, layer_experts(l));
}

ExpertDispatch StageBuilder::dispatch(uint32_t l, uint32_t mb, bool combine) const {
  return {plan_.routing,
          rank_tokens(),
          model_.moe->experts,
          model_.moe->top_k,
          core::Bytes(double(model_.hidden) * token_bytes(combine)),
          routing_seed(l, mb),
          combine};
}

void StageBuilder::layer_forward(uint32_t l, uint32_t mb, const std::string& at, const std::string& phase) {
  host_wait(
      at + "host/layer", phase,
      stack_.per_layer_pass + (model_.is_moe_layer(l) ? stack_.per_moe_layer_forward : core::Seconds(0.0)));
  auto deps = gather_attention(at, phase, l);
  tensor_exchange(at + "attention/", phase, true);
  if (plan_.context_parallel > 1)
    context_parallel_attention(at, phase, false, core::Flops(0.0), deps);
  else
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

void StageBuilder::moe_block(uint32_t l, uint32_t mb, const std::string& at, const std::string& phase,
                             bool backward, const std::vector<uint32_t>& gathered) {
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
    sent = add(at + "moe/ep-dispatch", phase, kCompute, {},
               CollectiveOp{CollectiveKind::kAllToAll, axis_names::kExpert, dispatch_bytes(false),
                            dispatch(l, mb, false)});
  // Expert tensor parallelism: the tp ranks' received tokens gathered, a 1/etp slice of every expert
  // run on all of them (the same FLOPs per rank), the partial outputs reduce-scattered back.
  const bool split = plan_.expert_tensor_parallel > 1;
  if (split)
    collective(at + "moe/etp-all-gather", phase, CollectiveKind::kAllGather, axis_names::kExpertTensor,
               dispatch_bytes(false) * double(plan_.expert_tensor_parallel));
  ComputeOp experts =
      linear_op(core::Flops(factor * 2.0 * t * moe.top_k * model_.expert_weights()), layer_experts(l));
  experts.scaled_by = sent;
  add(at + "moe/experts/" + (backward ? "backward" : "forward"), phase, kCompute,
      backward ? gathered : std::vector<uint32_t>{}, experts);
  elementwise(at + "moe/elementwise-" + (backward ? "backward" : "forward"), phase, activation_elements(l),
              0.0, factor, 3, ffn_casts(l, backward));
  if (split)
    collective(at + "moe/etp-reduce-scatter", phase, CollectiveKind::kReduceScatter,
               axis_names::kExpertTensor, dispatch_bytes(true) * double(plan_.expert_tensor_parallel));
  if (plan_.expert_parallel > 1)
    add(at + "moe/ep-combine", phase, kCompute, {},
        CollectiveOp{CollectiveKind::kAllToAll, axis_names::kExpert, dispatch_bytes(true),
                     dispatch(l, mb, true)});
  if (backward) local_compute();
}

void StageBuilder::layer_backward(uint32_t l, uint32_t mb, const std::string& at) {
  const std::string phase = "backward";
  host_wait(at + "host/layer", phase, stack_.per_layer_pass);
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
  // Selective recomputation redoes the score kernels' forward before their backward.
  core::Flops redone(0.0);
  if (plan_.recompute == Recompute::kSelective)
    redone = model_.attention_score_flops(plan_.micro_batch) / (tp() * cp());
  const double scores = score_elements() * (plan_.recompute == Recompute::kSelective ? 1.5 : 1.0);
  elementwise(at + "attention/elementwise-backward", phase, 0.0, scores, 2.0,
              plan_.flash_attention ? 2 : (plan_.recompute == Recompute::kSelective ? 6 : 4),
              attention_casts(true));
  if (plan_.context_parallel > 1)
    context_parallel_attention(at, phase, true, redone, deps);
  else
    attention_products(at, phase, "backward", 2.0, redone, deps);
  tensor_exchange(at + "attention/", phase, false);
  compute_history_.push_back(last_compute_);
  if (plan_.zero_stage == 3) reduce_gradients(at, phase, layer_dense(l), layer_experts(l));
}

}  // namespace zs::workload
