// Reading, checking and describing a parallel plan.
#include "workload/parallel_plan.hpp"

#include <algorithm>

#include "core/choice_names.hpp"

namespace zs::workload {
namespace {

void require_divides(core::ParamReader& json, const char* key, uint64_t degree, uint64_t value,
                     const std::string& what) {
  if (value % degree != 0)
    throw json.error(key, std::string(key) + " " + std::to_string(degree) + " does not divide " + what +
                              " (" + std::to_string(value) + ")");
}

ExpertRoutingModel plan_routing(core::ParamReader& plan, const TransformerSpec& model,
                                const core::FileSource* files) {
  const double capacity = model.moe ? model.moe->capacity_factor : 0.0;
  if (!plan.has("routing")) {
    ExpertRoutingModel r;
    r.capacity_factor = capacity;
    return r;
  }
  if (!model.moe) throw plan.error("routing", "expert routing needs a Mixture-of-Experts model");
  auto json = plan.part("routing");
  return read_routing(json, model.moe->experts, capacity, files);
}

uint32_t degree(core::ParamReader& json, const char* key) {
  return static_cast<uint32_t>(json.get<int64_t>(key));
}

core::Param degree_param(std::string name, std::string doc) {
  return core::Param::integer(std::move(name), 1, 1 << 20, std::move(doc)).or_default(1);
}

}  // namespace

const core::ChoiceNames<PipelineSchedule>& schedules() {
  static const core::ChoiceNames<PipelineSchedule> names{
      {PipelineSchedule::kGpipe, "gpipe"},
      {PipelineSchedule::k1F1B, "1f1b"},
      {PipelineSchedule::kInterleaved1F1B, "interleaved-1f1b"}};
  return names;
}

const core::ChoiceNames<Recompute>& recomputations() {
  static const core::ChoiceNames<Recompute> names{
      {Recompute::kNone, "none"}, {Recompute::kSelective, "selective"}, {Recompute::kFull, "full"}};
  return names;
}

const core::ChoiceNames<RecomputeMethod>& recompute_methods() {
  static const core::ChoiceNames<RecomputeMethod> names{{RecomputeMethod::kUniform, "uniform"},
                                                        {RecomputeMethod::kBlock, "block"}};
  return names;
}

const core::ChoiceNames<Fp8Recipe>& fp8_recipes() {
  static const core::ChoiceNames<Fp8Recipe> names{{Fp8Recipe::kNone, "none"},
                                                  {Fp8Recipe::kTransformerEngine, "transformer-engine"},
                                                  {Fp8Recipe::kDeepSeekV3, "deepseek-v3"}};
  return names;
}

namespace {

/// "gradient_dtype": auto (as Megatron-LM: fp16 for fp16 models, fp32 otherwise) or a dtype.
enum class GradientDtypeSetting { kAuto, kFp32, kBf16, kFp16 };

const core::ChoiceNames<GradientDtypeSetting>& gradient_dtype_settings() {
  static const core::ChoiceNames<GradientDtypeSetting> names{{GradientDtypeSetting::kAuto, "auto"},
                                                             {GradientDtypeSetting::kFp32, "fp32"},
                                                             {GradientDtypeSetting::kBf16, "bf16"},
                                                             {GradientDtypeSetting::kFp16, "fp16"}};
  return names;
}

}  // namespace

std::string_view to_string(PipelineSchedule s) {
  return schedules().name(s);
}
std::string_view to_string(Recompute r) {
  return recomputations().name(r);
}
std::string_view to_string(RecomputeMethod m) {
  return recompute_methods().name(m);
}

const core::ParamTable& ParallelPlan::params() {
  using core::Param;
  static const core::ParamTable table(
      "workload.megatron", "Megatron-Core 5D parallelism (data, tensor, pipeline, context, expert)",
      {degree_param("data_parallel", "data-parallel replicas"),
       degree_param("tensor_parallel",
                    "ranks splitting each layer (divides heads and FFN width; divides the key/value heads "
                    "or is a multiple of them, each rank then keeping a copy of one)"),
       degree_param("pipeline_parallel", "pipeline stages (divides the layers unless layers_per_stage)"),
       Param::list("layers_per_stage",
                   "pipeline_parallel x virtual_stages whole numbers, summing to the layers",
                   "layers of each stage in order (interleaved: of each virtual stage, every stage's first "
                   "chunk, then every stage's second, ...); left out, an even split")
           .optional(),
       degree_param("context_parallel", "ranks splitting each sequence (divides the sequence length)"),
       degree_param("expert_parallel", "ranks of the data-parallel axis sharing the routed experts"),
       degree_param("expert_tensor_parallel",
                    "ranks splitting each routed expert's FFN: 1 (whole experts on every rank) or "
                    "tensor_parallel (Megatron-LM's default for --expert-tensor-parallel-size: the "
                    "tensor-parallel ranks all-gather their dispatched tokens and reduce-scatter the "
                    "experts' outputs)"),
       Param::integer("micro_batch", 1, 1 << 20, "sequences per micro-batch"),
       Param::integer("global_batch", 1, 1 << 30,
                      "sequences per iteration, whole job (a multiple of data_parallel x micro_batch)"),
       Param::choice("schedule", schedules().names(), "the pipeline schedule").or_default("1f1b"),
       Param::integer("virtual_stages", 1, 1024, "model chunks per stage (interleaved-1f1b)").or_default(1),
       Param::integer(
           "microbatch_group", 1, 1 << 20,
           "interleaved-1f1b: micro-batches each chunk runs in a row, in [pipeline_parallel, "
           "micro-batches per replica], the micro-batches' remainder by it 0 or at least "
           "pipeline_parallel (Megatron-Core's --microbatch-group-size-per-virtual-pipeline-stage); "
           "left out, pipeline_parallel")
           .optional(),
       Param::boolean("sequence_parallel", "activations outside attention and FFN split over tp")
           .or_default(false),
       Param::integer("zero_stage", 0, 3, "ZeRO: 1 shards optimizer state, 2 also gradients, 3 also weights")
           .or_default(0),
       Param::choice("recompute", recomputations().names(), "activation recomputation")
           .noun("recomputation")
           .or_default("none"),
       Param::choice("recompute_method", recompute_methods().names(),
                     "which layers full recomputation reruns: all, in groups of recompute_layers "
                     "(uniform), or the first recompute_layers of each virtual stage (block)")
           .or_default("uniform"),
       Param::integer("recompute_layers", 1, 1 << 20,
                      "with full recomputation: layers per group (uniform) or recomputed layers per virtual "
                      "stage (block)")
           .or_default(1),
       Param::choice("gradient_dtype", gradient_dtype_settings().names(),
                     "element type of gradients, held and reduced over data parallelism; auto: as "
                     "Megatron-LM, fp16 for fp16 models and fp32 otherwise")
           .noun("gradient dtype")
           .or_default("auto"),
       Param::boolean("gradient_clipping",
                      "clip gradients by their global norm before the step (Megatron-LM's --clip-grad, on by "
                      "default): a pass over the gradients for the norm, an all-reduce of it, a scaling pass")
           .or_default(true),
       Param::boolean("offload_optimizer", "optimizer state in the rank's memory pool, moved for the step")
           .or_default(false),
       Param::boolean("overlap_expert_communication",
                      "Megatron-LM's combined 1F1B (--overlap-moe-expert-parallel-comm): each steady-state "
                      "forward runs beside a backward of another micro-batch, the expert all-to-alls of one "
                      "on their own stream while the other computes; needs expert_parallel > 1 and, with "
                      "pipeline_parallel > 1, the interleaved schedule")
           .or_default(false),
       Param::boolean("batched_exchanges",
                      "Megatron-LM 2021's pipeline exchanges (the schedules of its SC'21 paper): after "
                      "each step its sends and the next step's receives are posted together and waited "
                      "for, except between a forward and the backward paired with it in the interleaved "
                      "schedule's steady state; false: each send on its own stream as soon as its step "
                      "ends, each receive just before the step that needs it")
           .or_default(false),
       Param::boolean("overlap_pipeline_exchanges",
                      "Megatron-Core's overlapped pipeline exchanges (overlap_p2p_comm; interleaved schedule "
                      "only): each step posts its send with the receive of the next step in its direction "
                      "(forward or backward), a step ahead in the steady state; a step's compute waits for "
                      "its receive and the previous send in its direction")
           .or_default(false),
       Param::boolean(
           "overlap_gradient_reduction",
           "Megatron-LM's --overlap-grad-reduce (NeMo's overlap_grad_sync; zero_stage 0 or 1): "
           "gradients reduced over data parallelism during the backward of each chunk's last "
           "micro-batch, a layer at a time in the first chunk and a chunk at a time in the others; "
           "false: all of them after the backward")
           .or_default(false),
       Param::boolean(
           "overlap_parameter_gather",
           "Megatron-LM's --overlap-param-gather (NeMo's overlap_param_sync; zero_stage 1 with "
           "overlap_gradient_reduction): updated weights all-gathered at the start of the next "
           "iteration, each layer (first chunk) or chunk (others) before its first forward; false: "
           "after the optimizer step")
           .or_default(false),
       Param::boolean(
           "overlap_tensor_communication",
           "Megatron-LM's --tp-comm-overlap (Transformer Engine userbuffers): each tensor-parallel "
           "all-gather and reduce-scatter of a block runs on its own stream beside the GEMM it "
           "feeds or drains instead of before or after it; needs tensor_parallel > 1 and "
           "sequence_parallel")
           .or_default(false),
       Param::choice(
           "fp8", fp8_recipes().names(),
           "fp8 matrix products of the linear layers (bf16 models): transformer-engine (Megatron-LM's "
           "--fp8-format hybrid: fp8 weight copies, fp8-saved inputs, fp32 Adam moments) or "
           "deepseek-v3 (fine-grained scales, bf16 Adam moments, fp8 expert dispatch); the "
           "embedding, output layer, attention core, norms and router stay bf16")
           .noun("fp8 recipe")
           .or_default("none"),
       Param::boolean(
           "fp8_amax_reduction",
           "Transformer Engine's delayed scaling with reduce_amax (fp8 transformer-engine only; TE's "
           "default): at the end of each chunk's forward and backward, the amaxes of its fp8 tensors "
           "(4 B each) are all-reduced over the stage's tensor-, data- and context-parallel ranks, the "
           "compute stream waiting for it")
           .or_default(false),
       Param::boolean("flash_attention", "attention scores stay on chip; false: they go through HBM")
           .or_default(true),
       Param::integer("seed", 0, int64_t(1) << 53, "seed of the expert routing draws").or_default(1),
       Param::object("gradient_compression", GradientCompression::params(),
                     "compression of the data-parallel gradient reductions; left out, none")
           .optional(),
       Param::object("routing", routing_params(),
                     "expert routing; left out, uniform with the model's capacity")
           .optional(),
       Param::text("megatron_arguments",
                   "the job as Megatron-LM's command-line arguments (words as a launch script holds them): "
                   "they set every plan key a flag stands for, at Megatron-LM's default where the flag is "
                   "left out, and the network's flags must agree with the model; keys of this section are "
                   "laid over them, each listed in the report; flags that do not change an iteration's time "
                   "are listed as ignored, others zettasim does not model are refused")
           .optional()});
  return table;
}

namespace {

/// The plan's layers_per_stage: `stages` whole numbers of at least 1 summing to the model's layers.
/// Refuses a plan whose expert all-to-alls combined 1F1B cannot overlap, as Megatron-LM does.
void require_overlappable(core::ParamReader& json, const ParallelPlan& p) {
  const char* key = "overlap_expert_communication";
  if (p.expert_parallel < 2)
    throw json.error(key,
                     "overlapping expert communication needs expert_parallel > 1 (a Mixture-of-Experts "
                     "model whose experts are spread over ranks)");
  if (p.pipeline_parallel > 1 && p.schedule != PipelineSchedule::kInterleaved1F1B)
    throw json.error(
        key,
        "combined 1F1B with pipeline_parallel > 1 needs schedule \"interleaved-1f1b\" (Megatron-LM "
        "runs its combined schedule with a pipeline only over virtual stages)");
  if (p.zero_stage == 3)
    throw json.error(key,
                     "combined 1F1B runs with ZeRO stages 0-2 (Megatron-LM's distributed optimizer), "
                     "not with zero_stage 3");
}

void require_exchange_overlap(core::ParamReader& json, const ParallelPlan& p) {
  const char* key = "overlap_pipeline_exchanges";
  if (p.pipeline_parallel < 2 || p.schedule != PipelineSchedule::kInterleaved1F1B)
    throw json.error(key,
                     "overlapped pipeline exchanges need pipeline_parallel > 1 and schedule "
                     "\"interleaved-1f1b\" (Megatron-Core overlaps the exchanges of its interleaved schedule "
                     "only)");
  if (p.batched_exchanges)
    throw json.error(key,
                     "overlapped and batched exchanges exclude each other (Megatron-Core's "
                     "overlap_p2p_comm and batch_p2p_comm)");
  if (p.overlap_expert_communication)
    throw json.error(key,
                     "combined 1F1B (overlap_expert_communication) places its own exchanges; "
                     "overlapping them as well is not modelled");
}

/// Refuses data-parallel overlap where Megatron-LM has none: ZeRO stages 2 and 3 already reduce as the
/// backward produces gradients; the parameter gather needs the distributed optimizer and overlapped
/// gradient reduction (Megatron-LM's --overlap-param-gather requires both).
void require_data_parallel_overlap(core::ParamReader& json, const ParallelPlan& p) {
  if (p.overlap_gradient_reduction && p.zero_stage > 1)
    throw json.error("overlap_gradient_reduction",
                     "overlapped gradient reduction applies to zero_stage 0 or 1; zero_stage " +
                         std::to_string(p.zero_stage) +
                         " already reduces gradients after every backward step");
  if (!p.overlap_parameter_gather) return;
  if (p.zero_stage != 1)
    throw json.error("overlap_parameter_gather",
                     "overlapping the parameter all-gather needs zero_stage 1 (Megatron-LM's distributed "
                     "optimizer), but zero_stage is " +
                         std::to_string(p.zero_stage));
  if (!p.overlap_gradient_reduction)
    throw json.error("overlap_parameter_gather",
                     "overlapping the parameter all-gather needs overlap_gradient_reduction: true, as "
                     "Megatron-LM's --overlap-param-gather needs --overlap-grad-reduce");
}

/// Refuses gradient compression where it has nothing to compress or does not compose: a 16-bit cast of
/// gradients already 16-bit; top-k and PowerSGD (reductions of whole gradients, as PyTorch DDP's
/// communication hooks) under ZeRO stages 2 and 3, which reduce-scatter gradient shards.
void require_compressible(core::ParamReader& json, const ParallelPlan& p, const TransformerSpec& model) {
  const auto& c = p.gradient_compression;
  if (c.scheme == CompressionScheme::kNone) return;
  const std::string scheme(compression_schemes().name(c.scheme));
  if ((c.scheme == CompressionScheme::kBf16 || c.scheme == CompressionScheme::kFp16) &&
      p.gradients_in(model) != core::Dtype::kFp32)
    throw json.error("gradient_compression", "scheme \"" + scheme +
                                                 "\" casts fp32 gradients for the reduction, "
                                                 "but the gradients are already " +
                                                 std::string(core::to_string(p.gradients_in(model))));
  if (!c.shards() && p.zero_stage > 1)
    throw json.error(
        "gradient_compression",
        "scheme \"" + scheme +
            "\" reduces whole gradients (a data-parallel communication hook), "
            "which ZeRO stage " +
            std::to_string(p.zero_stage) +
            " replaces by reduce-scatters of shards; use zero_stage 0 or 1, or bf16, fp16 or int8");
  if (p.dense_replicas() == 1 && p.expert_replicas() <= 1)
    throw json.error("gradient_compression",
                     "there is no data-parallel gradient reduction to compress (data_parallel x "
                     "context_parallel is 1)");
}

/// The interleaved schedule's micro-batch group, checked as Megatron-Core checks it: in [pipeline_parallel,
/// micro-batches], the last group either full or at least pipeline_parallel long (shorter, its micro-batches
/// would wait on each other through the pipeline).
void read_microbatch_group(core::ParamReader& json, ParallelPlan& p) {
  const uint32_t m = p.micro_batches(), pp = p.pipeline_parallel;
  if (json.has("microbatch_group") && p.schedule != PipelineSchedule::kInterleaved1F1B)
    throw json.error("microbatch_group", "a micro-batch group applies to the \"interleaved-1f1b\" schedule");
  if (p.schedule != PipelineSchedule::kInterleaved1F1B) return;
  p.microbatch_group =
      json.has("microbatch_group") ? static_cast<uint32_t>(*json.find<int64_t>("microbatch_group")) : pp;
  const std::string group = std::to_string(p.microbatch_group), mbs = std::to_string(m);
  if (p.microbatch_group < pp || p.microbatch_group > m)
    throw json.error(json.has("microbatch_group") ? "microbatch_group" : "global_batch",
                     "the interleaved schedule's micro-batch group (" + group +
                         ") must lie in [pipeline_parallel " + std::to_string(pp) +
                         ", micro-batches per replica " + mbs + "]");
  const uint32_t rest = m % p.microbatch_group;
  if (rest != 0 && rest < pp)
    throw json.error(json.has("microbatch_group") ? "microbatch_group" : "global_batch",
                     "the interleaved schedule's last micro-batch group would hold " + std::to_string(rest) +
                         " micro-batches (" + mbs + " per replica in groups of " + group +
                         "), fewer than pipeline_parallel " + std::to_string(pp) +
                         ": choose microbatch_group so that it divides them or leaves at least " +
                         std::to_string(pp));
}

std::vector<uint32_t> read_layers_per_stage(core::ParamReader& json, const TransformerSpec& model,
                                            uint32_t stages) {
  const auto& list = json.list("layers_per_stage");
  if (list.size() != stages)
    throw json.error("layers_per_stage", "expected " + std::to_string(stages) +
                                             " entries (pipeline_parallel x virtual_stages), got " +
                                             std::to_string(list.size()));
  std::vector<uint32_t> out;
  uint64_t sum = 0;
  for (const auto& n : list) {
    if (!n.is_number_integer() || n.get<int64_t>() < 1 || n.get<int64_t>() > int64_t(model.layers))
      throw json.error("layers_per_stage", "every entry must be a whole number of layers in [1, " +
                                               std::to_string(model.layers) + "], got " + n.dump());
    out.push_back(n.get<uint32_t>());
    sum += out.back();
  }
  if (sum != model.layers)
    throw json.error("layers_per_stage", "the entries add up to " + std::to_string(sum) +
                                             " layers, but the model has " + std::to_string(model.layers));
  return out;
}

}  // namespace

ParallelPlan ParallelPlan::from_params(core::ParamReader& json, const TransformerSpec& model,
                                       const core::FileSource* files) {
  ParallelPlan p;
  p.data_parallel = degree(json, "data_parallel");
  p.tensor_parallel = degree(json, "tensor_parallel");
  p.pipeline_parallel = degree(json, "pipeline_parallel");
  p.context_parallel = degree(json, "context_parallel");
  p.expert_parallel = degree(json, "expert_parallel");
  p.expert_tensor_parallel = degree(json, "expert_tensor_parallel");
  p.micro_batch = static_cast<uint32_t>(json.get<int64_t>("micro_batch"));
  p.global_batch = static_cast<uint32_t>(json.get<int64_t>("global_batch"));
  p.schedule = json.get_choice("schedule", schedules());
  p.virtual_stages = static_cast<uint32_t>(json.get<int64_t>("virtual_stages"));
  if (p.virtual_stages > 1 && p.schedule != PipelineSchedule::kInterleaved1F1B)
    throw json.error("virtual_stages", "virtual stages need the \"interleaved-1f1b\" schedule");
  p.sequence_parallel = json.get<bool>("sequence_parallel");
  p.zero_stage = static_cast<uint32_t>(json.get<int64_t>("zero_stage"));
  p.recompute = json.get_choice("recompute", recomputations());
  p.recompute_method = json.get_choice("recompute_method", recompute_methods());
  p.recompute_layers = static_cast<uint32_t>(json.get<int64_t>("recompute_layers"));
  // Without full recomputation only the defaults may be written (as a resolved configuration writes them).
  const bool method_set = p.recompute_method != RecomputeMethod::kUniform,
             layers_set = p.recompute_layers != 1;
  for (const auto& [key, set] : {std::pair{"recompute_method", method_set}, {"recompute_layers", layers_set}})
    if (json.has(key) && set && p.recompute != Recompute::kFull)
      throw json.error(key, std::string(key) + " applies to full recomputation, but recompute is \"" +
                                std::string(to_string(p.recompute)) + "\"");
  switch (json.get_choice("gradient_dtype", gradient_dtype_settings())) {
    case GradientDtypeSetting::kAuto:
      p.gradient_dtype = p.gradients_in(model);
      break;
    case GradientDtypeSetting::kFp32:
      p.gradient_dtype = core::Dtype::kFp32;
      break;
    case GradientDtypeSetting::kBf16:
      p.gradient_dtype = core::Dtype::kBf16;
      break;
    case GradientDtypeSetting::kFp16:
      p.gradient_dtype = core::Dtype::kFp16;
      break;
  }
  p.gradient_clipping = json.get<bool>("gradient_clipping");
  p.offload_optimizer = json.get<bool>("offload_optimizer");
  p.overlap_expert_communication = json.get<bool>("overlap_expert_communication");
  p.overlap_tensor_communication = json.get<bool>("overlap_tensor_communication");
  p.batched_exchanges = json.get<bool>("batched_exchanges");
  p.overlap_pipeline_exchanges = json.get<bool>("overlap_pipeline_exchanges");
  p.overlap_gradient_reduction = json.get<bool>("overlap_gradient_reduction");
  p.overlap_parameter_gather = json.get<bool>("overlap_parameter_gather");
  p.fp8 = json.get_choice("fp8", fp8_recipes());
  if (p.fp8 != Fp8Recipe::kNone && model.dtype != core::Dtype::kBf16)
    throw json.error("fp8", "the fp8 recipes train bf16 models, but the model's dtype is " +
                                std::string(core::to_string(model.dtype)));
  p.fp8_amax_reduction = json.get<bool>("fp8_amax_reduction");
  if (p.fp8_amax_reduction && p.fp8 != Fp8Recipe::kTransformerEngine)
    throw json.error("fp8_amax_reduction",
                     "amax reduction is Transformer Engine's delayed scaling; it needs fp8 "
                     "\"transformer-engine\", but fp8 is \"" +
                         std::string(to_string(p.fp8)) + "\"");
  p.flash_attention = json.get<bool>("flash_attention");
  p.seed = static_cast<uint64_t>(json.get<int64_t>("seed"));
  p.routing = plan_routing(json, model, files);
  if (json.has("gradient_compression")) {
    auto section = json.part("gradient_compression");
    p.gradient_compression = GradientCompression::from_params(section);
    section.finish();
    require_compressible(json, p, model);
  }

  if (json.has("layers_per_stage")) {
    p.layers_per_stage = read_layers_per_stage(json, model, p.pipeline_parallel * p.chunks());
  } else {
    if (model.layers % (p.pipeline_parallel * p.chunks()) != 0 && p.chunks() > 1)
      throw json.error("virtual_stages", "pipeline_parallel " + std::to_string(p.pipeline_parallel) +
                                             " x virtual_stages " + std::to_string(p.chunks()) +
                                             " does not divide the layers (" + std::to_string(model.layers) +
                                             "); layers_per_stage can split them unevenly");
    if (model.layers % p.pipeline_parallel != 0)
      throw json.error("pipeline_parallel", "pipeline_parallel " + std::to_string(p.pipeline_parallel) +
                                                " does not divide the layers (" +
                                                std::to_string(model.layers) +
                                                "); layers_per_stage can split them unevenly");
  }
  require_divides(json, "tensor_parallel", p.tensor_parallel, model.heads, "the attention heads");
  const uint32_t kv_heads = model.kv_heads == 0 ? model.heads : model.kv_heads;
  if (p.tensor_parallel <= kv_heads || model.mla)
    require_divides(json, "tensor_parallel", p.tensor_parallel, kv_heads, "the key/value heads");
  else if (p.tensor_parallel % kv_heads != 0)
    throw json.error("tensor_parallel", "tensor_parallel " + std::to_string(p.tensor_parallel) +
                                            " is neither a divisor nor a multiple of the key/value heads (" +
                                            std::to_string(kv_heads) +
                                            "), so their copies cannot be spread evenly");
  require_divides(json, "tensor_parallel", p.tensor_parallel, model.ffn_hidden, "the FFN width");
  require_divides(json, "context_parallel", p.context_parallel, model.seq_len, "the sequence length");
  if (p.sequence_parallel)
    require_divides(json, "tensor_parallel", uint64_t(p.tensor_parallel) * p.context_parallel, model.seq_len,
                    "the sequence length (sequence parallel, with context parallelism)");
  if (p.expert_parallel > 1 && !model.moe)
    throw json.error("expert_parallel", "expert parallelism needs a Mixture-of-Experts model");
  if (model.moe) {
    require_divides(json, "expert_parallel", p.expert_parallel, model.moe->experts, "the routed experts");
    require_divides(json, "expert_parallel", p.expert_parallel, p.data_parallel, "data_parallel");
    if (p.tensor_parallel > 1 && !p.sequence_parallel)
      throw json.error("sequence_parallel",
                       "a Mixture-of-Experts model with tensor_parallel > 1 needs sequence_parallel: true "
                       "(experts run on each rank's token shard)");
    if (p.expert_tensor_parallel != 1 && p.expert_tensor_parallel != p.tensor_parallel)
      throw json.error("expert_tensor_parallel",
                       "expert_tensor_parallel " + std::to_string(p.expert_tensor_parallel) +
                           " is neither 1 nor tensor_parallel (" + std::to_string(p.tensor_parallel) +
                           "); other splits re-lay the experts' mesh, which is not modelled");
    require_divides(json, "expert_tensor_parallel", p.expert_tensor_parallel, model.moe->expert_ffn_hidden,
                    "the experts' FFN width");
  } else if (p.expert_tensor_parallel > 1) {
    throw json.error("expert_tensor_parallel", "expert tensor parallelism needs a Mixture-of-Experts model");
  }
  if (p.overlap_expert_communication) require_overlappable(json, p);
  if (p.batched_exchanges && p.overlap_expert_communication)
    throw json.error("batched_exchanges",
                     "batched exchanges are Megatron-LM 2021's schedules, which have no combined 1F1B "
                     "(overlap_expert_communication)");
  if (p.overlap_pipeline_exchanges) require_exchange_overlap(json, p);
  require_data_parallel_overlap(json, p);
  if (p.overlap_tensor_communication && (p.tensor_parallel < 2 || !p.sequence_parallel))
    throw json.error("overlap_tensor_communication",
                     "overlapping tensor-parallel communication needs tensor_parallel > 1 and "
                     "sequence_parallel: true (Megatron-LM overlaps the all-gathers and reduce-scatters of "
                     "sequence parallelism)");
  const uint64_t per_step = uint64_t(p.data_parallel) * p.micro_batch;
  if (p.global_batch % per_step != 0)
    throw json.error("global_batch",
                     "global batch " + std::to_string(p.global_batch) +
                         " is not a multiple of data_parallel x micro_batch = " + std::to_string(per_step));
  read_microbatch_group(json, p);
  return p;
}

std::vector<PipelineStep> ParallelPlan::stage_steps(uint32_t stage) const {
  auto steps =
      pipeline_order(schedule, stage, pipeline_parallel, micro_batches(), chunks(), microbatch_group);
  if (!overlap_expert_communication) return steps;
  // Each backward and the forward after it become one combined step, forward first.
  for (size_t i = 0; i + 1 < steps.size(); ++i)
    if (!steps[i].forward && steps[i + 1].forward) {
      std::swap(steps[i], steps[i + 1]);
      steps[i].combined_with_next = true;
      ++i;
    }
  return steps;
}

std::vector<RecomputeGroup> ParallelPlan::recompute_groups(uint32_t layers) const {
  std::vector<RecomputeGroup> groups;
  if (recompute != Recompute::kFull) return groups;
  if (recompute_method == RecomputeMethod::kBlock) {
    for (uint32_t l = 0; l < std::min(layers, recompute_layers); ++l) groups.push_back({l, l + 1});
  } else {
    for (uint32_t l = 0; l < layers; l += recompute_layers)
      groups.push_back({l, std::min(layers, l + recompute_layers)});
  }
  return groups;
}

nlohmann::json ParallelPlan::derived() const {
  nlohmann::json d = {{"micro_batches", micro_batches()}};
  if (gradient_dtype) d["gradient_dtype"] = std::string(core::to_string(*gradient_dtype));
  return d;
}

std::string ParallelPlan::describe() const {
  std::string s = "dp " + std::to_string(data_parallel) + " x pp " + std::to_string(pipeline_parallel) +
                  " x tp " + std::to_string(tensor_parallel);
  if (context_parallel > 1) s += " x cp " + std::to_string(context_parallel);
  if (expert_parallel > 1) s += ", ep " + std::to_string(expert_parallel);
  if (expert_tensor_parallel > 1) s += ", etp " + std::to_string(expert_tensor_parallel);
  s += " (" + std::string(to_string(schedule));
  if (chunks() > 1) s += ", " + std::to_string(chunks()) + " chunks";
  if (!layers_per_stage.empty()) {
    s += ", layers per stage ";
    for (size_t i = 0; i < layers_per_stage.size(); ++i) {
      if (i > 0) s += '/';
      s += std::to_string(layers_per_stage[i]);
    }
  }
  s += ")";
  if (sequence_parallel) s += ", sequence parallel";
  if (zero_stage > 0) s += ", ZeRO-" + std::to_string(zero_stage);
  if (recompute != Recompute::kNone) s += ", " + std::string(to_string(recompute)) + " recomputation";
  if (recompute == Recompute::kFull &&
      (recompute_method != RecomputeMethod::kUniform || recompute_layers > 1))
    s += " (" + std::string(to_string(recompute_method)) + ", " + std::to_string(recompute_layers) +
         " layers)";
  if (!gradient_clipping) s += ", no gradient clipping";
  if (fp8 != Fp8Recipe::kNone) s += ", fp8 (" + std::string(to_string(fp8)) + ")";
  if (fp8_amax_reduction) s += ", fp8 amaxes reduced per chunk";
  if (offload_optimizer) s += ", optimizer offloaded";
  if (overlap_expert_communication) s += ", expert all-to-alls overlapped (combined 1F1B)";
  if (batched_exchanges && pipeline_parallel > 1) s += ", batched pipeline exchanges";
  if (overlap_pipeline_exchanges) s += ", pipeline exchanges overlapped";
  if (overlap_gradient_reduction) s += ", gradient reduction overlapped";
  if (gradient_compression.scheme != CompressionScheme::kNone)
    s += ", gradients compressed " + gradient_compression.describe();
  if (overlap_parameter_gather) s += ", parameter gather overlapped";
  if (overlap_tensor_communication) s += ", tensor-parallel communication overlapped with GEMMs";
  if (!flash_attention) s += ", attention scores in HBM";
  return s;
}

}  // namespace zs::workload
