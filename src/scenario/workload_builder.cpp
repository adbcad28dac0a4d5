// Workload generator dispatch.
#include "scenario/workload_builder.hpp"

#include <algorithm>

#include "workload/data_parallel_generator.hpp"
#include "workload/megatron_generator.hpp"

namespace zs::scenario {
namespace {

std::string tokens(const workload::TransformerSpec& model, uint32_t global_batch) {
  return "global batch " + std::to_string(global_batch) + " sequences of " + std::to_string(model.seq_len) +
         " tokens";
}

BuiltWorkload build_data_parallel(core::ParamReader& work, const workload::TransformerSpec& model,
                                  const core::FileSource&, uint64_t max_ops) {
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
  return {workload::generate_data_parallel_trace(model, plan), plan.derived(),
          workload::model_state_bytes(model),
          model.name + ", data parallel " + std::to_string(plan.data_parallel) + ", micro-batch " +
              std::to_string(plan.micro_batch) + ", " + tokens(model, plan.global_batch)};
}

BuiltWorkload build_megatron(core::ParamReader& work, const workload::TransformerSpec& model,
                             const core::FileSource& files, uint64_t max_ops) {
  auto plan = workload::ParallelPlan::from_params(work, model, &files);
  work.finish();  // an unknown key is refused before the trace is generated
  workload::Trace trace;
  try {
    trace = workload::generate_megatron_trace(model, plan, max_ops);
  } catch (const workload::TraceTooLarge& e) {
    throw work.error(std::string(e.what()) + ": " + model.name + " has " + std::to_string(model.layers) +
                     " layers, " + std::to_string(plan.micro_batches()) +
                     (plan.micro_batches() == 1 ? " micro-batch" : " micro-batches") + " per iteration");
  }
  core::Bytes state(0.0);
  for (const auto& role : trace.roles)
    state = std::max(state, role.memory->weights + role.memory->gradients + role.memory->optimizer);
  return {std::move(trace), plan.derived(), state,
          model.name + ", " + plan.describe() + ", micro-batch " + std::to_string(plan.micro_batch) + ", " +
              tokens(model, plan.global_batch)};
}

}  // namespace

WorkloadGeneratorRegistry builtin_workload_generators() {
  WorkloadGeneratorRegistry r("workload generator");
  r.add("data-parallel", "every rank holds the whole model; gradients all-reduced per layer over dp",
        build_data_parallel, &workload::DataParallelPlan::params());
  r.add("megatron",
        "Megatron-Core 5D parallelism: data (ZeRO 0-3), tensor (sequence parallel), pipeline (GPipe, 1F1B, "
        "interleaved), context, expert (routed); recomputation, optimizer offload",
        build_megatron, &workload::ParallelPlan::params());
  return r;
}

const core::ParamTable& workload_section_params() {
  using core::Param;
  static const core::ParamTable table(
      "workload", "a generated workload: these keys, then its generator's plan keys (workload.GENERATOR)",
      {Param::text("generator", "the workload generator (zettasim list)"),
       Param::text("model", "a transformer model file, relative to this file")});
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
