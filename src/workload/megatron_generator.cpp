// Megatron-style 3D-parallel trace generation with GPipe and 1F1B pipeline schedules.
#include "workload/megatron_generator.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "workload/adam_step.hpp"

namespace zs::workload {
namespace {

constexpr uint32_t kCompute = 0, kSendNext = 1, kSendPrev = 2, kDataParallel = 3;

/// The order in which a stage runs forward (true) and backward (false) passes of micro-batches.
std::vector<std::pair<bool, uint32_t>> schedule_of(PipelineSchedule schedule, uint32_t stage, uint32_t stages,
                                                   uint32_t micro_batches) {
  std::vector<std::pair<bool, uint32_t>> order;
  if (schedule == PipelineSchedule::kGpipe) {
    for (uint32_t i = 0; i < micro_batches; ++i) order.emplace_back(true, i);
    for (uint32_t i = 0; i < micro_batches; ++i) order.emplace_back(false, i);
    return order;
  }
  const uint32_t warmup = std::min(stages - stage - 1, micro_batches);
  for (uint32_t i = 0; i < warmup; ++i) order.emplace_back(true, i);
  for (uint32_t i = 0; i + warmup < micro_batches; ++i) {
    order.emplace_back(true, warmup + i);
    order.emplace_back(false, i);
  }
  for (uint32_t i = micro_batches - warmup; i < micro_batches; ++i) order.emplace_back(false, i);
  return order;
}

/// Parameters a pipeline stage holds (all of its tensor-parallel shards): its layers, the token (and
/// learned position) embeddings on the first stage, the output layer and final norm on the last
/// (a copy of the embedding when tied and the stages differ, as Megatron-LM keeps).
double stage_params(const TransformerSpec& model, const MegatronPlan& plan, uint32_t stage) {
  const uint32_t per_stage = model.layers / plan.pipeline_parallel;
  const bool first = stage == 0, last = stage + 1 == plan.pipeline_parallel;
  const double vh = double(model.vocab) * model.hidden;
  const double positions = model.learned_positions ? double(model.seq_len) * model.hidden : 0.0;
  const double final_norm = model.embedding_params() - vh * (model.tied_embeddings ? 1 : 2) - positions;
  double p = 0;
  for (uint32_t l = stage * per_stage; l < (stage + 1) * per_stage; ++l) p += model.layer_params(l);
  if (first) p += vh + positions;
  if (last) p += final_norm + (first && model.tied_embeddings ? 0.0 : vh);
  return p;
}

/// Builds one stage's program.
class StageBuilder {
 public:
  StageBuilder(const TransformerSpec& model, const MegatronPlan& plan, uint32_t stage, RoleProgram& program)
      : model_(model), plan_(plan), stage_(stage), program_(program) {}

  void build() {
    const uint32_t per_stage = model_.layers / plan_.pipeline_parallel;
    first_layer_ = stage_ * per_stage;
    last_layer_ = first_layer_ + per_stage;
    for (auto [forward, mb] :
         schedule_of(plan_.schedule, stage_, plan_.pipeline_parallel, plan_.micro_batches()))
      forward ? forward_pass(mb) : backward_pass(mb);
    const double params = stage_params(model_, plan_, stage_) / plan_.tensor_parallel;
    uint32_t sync = add("grad-all-reduce", "gradient-sync", kDataParallel, {last_compute_},
                        CollectiveOp{CollectiveKind::kAllReduce, "dp", core::Bytes(params * elem())});
    add("optimizer/adam", "optimizer", kCompute, {sync}, adam_step(params));
  }

 private:
  double elem() const { return core::bytes_per_element(model_.dtype); }
  bool first() const { return stage_ == 0; }
  bool last() const { return stage_ + 1 == plan_.pipeline_parallel; }
  /// Activations of one micro-batch, elements: b*s*h.
  double activation() const { return double(plan_.micro_batch) * model_.seq_len * model_.hidden; }

  uint32_t add(std::string name, std::string phase, uint32_t stream, std::vector<uint32_t> deps,
               std::variant<ComputeOp, CollectiveOp, MemoryOp, P2POp> body) {
    program_.ops.push_back({std::move(name), std::move(phase), stream, std::move(deps), std::move(body)});
    auto id = static_cast<uint32_t>(program_.ops.size() - 1);
    if (stream == kCompute) last_compute_ = id;
    return id;
  }

  uint32_t compute(const std::string& name, const std::string& phase, core::Flops flops, double params) {
    const double tp = plan_.tensor_parallel;
    return add(
        name, phase, kCompute, {},
        ComputeOp{flops / tp, core::Bytes(params * elem() / tp), model_.dtype, core::WorkKind::kMatrix, 1});
  }

  void tensor_all_reduce(const std::string& name, const std::string& phase) {
    if (plan_.tensor_parallel == 1) return;
    add(name, phase, kCompute, {},
        CollectiveOp{CollectiveKind::kAllReduce, "tp", core::Bytes(activation() * elem())});
  }

  void p2p(const std::string& name, const std::string& phase, P2PDirection dir, int32_t offset) {
    core::Bytes bytes(activation() * elem() / plan_.tensor_parallel);
    uint32_t stream = dir == P2PDirection::kRecv ? kCompute : offset > 0 ? kSendNext : kSendPrev;
    std::vector<uint32_t> deps;
    if (dir == P2PDirection::kSend) deps.push_back(last_compute_);
    add(name, phase, stream, deps, P2POp{dir, "pp", offset, bytes});
  }

  void forward_pass(uint32_t mb) {
    const std::string at = "mb" + std::to_string(mb) + "/";
    const uint64_t b = plan_.micro_batch;
    if (!first()) p2p(at + "recv-activations", "forward", P2PDirection::kRecv, -1);
    for (uint32_t l = first_layer_; l < last_layer_; ++l) {
      const std::string layer = at + "layer" + std::to_string(l) + "/";
      compute(layer + "attention/forward", "forward", model_.attention_forward_flops(b),
              model_.attention_params());
      tensor_all_reduce(layer + "attention/tp-all-reduce", "forward");
      compute(layer + "ffn/forward", "forward", model_.ffn_forward_flops(l, b),
              model_.layer_params(l) - model_.attention_params());
      tensor_all_reduce(layer + "ffn/tp-all-reduce", "forward");
    }
    if (last())
      compute(at + "logits/forward", "forward", model_.logits_forward_flops(b),
              double(model_.vocab) * model_.hidden);
    else
      p2p(at + "send-activations", "forward", P2PDirection::kSend, +1);
  }

  void backward_pass(uint32_t mb) {
    const std::string at = "mb" + std::to_string(mb) + "/";
    const uint64_t b = plan_.micro_batch;
    if (last())
      compute(at + "logits/backward", "backward", model_.logits_forward_flops(b) * 2.0,
              2.0 * model_.vocab * model_.hidden);
    else
      p2p(at + "recv-gradients", "backward", P2PDirection::kRecv, +1);
    for (uint32_t l = last_layer_; l-- > first_layer_;) {
      const std::string layer = at + "layer" + std::to_string(l) + "/";
      compute(layer + "ffn/backward", "backward", model_.ffn_forward_flops(l, b) * 2.0,
              2 * (model_.layer_params(l) - model_.attention_params()));
      tensor_all_reduce(layer + "ffn/tp-all-reduce", "backward");
      compute(layer + "attention/backward", "backward", model_.attention_forward_flops(b) * 2.0,
              2 * model_.attention_params());
      tensor_all_reduce(layer + "attention/tp-all-reduce", "backward");
    }
    if (!first()) p2p(at + "send-gradients", "backward", P2PDirection::kSend, -1);
  }

  const TransformerSpec& model_;
  const MegatronPlan& plan_;
  uint32_t stage_;
  RoleProgram& program_;
  uint32_t first_layer_ = 0, last_layer_ = 0;
  uint32_t last_compute_ = 0;
};

uint32_t parallel_degree(core::JsonObject& json, const char* key) {
  return static_cast<uint32_t>(json.integer_or(key, 1, 1, 1 << 20));
}

void require_divides(core::JsonObject& json, const char* key, uint32_t degree, uint64_t value,
                     const std::string& what) {
  if (value % degree != 0)
    throw json.error(key, std::string(key) + " " + std::to_string(degree) + " does not divide " + what +
                              " (" + std::to_string(value) + ")");
}

}  // namespace

MegatronPlan MegatronPlan::from_json(core::JsonObject& json, const TransformerSpec& model) {
  MegatronPlan p;
  p.data_parallel = parallel_degree(json, "data_parallel");
  p.tensor_parallel = parallel_degree(json, "tensor_parallel");
  p.pipeline_parallel = parallel_degree(json, "pipeline_parallel");
  p.micro_batch = static_cast<uint32_t>(json.integer("micro_batch", 1, 1 << 20));
  p.global_batch = static_cast<uint32_t>(json.integer("global_batch", 1, 1 << 30));
  std::string schedule = json.optional_string("schedule").value_or("1f1b");
  if (schedule == "gpipe")
    p.schedule = PipelineSchedule::kGpipe;
  else if (schedule != "1f1b")
    throw json.error("schedule", "unknown schedule \"" + schedule + "\" (known: gpipe, 1f1b)");
  if (model.moe)
    throw json.error(
        "tensor_parallel",
        "model \"" + model.name + "\" is a Mixture-of-Experts; expert parallelism is not implemented yet");
  require_divides(json, "pipeline_parallel", p.pipeline_parallel, model.layers, "the layers");
  require_divides(json, "tensor_parallel", p.tensor_parallel, model.heads, "the attention heads");
  require_divides(json, "tensor_parallel", p.tensor_parallel,
                  model.kv_heads == 0 ? model.heads : model.kv_heads, "the key/value heads");
  require_divides(json, "tensor_parallel", p.tensor_parallel, model.ffn_hidden, "the FFN width");
  const uint64_t per_step = uint64_t(p.data_parallel) * p.micro_batch;
  if (p.global_batch % per_step != 0)
    throw json.error("global_batch",
                     "global batch " + std::to_string(p.global_batch) +
                         " is not a multiple of data_parallel x micro_batch = " + std::to_string(per_step));
  return p;
}

nlohmann::json MegatronPlan::to_json() const {
  return {{"data_parallel", data_parallel},
          {"tensor_parallel", tensor_parallel},
          {"pipeline_parallel", pipeline_parallel},
          {"micro_batch", micro_batch},
          {"global_batch", global_batch},
          {"micro_batches", micro_batches()},
          {"schedule", schedule == PipelineSchedule::kGpipe ? "gpipe" : "1f1b"}};
}

core::Bytes megatron_model_state_bytes(const TransformerSpec& model, const MegatronPlan& plan) {
  double worst = 0;
  for (uint32_t s = 0; s < plan.pipeline_parallel; ++s) worst = std::max(worst, stage_params(model, plan, s));
  return core::Bytes(16.0 * worst / plan.tensor_parallel);
}

Trace generate_megatron_trace(const TransformerSpec& model, const MegatronPlan& plan) {
  Trace trace;
  trace.name = model.name + "-dp" + std::to_string(plan.data_parallel) + "-pp" +
               std::to_string(plan.pipeline_parallel) + "-tp" + std::to_string(plan.tensor_parallel);
  trace.mesh =
      Mesh({{"pp", plan.pipeline_parallel}, {"dp", plan.data_parallel}, {"tp", plan.tensor_parallel}});
  trace.streams = {"compute", "send-next", "send-previous", "data-parallel"};
  trace.role_axis = "pp";
  trace.model_dtype = model.dtype;
  trace.model_flops = model.training_flops(plan.global_batch);
  trace.tokens_per_iteration = double(plan.global_batch) * model.seq_len;
  for (uint32_t s = 0; s < plan.pipeline_parallel; ++s) {
    trace.roles.push_back({"stage" + std::to_string(s), {}});
    StageBuilder(model, plan, s, trace.roles.back()).build();
  }
  return trace;
}

}  // namespace zs::workload
