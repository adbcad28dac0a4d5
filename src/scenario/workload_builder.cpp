// Workload generator dispatch.
#include "scenario/workload_builder.hpp"

#include <algorithm>

#include "workload/data_parallel_generator.hpp"
#include "workload/megatron_arguments.hpp"
#include "workload/megatron_generator.hpp"

namespace zs::scenario {
namespace {

/// The section's model, which a training generator needs: an input error at "model" when it names none.
const workload::TransformerSpec& model_of(core::ParamReader& work, const GeneratorInputs& in,
                                          const char* generator) {
  if (in.model == nullptr)
    throw work.error("model", std::string("the ") + generator + " generator needs a transformer model file");
  return *in.model;
}

std::string tokens(const workload::TransformerSpec& model, uint32_t global_batch) {
  return "global batch " + std::to_string(global_batch) + " sequences of " + std::to_string(model.seq_len) +
         " tokens";
}

/// Refuses a software stack in a section whose generator does not charge one.
void refuse_stack(core::ParamReader& work, const GeneratorInputs& in, const std::string& generator) {
  if (in.stack != nullptr)
    throw work.error("software_stack",
                     "the " + generator +
                         " generator does not charge a software stack's costs (the megatron "
                         "generator does)");
}

BuiltWorkload build_data_parallel(core::ParamReader& work, const GeneratorInputs& in) {
  refuse_stack(work, in, "ideal-data-parallel");
  const auto& model = model_of(work, in, "ideal-data-parallel");
  const uint64_t max_ops = in.max_ops;
  auto plan = workload::DataParallelPlan::from_params(work);
  work.finish();  // an unknown key is refused before the trace is generated
  // Per micro-batch a forward and a backward per layer and for the logits; a gradient all-reduce per
  // layer; the optimizer step.
  const double ops = double(plan.accumulation_steps()) * (2.0 * model.layers + 2) + model.layers + 1;
  if (ops > double(max_ops))
    throw work.error("the generated trace would hold " + std::to_string(uint64_t(ops)) + " ops, more than " +
                     std::to_string(max_ops) + ": " + model.name + " has " + std::to_string(model.layers) +
                     " layers, " + std::to_string(plan.accumulation_steps()) +
                     (plan.accumulation_steps() == 1 ? " micro-batch" : " micro-batches") + " per iteration");
  return {workload::generate_data_parallel_trace(model, plan), std::nullopt, plan.derived(),
          workload::model_state_bytes(model),
          model.name + ", ideal data parallel " + std::to_string(plan.data_parallel) + ", micro-batch " +
              std::to_string(plan.micro_batch) + ", " + tokens(model, plan.global_batch)};
}

/// The plan of a megatron section: its keys, or, with "megatron_arguments", what the arguments say with the
/// section's own keys laid over them (each such key listed in `notes` as set over the arguments, each
/// argument read but not modelled as ignored). An input error in a value the arguments gave names them.
workload::ParallelPlan megatron_plan(core::ParamReader& work, const workload::TransformerSpec& model,
                                     const GeneratorInputs& in, std::vector<std::string>& notes) {
  const auto text = work.find<std::string>("megatron_arguments");
  if (!text) return workload::ParallelPlan::from_params(work, model, &in.files);
  const std::string at = core::json_pointer_append(work.pointer(), "megatron_arguments");
  auto reading = workload::read_megatron_arguments(*text, model, work.file(), at);
  nlohmann::json merged = reading.plan;
  for (const auto& key : work.json().keys()) {
    if (key == "generator" || key == "model" || key == "megatron_arguments" || !work.table().find(key))
      continue;
    const nlohmann::json& mine = work.value(key);
    if (merged.contains(key) && merged[key] != mine)
      notes.push_back("Megatron-LM arguments: " + key + " " + mine.dump() + " set over the arguments' " +
                      merged[key].dump());
    merged[key] = mine;
  }
  for (const auto& ignored : reading.ignored) notes.push_back("Megatron-LM arguments: ignored " + ignored);
  core::ParamReader expanded(work.table(), core::JsonObject(merged, work.file(), work.pointer()));
  workload::ParallelPlan plan;
  try {
    plan = workload::ParallelPlan::from_params(expanded, model, &in.files);
    expanded.finish();
  } catch (const core::InputError& e) {
    const std::string key = e.json_path().substr(std::min(e.json_path().size(), work.pointer().size() + 1));
    if (work.json().has(key) || !reading.plan.contains(key)) throw;
    throw core::InputError(work.file(), at, key + " as the arguments give it: " + e.message());
  }
  for (const auto& [key, value] : expanded.resolved().items()) work.record(key, value);
  return plan;
}

BuiltWorkload build_megatron(core::ParamReader& work, const GeneratorInputs& in) {
  const auto& model = model_of(work, in, "megatron");
  std::vector<std::string> notes;
  auto plan = megatron_plan(work, model, in, notes);
  work.finish();  // an unknown key is refused before the trace is generated
  workload::Trace trace;
  try {
    trace = workload::generate_megatron_trace(model, plan, in.max_ops,
                                              in.stack ? *in.stack : workload::StackCosts{});
  } catch (const workload::TraceTooLarge& e) {
    throw work.error(std::string(e.what()) + ": " + model.name + " has " + std::to_string(model.layers) +
                     " layers, " + std::to_string(plan.micro_batches()) +
                     (plan.micro_batches() == 1 ? " micro-batch" : " micro-batches") + " per iteration");
  }
  core::Bytes state(0.0);
  for (const auto& role : trace.roles)
    state = std::max(state, role.memory->weights + role.memory->gradients + role.memory->optimizer);
  BuiltWorkload built{std::move(trace), std::nullopt, plan.derived(), state,
                      model.name + ", " + plan.describe() + ", micro-batch " +
                          std::to_string(plan.micro_batch) + ", " + tokens(model, plan.global_batch)};
  if (!notes.empty()) built.derived["megatron_arguments"] = notes;
  built.notes = std::move(notes);
  built.megatron = workload::MegatronJob{model, std::move(plan)};
  return built;
}

BuiltWorkload build_collective(core::ParamReader& work, const GeneratorInputs& in) {
  refuse_stack(work, in, "collective");
  if (in.model != nullptr)
    throw work.error("model", "a collective benchmark has no model; leave \"model\" out");
  auto bench = workload::CollectiveBenchmark::from_params(work, in.machine_units);
  work.finish();
  return {workload::generate_collective_trace(bench), bench, bench.derived(), bench.buffers_per_rank(),
          std::string(workload::to_string(bench.collective)) + " of " + core::display(bench.size) + " over " +
              std::to_string(bench.ranks) + " ranks (a collective benchmark, as nccl-tests)"};
}

}  // namespace

WorkloadGeneratorRegistry builtin_workload_generators() {
  WorkloadGeneratorRegistry r("workload generator");
  r.add("ideal-data-parallel",
        "an idealization for closed-form checks, not a prediction: every rank holds the whole model, each "
        "layer's pass is one matrix kernel (no element-wise or loss work), bf16 gradients all-reduced per "
        "layer over dp as its backward ends, Adam as one memory-bound pass (megatron models the job)",
        build_data_parallel, &workload::DataParallelPlan::params());
  r.add("megatron",
        "Megatron-Core 5D parallelism: data (ZeRO 0-3), tensor (sequence parallel), pipeline (GPipe, 1F1B, "
        "interleaved), context, expert (routed); recomputation, optimizer offload",
        build_megatron, &workload::ParallelPlan::params());
  r.add("collective",
        "a collective benchmark as nccl-tests: one collective of a size over every rank, timed alone, with "
        "its bus bandwidth (no model)",
        build_collective, &workload::CollectiveBenchmark::params());
  return r;
}

const core::ParamTable& workload_section_params() {
  using core::Param;
  static const core::ParamTable table(
      "workload", "a generated workload: these keys, then its generator's plan keys (workload.GENERATOR)",
      {Param::text("generator", "the workload generator (zettasim list)"),
       Param::text("model",
                   "a transformer model file, relative to this file (every generator but "
                   "\"collective\" needs one)")
           .optional(),
       Param::text("software_stack",
                   "a software-stack model file (the training framework's fixed host-side costs), relative "
                   "to this file; the megatron generator charges them; left out, none")
           .optional()});
  return table;
}

const WorkloadGeneratorRegistry::Entry& find_workload_generator(const std::string& name,
                                                                const core::JsonObject& at,
                                                                const WorkloadGeneratorRegistry& generators) {
  try {
    return generators.at(name);
  } catch (const std::out_of_range& e) {
    throw at.error("generator", e.what());
  }
}

}  // namespace zs::scenario
