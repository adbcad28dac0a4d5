// The rules between Megatron-LM's arguments and the plan and model: each flag once, written and read.
#include "workload/megatron_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace zs::workload::megatron {

namespace {

using Given = GivenArguments;
using nlohmann::json;

void arg(MegatronCommand& out, const char* flag, std::string value = "") {
  out.arguments.emplace_back(flag, std::move(value));
}

std::string text(uint32_t n) {
  return std::to_string(n);
}

uint32_t count_or(const Given& g, const char* flag, uint32_t fallback) {
  return g.has(flag) ? g.count(flag) : fallback;
}

/// A flag's value compared as zero or not (dropout probabilities).
std::string zero_or_not(const std::string& value) {
  char* end = nullptr;
  const double x = std::strtod(value.c_str(), &end);
  return end != value.c_str() && *end == '\0' && x == 0.0 ? "0" : "nonzero";
}

/// --moe-layer-freq as "N dense layers first": 1 (every layer MoE), "[0]*D+[1]*M" (with or without
/// parentheses and quotes) or a list of 0s followed by 1s; anything else as written.
std::string dense_layers_first(const std::string& value) {
  std::string v;
  for (char c : value)
    if (c != ' ' && c != '\'' && c != '"' && c != '(' && c != ')') v += c;
  if (v == "1") return "0 dense layers first";
  uint32_t dense = 0, moe = 0;
  if (std::sscanf(v.c_str(), "[0]*%u+[1]*%u", &dense, &moe) == 2 &&
      v == "[0]*" + text(dense) + "+[1]*" + text(moe))
    return text(dense) + " dense layers first";
  if (std::sscanf(v.c_str(), "[1]*%u", &moe) == 1 && v == "[1]*" + text(moe)) return "0 dense layers first";
  if (v.size() < 2 || v.front() != '[' || v.back() != ']') return value;
  bool ones = false;
  dense = 0;
  for (size_t i = 1; i + 1 < v.size(); i += 2) {
    const char c = v[i];
    if ((c != '0' && c != '1') || (v[i + 1] != ',' && i + 2 != v.size())) return value;
    if (c == '1') ones = true;
    if (c == '0' && ones) return value;
    if (c == '0') ++dense;
  }
  return text(dense) + " dense layers first";
}

std::optional<std::string> always(const char* value) {
  return std::string(value);
}

// ---- the plan ----

Rule tensor_parallel() {
  return {{{"--tensor-model-parallel-size", true}},
          [](const MegatronJob& j, MegatronCommand& out) {
            arg(out, "--tensor-model-parallel-size", text(j.plan.tensor_parallel));
          },
          [](const Given& g, const TransformerSpec&, json& plan) {
            plan["tensor_parallel"] = count_or(g, "--tensor-model-parallel-size", 1);
          }};
}

Rule pipeline_parallel() {
  return {{{"--pipeline-model-parallel-size", true}},
          [](const MegatronJob& j, MegatronCommand& out) {
            arg(out, "--pipeline-model-parallel-size", text(j.plan.pipeline_parallel));
          },
          [](const Given& g, const TransformerSpec&, json& plan) {
            plan["pipeline_parallel"] = count_or(g, "--pipeline-model-parallel-size", 1);
          }};
}

/// Uneven stages as Megatron-LM takes them: the first and the last stage's layers, the others equal
/// (--decoder-first/last-pipeline-num-layers), without interleaving.
void write_stages(const MegatronJob& j, MegatronCommand& out) {
  const auto& p = j.plan;
  if (p.chunks() > 1 && p.microbatch_group != p.pipeline_parallel)
    arg(out, "--microbatch-group-size-per-virtual-pipeline-stage", text(p.microbatch_group));
  if (p.layers_per_stage.empty()) {
    if (p.chunks() > 1)
      arg(out, "--num-layers-per-virtual-pipeline-stage",
          text(j.model.layers / (p.pipeline_parallel * p.chunks())));
    return;
  }
  const auto& layers = p.layers_per_stage;
  bool middle_equal = layers.size() >= 2 && p.chunks() == 1;
  for (size_t i = 2; middle_equal && i + 1 < layers.size(); ++i) middle_equal = layers[i] == layers[1];
  if (!middle_equal) {
    out.unmapped.push_back("plan.layers_per_stage " + json(layers).dump() +
                           " (Megatron-LM sets only the first and last stages' layers apart, without "
                           "interleaving)");
    return;
  }
  arg(out, "--decoder-first-pipeline-num-layers", text(layers.front()));
  arg(out, "--decoder-last-pipeline-num-layers", text(layers.back()));
}

/// The interleaved schedule's chunks per stage, from either of Megatron-LM's two ways of saying it; 1 when
/// neither is given.
uint32_t read_chunks(const Given& g, const TransformerSpec& model, uint32_t pp) {
  const char* per_stage = "--num-layers-per-virtual-pipeline-stage";
  const char* per_rank = "--num-virtual-stages-per-pipeline-rank";
  if (g.has(per_stage) && g.has(per_rank))
    throw g.error(per_rank, "and " + std::string(per_stage) + " are one choice");
  if (g.has(per_rank)) return g.count(per_rank);
  if (!g.has(per_stage)) return 1;
  const uint32_t layers = g.count(per_stage);
  if (model.layers % (uint64_t(layers) * pp) != 0)
    throw g.error(per_stage, "of " + text(layers) + " does not divide the model's " + text(model.layers) +
                                 " layers over " + text(pp) + " pipeline stages");
  return model.layers / (layers * pp);
}

/// layers_per_stage from --decoder-first/last-pipeline-num-layers: the other stages share the rest evenly.
void read_uneven(const Given& g, const TransformerSpec& model, uint32_t pp, uint32_t chunks, json& plan) {
  const char* first = "--decoder-first-pipeline-num-layers";
  const char* last = "--decoder-last-pipeline-num-layers";
  if (!g.has(first) && !g.has(last)) return;
  const char* given = g.has(first) ? first : last;
  if (chunks > 1)
    throw g.error(given, "with virtual pipeline stages is not modelled (uneven stages go without)");
  const uint32_t a = g.has(first) ? g.count(first) : 0, b = g.has(last) ? g.count(last) : 0;
  const uint32_t middle = pp - (g.has(first) ? 1 : 0) - (g.has(last) ? 1 : 0);
  if (pp < 2 || a + b > model.layers ||
      (middle == 0 ? a + b != model.layers : (model.layers - a - b) % middle != 0))
    throw g.error(given, "leaves the model's " + text(model.layers) + " layers no even split over the " +
                             text(pp) + " pipeline stages");
  std::vector<uint32_t> layers(pp, middle == 0 ? 0 : (model.layers - a - b) / middle);
  if (g.has(first)) layers.front() = a;
  if (g.has(last)) layers.back() = b;
  plan["layers_per_stage"] = layers;
}

Rule stages() {
  return {{{"--num-layers-per-virtual-pipeline-stage", true},
           {"--num-virtual-stages-per-pipeline-rank", true},
           {"--decoder-first-pipeline-num-layers", true},
           {"--decoder-last-pipeline-num-layers", true},
           {"--microbatch-group-size-per-virtual-pipeline-stage", true},
           {"--no-overlap-p2p-communication", false}},
          write_stages,
          [](const Given& g, const TransformerSpec& model, json& plan) {
            const uint32_t pp = count_or(g, "--pipeline-model-parallel-size", 1);
            const uint32_t chunks = read_chunks(g, model, pp);
            const auto schedule = chunks > 1 ? PipelineSchedule::kInterleaved1F1B : PipelineSchedule::k1F1B;
            plan["schedule"] = to_string(schedule);
            plan["virtual_stages"] = chunks;
            // Megatron-Core overlaps the interleaved schedule's exchanges unless told not to.
            plan["overlap_pipeline_exchanges"] = chunks > 1 && !g.has("--no-overlap-p2p-communication");
            if (g.has("--microbatch-group-size-per-virtual-pipeline-stage"))
              plan["microbatch_group"] =
                  count_or(g, "--microbatch-group-size-per-virtual-pipeline-stage", pp);
            read_uneven(g, model, pp, chunks, plan);
          }};
}

Rule context_parallel() {
  return {{{"--context-parallel-size", true}},
          [](const MegatronJob& j, MegatronCommand& out) {
            arg(out, "--context-parallel-size", text(j.plan.context_parallel));
          },
          [](const Given& g, const TransformerSpec&, json& plan) {
            plan["context_parallel"] = count_or(g, "--context-parallel-size", 1);
          }};
}

Rule expert_parallel() {
  return {{{"--expert-model-parallel-size", true}, {"--expert-tensor-parallel-size", true}},
          [](const MegatronJob& j, MegatronCommand& out) {
            arg(out, "--expert-model-parallel-size", text(j.plan.expert_parallel));
            // Always written for MoE: left out, Megatron-LM would split the experts over tensor_parallel.
            if (j.model.moe) arg(out, "--expert-tensor-parallel-size", text(j.plan.expert_tensor_parallel));
          },
          [](const Given& g, const TransformerSpec& model, json& plan) {
            plan["expert_parallel"] = count_or(g, "--expert-model-parallel-size", 1);
            if (model.moe)
              plan["expert_tensor_parallel"] = count_or(g, "--expert-tensor-parallel-size",
                                                        count_or(g, "--tensor-model-parallel-size", 1));
          }};
}

Rule sequence_parallel() {
  return {{{"--sequence-parallel", false}},
          [](const MegatronJob& j, MegatronCommand& out) {
            if (j.plan.sequence_parallel) arg(out, "--sequence-parallel");
          },
          [](const Given& g, const TransformerSpec&, json& plan) {
            plan["sequence_parallel"] = g.has("--sequence-parallel");
          }};
}

Rule batch() {
  return {{{"--micro-batch-size", true}, {"--global-batch-size", true}},
          [](const MegatronJob& j, MegatronCommand& out) {
            arg(out, "--micro-batch-size", text(j.plan.micro_batch));
            arg(out, "--global-batch-size", text(j.plan.global_batch));
          },
          [](const Given& g, const TransformerSpec&, json& plan) {
            if (g.has("--micro-batch-size")) plan["micro_batch"] = g.count("--micro-batch-size");
            if (g.has("--global-batch-size")) plan["global_batch"] = g.count("--global-batch-size");
          }};
}

void read_recompute(const Given& g, const TransformerSpec&, json& plan) {
  const char* granularity = "--recompute-granularity";
  const char* method = "--recompute-method";
  const char* layers = "--recompute-num-layers";
  auto recompute = Recompute::kNone;
  if (g.has(granularity)) {
    const auto named = recomputations().find(g.value(granularity));
    if (!named || *named == Recompute::kNone)
      throw g.error(granularity, "expects full or selective, got \"" + g.value(granularity) + "\"");
    recompute = *named;
  }
  plan["recompute"] = to_string(recompute);
  if (recompute != Recompute::kFull) {
    for (const char* flag : {method, layers})
      if (g.has(flag)) throw g.error(flag, "goes with --recompute-granularity full");
    return;
  }
  if (!g.has(method))
    throw g.error(granularity, "full needs --recompute-method uniform or block (as Megatron-LM requires)");
  const auto m = recompute_methods().find(g.value(method));
  if (!m) throw g.error(method, "expects uniform or block, got \"" + g.value(method) + "\"");
  plan["recompute_method"] = to_string(*m);
  plan["recompute_layers"] = count_or(g, layers, 1);
}

Rule recomputation() {
  return {{{"--recompute-granularity", true}, {"--recompute-method", true}, {"--recompute-num-layers", true}},
          [](const MegatronJob& j, MegatronCommand& out) {
            if (j.plan.recompute == Recompute::kNone) return;
            arg(out, "--recompute-granularity", std::string(to_string(j.plan.recompute)));
            if (j.plan.recompute != Recompute::kFull) return;
            arg(out, "--recompute-method", std::string(to_string(j.plan.recompute_method)));
            arg(out, "--recompute-num-layers", text(j.plan.recompute_layers));
          },
          read_recompute};
}

Rule data_parallel_overlap() {
  return {{{"--use-distributed-optimizer", false},
           {"--overlap-grad-reduce", false},
           {"--overlap-param-gather", false}},
          [](const MegatronJob& j, MegatronCommand& out) {
            if (j.plan.zero_stage >= 1) arg(out, "--use-distributed-optimizer");
            if (j.plan.overlap_gradient_reduction) arg(out, "--overlap-grad-reduce");
            if (j.plan.overlap_parameter_gather) arg(out, "--overlap-param-gather");
            if (j.plan.zero_stage > 1)
              out.unmapped.push_back("plan.zero_stage > 1 (Megatron shards optimizer state only)");
          },
          [](const Given& g, const TransformerSpec&, json& plan) {
            plan["zero_stage"] = g.has("--use-distributed-optimizer") ? 1 : 0;
            plan["overlap_gradient_reduction"] = g.has("--overlap-grad-reduce");
            plan["overlap_parameter_gather"] = g.has("--overlap-param-gather");
          }};
}

Rule clipping() {
  return {{{"--clip-grad", true}},
          [](const MegatronJob& j, MegatronCommand& out) {
            if (!j.plan.gradient_clipping) arg(out, "--clip-grad", "0.0");
            if (j.plan.offload_optimizer) out.unmapped.push_back("plan.offload_optimizer");
            if (j.plan.gradient_compression.scheme != CompressionScheme::kNone)
              out.unmapped.push_back("plan.gradient_compression");  // a DDP hook or ZeRO++, not a flag
          },
          [](const Given& g, const TransformerSpec&, json& plan) {  // Megatron-LM's default is 1.0
            plan["gradient_clipping"] = !g.has("--clip-grad") || g.number("--clip-grad") != 0.0;
          }};
}

Rule communication_overlap() {
  return {{{"--overlap-moe-expert-parallel-comm", false}, {"--tp-comm-overlap", false}},
          [](const MegatronJob& j, MegatronCommand& out) {
            if (j.plan.overlap_expert_communication) arg(out, "--overlap-moe-expert-parallel-comm");
            if (j.plan.overlap_tensor_communication) arg(out, "--tp-comm-overlap");
          },
          [](const Given& g, const TransformerSpec&, json& plan) {
            plan["overlap_expert_communication"] = g.has("--overlap-moe-expert-parallel-comm");
            plan["overlap_tensor_communication"] = g.has("--tp-comm-overlap");
          }};
}

/// The plan's pipeline exchanges where Megatron-LM cannot run them: Megatron-LM 2021's batched ones, or, in
/// an interleaved schedule, receives posted just before their steps (Megatron-LM overlaps its exchanges
/// unless told --no-overlap-p2p-communication, which batches them instead).
Rule exchanges() {
  return {{},
          [](const MegatronJob& j, MegatronCommand& out) {
            if (j.plan.pipeline_parallel < 2) return;
            if (j.plan.batched_exchanges)
              out.unmapped.push_back("plan.batched_exchanges (Megatron-LM 2021's pipeline exchanges)");
            else if (j.plan.chunks() > 1 && !j.plan.overlap_pipeline_exchanges)
              out.unmapped.push_back(
                  "plan.overlap_pipeline_exchanges false (Megatron-LM overlaps an interleaved schedule's "
                  "pipeline exchanges)");
          },
          [](const Given&, const TransformerSpec&, json&) {}};
}

/// The fp8 recipes: Transformer Engine's hybrid format (e4m3 forward, e5m2 gradients) with Megatron-LM's
/// default delayed scaling; DeepSeek-V3's blockwise scaling with bf16 Adam moments (the precision-aware
/// optimizer). DeepSeek-V3's fp8 expert dispatch has no Megatron-LM argument, nor has a delayed-scaling plan
/// that does not reduce its amaxes (Transformer Engine reduces them by default).
void write_fp8(const MegatronJob& j, MegatronCommand& out) {
  if (j.plan.fp8 == Fp8Recipe::kTransformerEngine) {
    arg(out, "--fp8-format", "hybrid");
    if (!j.plan.fp8_amax_reduction)
      out.unmapped.push_back(
          "plan.fp8_amax_reduction false (Transformer Engine's delayed scaling reduces every chunk's "
          "amaxes)");
  }
  if (j.plan.fp8 != Fp8Recipe::kDeepSeekV3) return;
  arg(out, "--fp8-format", "e4m3");
  arg(out, "--fp8-recipe", "blockwise");
  arg(out, "--use-precision-aware-optimizer");
  arg(out, "--exp-avg-dtype", "bf16");
  arg(out, "--exp-avg-sq-dtype", "bf16");
  out.unmapped.push_back("plan.fp8 deepseek-v3's fp8 expert dispatch");
}

void read_fp8(const Given& g, const TransformerSpec&, json& plan) {
  const char* format = "--fp8-format";
  const char* recipe = "--fp8-recipe";
  const std::vector<const char*> moments = {"--use-precision-aware-optimizer", "--exp-avg-dtype",
                                            "--exp-avg-sq-dtype"};
  const std::string f = g.has(format) ? g.value(format) : "", r = g.has(recipe) ? g.value(recipe) : "delayed";
  // Megatron-LM's format and scaling recipe for each recipe zettasim models.
  static const core::ChoiceNames<Fp8Recipe> recipes{{Fp8Recipe::kTransformerEngine, "hybrid with delayed"},
                                                    {Fp8Recipe::kDeepSeekV3, "e4m3 with blockwise"}};
  auto fp8 = Fp8Recipe::kNone;
  if (!g.has(format)) {
    if (g.has(recipe)) throw g.error(recipe, "goes with --fp8-format");
  } else if (const auto named = recipes.find(f + " with " + r)) {
    fp8 = *named;
  } else {
    throw g.error(format, f + " with --fp8-recipe " + r +
                              " is not modelled: fp8 is Transformer Engine's hybrid format with delayed "
                              "scaling, or DeepSeek-V3's e4m3 with blockwise scaling");
  }
  plan["fp8"] = to_string(fp8);
  plan["fp8_amax_reduction"] = fp8 == Fp8Recipe::kTransformerEngine;  // Transformer Engine's default
  const bool bf16_moments = g.has(moments[0]) && g.has(moments[1]) && g.has(moments[2]) &&
                            g.value(moments[1]) == g.value(moments[2]) &&
                            core::parse_dtype(g.value(moments[1])) == core::Dtype::kBf16;
  const bool any_moments = g.has(moments[0]) || g.has(moments[1]) || g.has(moments[2]);
  if (fp8 == Fp8Recipe::kDeepSeekV3 ? !bf16_moments : any_moments)
    throw g.error(
        moments[0],
        "with --exp-avg-dtype bf16 and --exp-avg-sq-dtype bf16 is modelled with DeepSeek-V3's recipe "
        "only (--fp8-format e4m3 --fp8-recipe blockwise), and that recipe keeps bf16 Adam moments");
}

Rule fp8() {
  return {{{"--fp8-format", true},
           {"--fp8-recipe", true},
           {"--use-precision-aware-optimizer", false},
           {"--exp-avg-dtype", true},
           {"--exp-avg-sq-dtype", true}},
          write_fp8,
          read_fp8};
}

/// Megatron-LM picks flash or fused attention unless told otherwise (--attention-backend auto).
Rule attention_kernel() {
  return {{{"--use-flash-attn", false}, {"--attention-backend", true}},
          [](const MegatronJob& j, MegatronCommand& out) {
            if (j.plan.flash_attention)
              arg(out, "--use-flash-attn");
            else
              arg(out, "--attention-backend", "unfused");
          },
          [](const Given& g, const TransformerSpec&, json& plan) {
            bool flash = true;
            if (g.has("--attention-backend")) {
              // Megatron-LM's attention backends: whether the scores stay on chip.
              static const core::ChoiceNames<bool> on_chip{
                  {true, "flash"}, {true, "fused"}, {true, "auto"}, {false, "unfused"}, {false, "local"}};
              const std::string& b = g.value("--attention-backend");
              const auto named = on_chip.find(b);
              if (!named)
                throw g.error("--attention-backend",
                              "expects flash, fused, unfused, local or auto, got \"" + b + "\"");
              flash = *named;
              if (!flash && g.has("--use-flash-attn"))
                throw g.error("--use-flash-attn", "contradicts --attention-backend " + b);
            }
            plan["flash_attention"] = flash;
          }};
}

/// Megatron-LM reduces a bf16 model's gradients in fp32 unless --grad-reduce-in-bf16, and an fp16
/// model's in fp16 unless --accumulate-allreduce-grads-in-fp32.
Rule gradient_dtype() {
  return {{{"--grad-reduce-in-bf16", false}, {"--accumulate-allreduce-grads-in-fp32", false}},
          [](const MegatronJob& j, MegatronCommand& out) {
            const auto model = j.model.dtype, gradients = j.plan.gradients_in(j.model);
            if (gradients == ParallelPlan{}.gradients_in(j.model)) return;  // Megatron-LM's own choice
            if (model == core::Dtype::kBf16 && gradients == core::Dtype::kBf16)
              arg(out, "--grad-reduce-in-bf16");
            else if (model == core::Dtype::kFp16 && gradients == core::Dtype::kFp32)
              arg(out, "--accumulate-allreduce-grads-in-fp32");
            else
              out.unmapped.push_back("plan.gradient_dtype " + std::string(core::to_string(gradients)) +
                                     " with a " + std::string(core::to_string(model)) + " model");
          },
          [](const Given& g, const TransformerSpec& model, json& plan) {
            const char* bf16 = "--grad-reduce-in-bf16";
            const char* fp32 = "--accumulate-allreduce-grads-in-fp32";
            if (g.has(bf16) && model.dtype != core::Dtype::kBf16)
              throw g.error(bf16, "needs a bf16 model (--bf16)");
            if (g.has(fp32) && model.dtype != core::Dtype::kFp16)
              throw g.error(fp32, "needs an fp16 model (--fp16)");
            if (g.has(bf16)) plan["gradient_dtype"] = core::to_string(core::Dtype::kBf16);
            if (g.has(fp32)) plan["gradient_dtype"] = core::to_string(core::Dtype::kFp32);
          }};
}

// ---- the model (checked against its file) ----

Rule network_size() {
  return {
      {{"--num-layers", true},
       {"--hidden-size", true},
       {"--ffn-hidden-size", true,
        [](const TransformerSpec& m) { return std::optional(text(4 * m.hidden)); }},
       {"--num-attention-heads", true},
       {"--kv-channels", true,
        [](const TransformerSpec& m) {
          return m.mla ? std::nullopt : std::optional(text(m.hidden / std::max(1u, m.heads)));
        }},
       {"--group-query-attention", false},
       {"--num-query-groups", true, [](const TransformerSpec& m) { return std::optional(text(m.heads)); }},
       {"--seq-length", true},
       {"--max-position-embeddings", true, nullptr, nullptr,
        "position embeddings are sized to the sequence (--seq-length)"},
       {"--vocab-size", true}},
      [](const MegatronJob& j, MegatronCommand& out) {
        const auto& m = j.model;
        arg(out, "--num-layers", text(m.layers));
        arg(out, "--hidden-size", text(m.hidden));
        arg(out, "--ffn-hidden-size", text(m.ffn_hidden));
        arg(out, "--num-attention-heads", text(m.heads));
        if (!m.mla && m.head_dim != 0 && uint64_t(m.head_dim) * m.heads != m.hidden)
          arg(out, "--kv-channels", text(m.head_dim));
        if (m.kv_heads != 0 && m.kv_heads != m.heads) {
          arg(out, "--group-query-attention");
          arg(out, "--num-query-groups", text(m.kv_heads));
        }
        arg(out, "--seq-length", text(m.seq_len));
        arg(out, "--max-position-embeddings", text(m.seq_len));
        arg(out, "--vocab-size", text(m.vocab));
      },
      nullptr};
}

Rule network_kind() {
  return {
      {{"--position-embedding-type", true, [](const TransformerSpec&) { return always("learned_absolute"); }},
       {"--normalization", true, [](const TransformerSpec&) { return always("LayerNorm"); }},
       {"--swiglu", false},
       {"--untie-embeddings-and-output-weights", false},
       {"--disable-bias-linear", false},
       {"--attention-dropout", true, [](const TransformerSpec&) { return always("0.1"); }, zero_or_not},
       {"--hidden-dropout", true, [](const TransformerSpec&) { return always("0.1"); }, zero_or_not}},
      [](const MegatronJob& j, MegatronCommand& out) {
        const auto& m = j.model;
        arg(out, "--position-embedding-type", m.learned_positions ? "learned_absolute" : "rope");
        arg(out, "--normalization", m.norm == NormKind::kRmsNorm ? "RMSNorm" : "LayerNorm");
        if (m.ffn_activation == FfnActivation::kSwiglu) arg(out, "--swiglu");
        if (!m.tied_embeddings) arg(out, "--untie-embeddings-and-output-weights");
        if (!m.biases) arg(out, "--disable-bias-linear");
        if (!m.dropout) {  // Megatron-LM's default is 0.1 for both
          arg(out, "--attention-dropout", "0.0");
          arg(out, "--hidden-dropout", "0.0");
        }
        if (m.parallel_blocks)
          out.unmapped.push_back(
              "model.parallel_blocks (Megatron-LM runs attention and MLP one after the other)");
      },
      nullptr};
}

/// fp32 is Megatron-LM's default: neither flag.
Rule model_dtype() {
  return {{{"--bf16", false}, {"--fp16", false}},
          [](const MegatronJob& j, MegatronCommand& out) {
            if (j.model.dtype == core::Dtype::kBf16)
              arg(out, "--bf16");
            else if (j.model.dtype == core::Dtype::kFp16)
              arg(out, "--fp16");
            else if (j.model.dtype != core::Dtype::kFp32)
              out.unmapped.push_back("model.dtype " + std::string(core::to_string(j.model.dtype)));
          },
          nullptr};
}

Rule latent_attention() {
  return {{{"--multi-latent-attention", false},
           {"--q-lora-rank", true},
           {"--kv-lora-rank", true},
           {"--qk-head-dim", true},
           {"--qk-pos-emb-head-dim", true},
           {"--v-head-dim", true}},
          [](const MegatronJob& j, MegatronCommand& out) {
            if (!j.model.mla) return;
            const auto& a = *j.model.mla;
            arg(out, "--multi-latent-attention");
            arg(out, "--q-lora-rank", text(a.q_lora_rank));
            arg(out, "--kv-lora-rank", text(a.kv_lora_rank));
            arg(out, "--qk-head-dim", text(a.qk_nope_head_dim));
            arg(out, "--qk-pos-emb-head-dim", text(a.qk_rope_head_dim));
            arg(out, "--v-head-dim", text(a.v_head_dim));
          },
          nullptr};
}

std::optional<std::string> for_moe(const TransformerSpec& m, std::string value) {
  return m.moe ? std::optional(std::move(value)) : std::nullopt;
}

Rule experts() {
  return {
      {{"--num-experts", true, [](const TransformerSpec&) { return always("0"); }},
       {"--moe-router-topk", true, [](const TransformerSpec& m) { return for_moe(m, "2"); }},
       {"--moe-ffn-hidden-size", true,
        [](const TransformerSpec& m) { return for_moe(m, text(m.ffn_hidden)); }},
       {"--moe-shared-expert-intermediate-size", true, [](const TransformerSpec&) { return always("0"); }},
       {"--moe-layer-freq", true, [](const TransformerSpec&) { return always("1"); }, dense_layers_first},
       {"--moe-expert-capacity-factor", true, nullptr, nullptr,
        "the model's capacity_factor bounds what an expert accepts"}},
      [](const MegatronJob& j, MegatronCommand& out) {
        if (!j.model.moe) return;
        const auto& e = *j.model.moe;
        arg(out, "--num-experts", text(e.experts));
        arg(out, "--moe-router-topk", text(e.top_k));
        arg(out, "--moe-ffn-hidden-size", text(e.expert_ffn_hidden));
        if (e.shared_experts > 0)
          arg(out, "--moe-shared-expert-intermediate-size", text(e.shared_experts * e.expert_ffn_hidden));
        if (e.dense_layers > 0)
          arg(out, "--moe-layer-freq",
              "[0]*" + text(e.dense_layers) + "+[1]*" + text(j.model.layers - e.dense_layers));
      },
      nullptr};
}

}  // namespace

const std::vector<Rule>& rules() {
  static const std::vector<Rule> all = {tensor_parallel(),
                                        pipeline_parallel(),
                                        stages(),
                                        context_parallel(),
                                        expert_parallel(),
                                        sequence_parallel(),
                                        batch(),
                                        recomputation(),
                                        data_parallel_overlap(),
                                        clipping(),
                                        communication_overlap(),
                                        exchanges(),
                                        fp8(),
                                        attention_kernel(),
                                        network_size(),
                                        network_kind(),
                                        model_dtype(),
                                        gradient_dtype(),
                                        latent_attention(),
                                        experts()};
  return all;
}

}  // namespace zs::workload::megatron
