// The workload's model and plan as Megatron-LM arguments.
#include "planner/megatron_arguments.hpp"

#include <set>

namespace zs::planner {
namespace {

std::string number(const nlohmann::json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return std::to_string(v.get<long long>());
  return v.dump();
}

}  // namespace

const std::vector<std::string>& megatron_argument_names() {
  static const std::vector<std::string> names = {
      // _add_network_size_args
      "--num-layers", "--hidden-size", "--ffn-hidden-size", "--num-attention-heads", "--kv-channels",
      "--group-query-attention", "--num-query-groups", "--max-position-embeddings",
      "--position-embedding-type", "--normalization", "--swiglu", "--untie-embeddings-and-output-weights",
      "--disable-bias-linear", "--seq-length", "--vocab-size",
      // _add_training_args
      "--micro-batch-size", "--global-batch-size", "--recompute-granularity", "--recompute-method",
      "--recompute-num-layers", "--use-flash-attn", "--tp-comm-overlap",
      // _add_distributed_args
      "--tensor-model-parallel-size", "--pipeline-model-parallel-size",
      "--num-layers-per-virtual-pipeline-stage", "--decoder-first-pipeline-num-layers",
      "--decoder-last-pipeline-num-layers", "--context-parallel-size", "--sequence-parallel",
      "--use-distributed-optimizer", "--overlap-grad-reduce", "--overlap-param-gather",
      // _add_regularization_args
      "--attention-dropout", "--hidden-dropout", "--clip-grad",
      // _add_transformer_engine_args
      "--fp8-format", "--fp8-recipe",
      // _add_moe_args
      "--expert-model-parallel-size", "--expert-tensor-parallel-size", "--num-experts", "--moe-router-topk",
      "--moe-ffn-hidden-size", "--overlap-moe-expert-parallel-comm",
      // _add_checkpointing_args
      "--save-interval",
      // _add_mixed_precision_args
      "--bf16", "--fp16", "--accumulate-allreduce-grads-in-fp32", "--grad-reduce-in-bf16",
      "--use-precision-aware-optimizer", "--exp-avg-dtype", "--exp-avg-sq-dtype"};
  return names;
}

namespace {

/// Megatron-LM reduces a bf16 model's gradients in fp32 unless --grad-reduce-in-bf16, and an fp16
/// model's in fp16 unless --accumulate-allreduce-grads-in-fp32.
void add_gradient_dtype(const std::string& model_dtype, const std::string& gradients,
                        std::vector<MegatronArgument>& a, std::vector<std::string>& unmapped) {
  if (gradients == "auto") return;
  if (model_dtype == "bf16" && gradients == "bf16")
    a.emplace_back("--grad-reduce-in-bf16", "");
  else if (model_dtype == "fp16" && gradients == "fp32")
    a.emplace_back("--accumulate-allreduce-grads-in-fp32", "");
  else if (!(gradients == "fp32" && model_dtype == "bf16") && gradients != model_dtype)
    unmapped.push_back("plan.gradient_dtype " + gradients + " with a " + model_dtype + " model");
}

/// The fp8 recipes: Transformer Engine's hybrid format (e4m3 forward, e5m2 gradients) with Megatron-LM's
/// default delayed scaling; DeepSeek-V3's blockwise scaling with bf16 Adam moments (the precision-aware
/// optimizer). DeepSeek-V3's fp8 expert dispatch has no Megatron-LM argument, nor has a delayed-scaling plan
/// that does not reduce its amaxes (Transformer Engine reduces them by default).
void add_fp8(const nlohmann::json& p, std::vector<MegatronArgument>& a, std::vector<std::string>& unmapped) {
  const std::string recipe = p.value("fp8", "none");
  if (recipe == "transformer-engine") {
    a.emplace_back("--fp8-format", "hybrid");
    if (!p.value("fp8_amax_reduction", false))
      unmapped.push_back(
          "plan.fp8_amax_reduction false (Transformer Engine's delayed scaling reduces every chunk's "
          "amaxes)");
  }
  if (recipe != "deepseek-v3") return;
  a.emplace_back("--fp8-format", "e4m3");
  a.emplace_back("--fp8-recipe", "blockwise");
  a.emplace_back("--use-precision-aware-optimizer", "");
  a.emplace_back("--exp-avg-dtype", "bf16");
  a.emplace_back("--exp-avg-sq-dtype", "bf16");
  unmapped.push_back("plan.fp8 deepseek-v3's fp8 expert dispatch");
}

/// Megatron-LM takes uneven stages as the first and the last stage's layer counts, the others equal
/// (--decoder-first/last-pipeline-num-layers); any other split, or one with interleaving, is unmapped.
void add_uneven_stages(const nlohmann::json& layers, long long virtual_stages,
                       std::vector<MegatronArgument>& a, std::vector<std::string>& unmapped) {
  const size_t n = layers.size();
  bool middle_equal = n >= 3 && virtual_stages == 1;
  for (size_t i = 2; middle_equal && i + 1 < n; ++i) middle_equal = layers[i] == layers[1];
  if (!middle_equal) {
    unmapped.push_back(
        "plan.layers_per_stage " + layers.dump() +
        " (Megatron-LM sets only the first and last stages' layers apart, without interleaving)");
    return;
  }
  a.emplace_back("--decoder-first-pipeline-num-layers", layers.front().dump());
  a.emplace_back("--decoder-last-pipeline-num-layers", layers.back().dump());
}

/// The plan's pipeline exchanges where Megatron-LM cannot run them: Megatron-LM 2021's batched ones, or, in
/// an interleaved schedule, receives posted just before their steps (Megatron-LM overlaps its exchanges
/// unless told --no-overlap-p2p-communication, which batches them instead).
void note_exchanges(const nlohmann::json& p, long long virtual_stages, std::vector<std::string>& unmapped) {
  if (p.at("pipeline_parallel").get<long long>() < 2) return;
  if (p.value("batched_exchanges", false))
    unmapped.push_back("plan.batched_exchanges (Megatron-LM 2021's pipeline exchanges)");
  else if (virtual_stages > 1 && !p.value("overlap_pipeline_exchanges", false))
    unmapped.push_back(
        "plan.overlap_pipeline_exchanges false (Megatron-LM overlaps an interleaved schedule's pipeline "
        "exchanges)");
}

}  // namespace

nlohmann::json workload_with_derived(const nlohmann::json& config) {
  nlohmann::json workload = config.at("workload");
  workload.update(config.at("derived").at("workload"));
  return workload;
}

std::vector<MegatronArgument> megatron_arguments(const nlohmann::json& workload, long long save_interval,
                                                 std::vector<std::string>& unmapped) {
  const auto& m = workload.at("model");
  const auto& p = workload;
  std::vector<MegatronArgument> a;
  a.emplace_back("--tensor-model-parallel-size", number(p.at("tensor_parallel")));
  a.emplace_back("--pipeline-model-parallel-size", number(p.at("pipeline_parallel")));
  const long long virtual_stages = p.at("virtual_stages").get<long long>();
  if (p.contains("layers_per_stage")) {
    add_uneven_stages(p.at("layers_per_stage"), virtual_stages, a, unmapped);
  } else if (virtual_stages > 1) {
    const long long layers = m.at("layers").get<long long>();
    const long long per_stage = layers / (p.at("pipeline_parallel").get<long long>() * virtual_stages);
    a.emplace_back("--num-layers-per-virtual-pipeline-stage", std::to_string(per_stage));
  }
  a.emplace_back("--context-parallel-size", number(p.at("context_parallel")));
  a.emplace_back("--expert-model-parallel-size", number(p.at("expert_parallel")));
  // Always written for MoE: left out, Megatron-LM would split the experts over tensor_parallel.
  if (m.contains("moe"))
    a.emplace_back("--expert-tensor-parallel-size", number(p.at("expert_tensor_parallel")));
  if (p.at("sequence_parallel").get<bool>()) a.emplace_back("--sequence-parallel", "");
  a.emplace_back("--micro-batch-size", number(p.at("micro_batch")));
  a.emplace_back("--global-batch-size", number(p.at("global_batch")));
  const std::string recompute = p.at("recompute").get<std::string>();
  if (recompute == "selective") a.emplace_back("--recompute-granularity", "selective");
  if (recompute == "full") {
    a.emplace_back("--recompute-granularity", "full");
    a.emplace_back("--recompute-method", p.at("recompute_method").get<std::string>());
    a.emplace_back("--recompute-num-layers", number(p.at("recompute_layers")));
  }
  if (p.at("zero_stage").get<long long>() >= 1) a.emplace_back("--use-distributed-optimizer", "");
  if (p.value("overlap_gradient_reduction", false)) a.emplace_back("--overlap-grad-reduce", "");
  if (p.value("overlap_parameter_gather", false)) a.emplace_back("--overlap-param-gather", "");
  if (p.at("zero_stage").get<long long>() > 1)
    unmapped.push_back("plan.zero_stage > 1 (Megatron shards optimizer state only)");
  if (!p.value("gradient_clipping", true)) a.emplace_back("--clip-grad", "0.0");
  if (p.at("offload_optimizer").get<bool>()) unmapped.push_back("plan.offload_optimizer");
  if (p.value("overlap_expert_communication", false))
    a.emplace_back("--overlap-moe-expert-parallel-comm", "");
  if (p.value("overlap_tensor_communication", false)) a.emplace_back("--tp-comm-overlap", "");
  note_exchanges(p, virtual_stages, unmapped);
  add_fp8(p, a, unmapped);
  if (p.at("flash_attention").get<bool>()) a.emplace_back("--use-flash-attn", "");
  if (save_interval > 0) a.emplace_back("--save-interval", std::to_string(save_interval));

  a.emplace_back("--num-layers", number(m.at("layers")));
  a.emplace_back("--hidden-size", number(m.at("hidden")));
  a.emplace_back("--ffn-hidden-size", number(m.at("ffn_hidden")));
  a.emplace_back("--num-attention-heads", number(m.at("heads")));
  if (m.contains("head_dim") &&
      m.at("head_dim").get<long long>() * m.at("heads").get<long long>() != m.at("hidden").get<long long>())
    a.emplace_back("--kv-channels", number(m.at("head_dim")));
  if (m.contains("kv_heads") && m.at("kv_heads") != m.at("heads")) {
    a.emplace_back("--group-query-attention", "");
    a.emplace_back("--num-query-groups", number(m.at("kv_heads")));
  }
  a.emplace_back("--seq-length", number(m.at("seq_len")));
  a.emplace_back("--max-position-embeddings", number(m.at("seq_len")));
  a.emplace_back("--vocab-size", number(m.at("vocab")));
  const std::string position = m.value("position_embedding", "learned");
  a.emplace_back("--position-embedding-type", position == "learned" ? "learned_absolute" : "rope");
  a.emplace_back("--normalization", m.value("norm", "layernorm") == "rmsnorm" ? "RMSNorm" : "LayerNorm");
  if (m.value("ffn_activation", "gelu") == "swiglu") a.emplace_back("--swiglu", "");
  if (!m.value("tied_embeddings", true)) a.emplace_back("--untie-embeddings-and-output-weights", "");
  if (!m.value("biases", true)) a.emplace_back("--disable-bias-linear", "");
  if (!m.value("dropout", true)) {  // Megatron-LM's default is 0.1 for both
    a.emplace_back("--attention-dropout", "0.0");
    a.emplace_back("--hidden-dropout", "0.0");
  }
  if (m.value("parallel_blocks", false))
    unmapped.push_back("model.parallel_blocks (Megatron-LM runs attention and MLP one after the other)");
  const std::string dtype = m.value("dtype", "bf16");
  if (dtype == "bf16")
    a.emplace_back("--bf16", "");
  else if (dtype == "fp16")
    a.emplace_back("--fp16", "");
  else
    unmapped.push_back("model.dtype " + dtype);
  add_gradient_dtype(dtype, p.value("gradient_dtype", "auto"), a, unmapped);
  if (m.contains("moe")) {
    const auto& moe = m.at("moe");
    a.emplace_back("--num-experts", number(moe.at("experts")));
    a.emplace_back("--moe-router-topk", number(moe.at("top_k")));
    if (moe.contains("expert_ffn_hidden"))
      a.emplace_back("--moe-ffn-hidden-size", number(moe.at("expert_ffn_hidden")));
    static const std::set<std::string> mapped = {"experts", "top_k", "expert_ffn_hidden", "capacity_factor"};
    for (const auto& [k, v] : moe.items())
      if (!mapped.count(k)) unmapped.push_back("model.moe." + k);
  }
  static const std::set<std::string> model_mapped = {"kind",
                                                     "name",
                                                     "description",
                                                     "source",
                                                     "layers",
                                                     "hidden",
                                                     "heads",
                                                     "kv_heads",
                                                     "head_dim",
                                                     "ffn_hidden",
                                                     "vocab",
                                                     "seq_len",
                                                     "dtype",
                                                     "ffn_activation",
                                                     "biases",
                                                     "norm",
                                                     "position_embedding",
                                                     "tied_embeddings",
                                                     "moe",
                                                     "dropout",
                                                     "parallel_blocks"};
  for (const auto& [k, v] : m.items())
    if (!model_mapped.count(k) && !v.is_null()) unmapped.push_back("model." + k);
  return a;
}

}  // namespace zs::planner
