// The mesh and communicators of a Megatron-style plan.
#include "workload/plan_layout.hpp"
#include "workload/mesh_axes.hpp"

#include <string>
#include <utility>

namespace zs::workload {

PlanLayout layout_of(const TransformerSpec& model, const ParallelPlan& plan) {
  std::vector<MeshAxis> axes{{axis_names::kPipeline, plan.pipeline_parallel}};
  std::vector<std::string> dense, experts;
  const uint32_t edp = plan.data_parallel / plan.expert_parallel;
  if (plan.expert_parallel > 1) {
    if (edp > 1) {
      axes.push_back({axis_names::kExpertData, edp});
      dense.push_back(axis_names::kExpertData);
      experts.push_back(axis_names::kExpertData);
    }
    axes.push_back({axis_names::kExpert, plan.expert_parallel});
    dense.push_back(axis_names::kExpert);
  } else {
    axes.push_back({axis_names::kData, plan.data_parallel});
    dense.push_back(axis_names::kData);
    experts.push_back(axis_names::kData);
  }
  if (plan.context_parallel > 1) {
    axes.push_back({axis_names::kContext, plan.context_parallel});
    dense.push_back(axis_names::kContext);
    experts.push_back(axis_names::kContext);
  }
  axes.push_back({axis_names::kTensor, plan.tensor_parallel});
  if (plan.expert_tensor_parallel == 1) experts.push_back(axis_names::kTensor);
  // The gradient norm's ranks: every rank holding a distinct part of the gradients. With a distributed
  // optimizer every rank owns a shard; without, data-parallel replicas hold the same gradients and the
  // model-parallel ranks (pipeline stages, tensor and expert shards) distinct ones.
  std::vector<std::string> norm;
  for (const auto& axis : axes)
    if (axis.size > 1 && (plan.zero_stage >= 1 || axis.name == axis_names::kPipeline ||
                          axis.name == axis_names::kTensor || axis.name == axis_names::kExpert))
      norm.push_back(axis.name);
  std::vector<std::string> stage;  // every axis but the pipeline's
  for (const auto& axis : axes)
    if (axis.size > 1 && axis.name != axis_names::kPipeline) stage.push_back(axis.name);
  PlanLayout l{Mesh(std::move(axes)), {}, false, !norm.empty()};
  l.amax_reduction = plan.fp8_amax_reduction && !stage.empty();
  if (dense != std::vector<std::string>{axis_names::kData})
    l.communicators.push_back({axis_names::kData, dense});
  if (l.norm_reduction) l.communicators.push_back({kGradientNormGroup, norm});
  if (l.amax_reduction) l.communicators.push_back({kAmaxGroup, stage});
  if (model.moe && plan.expert_replicas() > 1) {
    l.communicators.push_back({axis_names::kExpertReplicas, experts});
    l.expert_sync = true;
  }
  // The tensor-parallel ranks splitting each expert: the tp axis under its own name, so that its
  // exchanges are not taken for a block's sequence-parallel ones (which --tp-comm-overlap overlaps).
  if (plan.expert_tensor_parallel > 1)
    l.communicators.push_back({axis_names::kExpertTensor, {axis_names::kTensor}});
  return l;
}

}  // namespace zs::workload
