// The mesh and communicators of a Megatron-style plan: which ranks reduce which gradients.
#pragma once

#include <vector>

#include "workload/parallel_plan.hpp"
#include "workload/trace.hpp"

namespace zs::workload {

/// The communicators a plan needs beyond single axes, and the mesh.
struct PlanLayout {
  Mesh mesh;
  std::vector<Communicator> communicators;
  bool expert_sync = false;     ///< experts have replicas to synchronize with
  bool norm_reduction = false;  ///< the gradient norm and inf check span more than one rank
  bool amax_reduction = false;  ///< fp8 amaxes are reduced, over more than one rank
};

/// The communicator of the gradient norm's and inf check's all-reduces.
inline constexpr const char* kGradientNormGroup = "gradient-norm";
/// The communicator of Transformer Engine's amax reductions: a stage's tensor-, data- (expert-parallel
/// included) and context-parallel ranks, Megatron-Core's amax reduction group.
inline constexpr const char* kAmaxGroup = "amax";

/// The mesh (pp, then dp or edp x ep, cp, tp) and the communicators beyond single axes: "dp" when dense
/// replicas span several axes, "gradient-norm" over the ranks holding distinct gradients, "expert-dp"
/// over the ranks holding the same experts, "amax" over a stage's ranks when fp8 amaxes are reduced.
PlanLayout layout_of(const TransformerSpec& model, const ParallelPlan& plan);

}  // namespace zs::workload
