// Megatron-Core-style trace generation: 5D parallelism, pipeline schedules, ZeRO, recomputation.
#include "workload/megatron_generator.hpp"

#include <cstdint>
#include <string>

#include "workload/mesh_axes.hpp"
#include "workload/plan_layout.hpp"
#include "workload/stage_builder.hpp"
#include "workload/tensor_overlap.hpp"

namespace zs::workload {

Trace generate_megatron_trace(const TransformerSpec& model, const ParallelPlan& plan, uint64_t max_ops,
                              const StackCosts& stack) {
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
  if (plan.overlap_pipeline_exchanges)  // at StageBuilder::receive_streams(plan)
    trace.streams.insert(trace.streams.end(), {"receive-previous", "receive-next"});
  if (plan.overlap_tensor_communication) trace.streams.push_back("tp-overlap");
  const TensorOverlapStreams tp_overlap{StageBuilder::kCompute,
                                        static_cast<uint32_t>(trace.streams.size() - 1)};
  trace.role_axis = axis_names::kPipeline;
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
    StageBuilder(model, plan, layout, s, trace.roles.back(), ops_left, max_ops, stack).build();
    if (plan.overlap_tensor_communication) overlap_tensor_exchanges(trace.roles.back(), tp_overlap);
  }
  return trace;
}

}  // namespace zs::workload
