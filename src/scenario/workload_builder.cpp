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

}  // namespace

BuiltWorkload build_workload(const std::string& generator, core::JsonObject& work,
                             const workload::TransformerSpec& model, const core::FileSource& files) {
  if (generator == "data-parallel") {
    auto plan = workload::DataParallelPlan::from_json(work);
    return {workload::generate_data_parallel_trace(model, plan), plan.to_json(),
            workload::model_state_bytes(model),
            model.name + ", data parallel " + std::to_string(plan.data_parallel) + ", micro-batch " +
                std::to_string(plan.micro_batch) + ", " + tokens(model, plan.global_batch)};
  }
  if (generator == "megatron") {
    auto plan = workload::ParallelPlan::from_json(work, model, &files);
    auto trace = workload::generate_megatron_trace(model, plan);
    core::Bytes state(0.0);
    for (const auto& role : trace.roles)
      state = std::max(state, role.memory->weights + role.memory->gradients + role.memory->optimizer);
    return {std::move(trace), plan.to_json(), state,
            model.name + ", " + plan.describe() + ", micro-batch " + std::to_string(plan.micro_batch) + ", " +
                tokens(model, plan.global_batch)};
  }
  throw work.error("generator",
                   "unknown workload generator \"" + generator + "\" (known: data-parallel, megatron)");
}

}  // namespace zs::scenario
