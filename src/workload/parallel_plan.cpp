// Reading, checking and describing a parallel plan.
#include "workload/parallel_plan.hpp"

namespace zs::workload {
namespace {

uint32_t degree(core::JsonObject& json, const char* key) {
  return static_cast<uint32_t>(json.integer_or(key, 1, 1, 1 << 20));
}

void require_divides(core::JsonObject& json, const char* key, uint64_t degree, uint64_t value,
                     const std::string& what) {
  if (value % degree != 0)
    throw json.error(key, std::string(key) + " " + std::to_string(degree) + " does not divide " + what +
                              " (" + std::to_string(value) + ")");
}

ExpertRoutingModel plan_routing(core::JsonObject& plan, const TransformerSpec& model,
                                const core::FileSource* files) {
  const double capacity = model.moe ? model.moe->capacity_factor : 0.0;
  if (!plan.has("routing")) {
    ExpertRoutingModel r;
    r.capacity_factor = capacity;
    return r;
  }
  if (!model.moe) throw plan.error("routing", "expert routing needs a Mixture-of-Experts model");
  auto json = plan.object("routing");
  return read_routing(json, model.moe->experts, capacity, files);
}

}  // namespace

std::string_view to_string(PipelineSchedule s) {
  switch (s) {
    case PipelineSchedule::kGpipe:
      return "gpipe";
    case PipelineSchedule::k1F1B:
      return "1f1b";
    case PipelineSchedule::kInterleaved1F1B:
      return "interleaved-1f1b";
  }
  return "?";
}

std::string_view to_string(Recompute r) {
  switch (r) {
    case Recompute::kNone:
      return "none";
    case Recompute::kSelective:
      return "selective";
    case Recompute::kFull:
      return "full";
  }
  return "?";
}

ParallelPlan ParallelPlan::from_json(core::JsonObject& json, const TransformerSpec& model,
                                     const core::FileSource* files) {
  ParallelPlan p;
  p.data_parallel = degree(json, "data_parallel");
  p.tensor_parallel = degree(json, "tensor_parallel");
  p.pipeline_parallel = degree(json, "pipeline_parallel");
  p.context_parallel = degree(json, "context_parallel");
  p.expert_parallel = degree(json, "expert_parallel");
  p.micro_batch = static_cast<uint32_t>(json.integer("micro_batch", 1, 1 << 20));
  p.global_batch = static_cast<uint32_t>(json.integer("global_batch", 1, 1 << 30));
  const std::string schedule = json.optional_string("schedule").value_or("1f1b");
  if (schedule == "gpipe")
    p.schedule = PipelineSchedule::kGpipe;
  else if (schedule == "interleaved-1f1b")
    p.schedule = PipelineSchedule::kInterleaved1F1B;
  else if (schedule != "1f1b")
    throw json.error("schedule",
                     "unknown schedule \"" + schedule + "\" (known: gpipe, 1f1b, interleaved-1f1b)");
  p.virtual_stages = static_cast<uint32_t>(json.integer_or("virtual_stages", 1, 1, 1024));
  if (p.virtual_stages > 1 && p.schedule != PipelineSchedule::kInterleaved1F1B)
    throw json.error("virtual_stages", "virtual stages need the \"interleaved-1f1b\" schedule");
  p.sequence_parallel = json.boolean_or("sequence_parallel", false);
  p.zero_stage = static_cast<uint32_t>(json.integer_or("zero_stage", 0, 0, 3));
  const std::string recompute = json.optional_string("recompute").value_or("none");
  if (recompute == "selective")
    p.recompute = Recompute::kSelective;
  else if (recompute == "full")
    p.recompute = Recompute::kFull;
  else if (recompute != "none")
    throw json.error("recompute",
                     "unknown recomputation \"" + recompute + "\" (known: none, selective, full)");
  p.offload_optimizer = json.boolean_or("offload_optimizer", false);
  p.flash_attention = json.boolean_or("flash_attention", true);
  p.seed = static_cast<uint64_t>(json.integer_or("seed", 1, 0, int64_t(1) << 53));
  p.routing = plan_routing(json, model, files);

  if (model.layers % (p.pipeline_parallel * p.chunks()) != 0 && p.chunks() > 1)
    throw json.error("virtual_stages", "pipeline_parallel " + std::to_string(p.pipeline_parallel) +
                                           " x virtual_stages " + std::to_string(p.chunks()) +
                                           " does not divide the layers (" + std::to_string(model.layers) +
                                           ")");
  require_divides(json, "pipeline_parallel", p.pipeline_parallel, model.layers, "the layers");
  require_divides(json, "tensor_parallel", p.tensor_parallel, model.heads, "the attention heads");
  require_divides(json, "tensor_parallel", p.tensor_parallel,
                  model.kv_heads == 0 ? model.heads : model.kv_heads, "the key/value heads");
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
  }
  const uint64_t per_step = uint64_t(p.data_parallel) * p.micro_batch;
  if (p.global_batch % per_step != 0)
    throw json.error("global_batch",
                     "global batch " + std::to_string(p.global_batch) +
                         " is not a multiple of data_parallel x micro_batch = " + std::to_string(per_step));
  if (p.schedule == PipelineSchedule::kInterleaved1F1B && p.micro_batches() % p.pipeline_parallel != 0)
    throw json.error("global_batch", "the interleaved schedule needs the micro-batches per replica (" +
                                         std::to_string(p.micro_batches()) +
                                         ") to be a multiple of pipeline_parallel");
  return p;
}

nlohmann::json ParallelPlan::to_json() const {
  nlohmann::json j = {{"data_parallel", data_parallel},         {"tensor_parallel", tensor_parallel},
                      {"pipeline_parallel", pipeline_parallel}, {"context_parallel", context_parallel},
                      {"expert_parallel", expert_parallel},     {"micro_batch", micro_batch},
                      {"global_batch", global_batch},           {"micro_batches", micro_batches()},
                      {"schedule", to_string(schedule)},        {"virtual_stages", virtual_stages},
                      {"sequence_parallel", sequence_parallel}, {"zero_stage", zero_stage},
                      {"recompute", to_string(recompute)},      {"offload_optimizer", offload_optimizer},
                      {"flash_attention", flash_attention},     {"seed", seed}};
  if (expert_parallel > 1 || routing.distribution != ExpertRoutingModel::Distribution::kUniform)
    j["routing"] = routing_to_json(routing);
  return j;
}

std::string ParallelPlan::describe() const {
  std::string s = "dp " + std::to_string(data_parallel) + " x pp " + std::to_string(pipeline_parallel) +
                  " x tp " + std::to_string(tensor_parallel);
  if (context_parallel > 1) s += " x cp " + std::to_string(context_parallel);
  if (expert_parallel > 1) s += ", ep " + std::to_string(expert_parallel);
  s += " (" + std::string(to_string(schedule));
  if (chunks() > 1) s += ", " + std::to_string(chunks()) + " chunks";
  s += ")";
  if (sequence_parallel) s += ", sequence parallel";
  if (zero_stage > 0) s += ", ZeRO-" + std::to_string(zero_stage);
  if (recompute != Recompute::kNone) s += ", " + std::string(to_string(recompute)) + " recomputation";
  if (offload_optimizer) s += ", optimizer offloaded";
  if (!flash_attention) s += ", attention scores in HBM";
  return s;
}

}  // namespace zs::workload
