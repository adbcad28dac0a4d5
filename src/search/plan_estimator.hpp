// Tier 1 of a plan search: a plan's memory and a fast estimate of its iteration from the same models.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "search/collective_estimator.hpp"
#include "topology/machine.hpp"
#include "topology/machine_cost.hpp"
#include "topology/machine_power.hpp"
#include "workload/parallel_plan.hpp"
#include "workload/stack_costs.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::search {

/// What tier 1 predicts of one plan's iteration. Times in s, per iteration unless said.
struct PlanEstimate {
  double iteration_s = 0;
  /// The slowest stage's forward and backward of one micro-batch over its chunks, and of that the
  /// blocking tensor-, context- and expert-parallel collectives' part.
  double stage_s = 0, stage_communication_s = 0;
  double bubble_s = 0;             ///< the pipeline's fill and drain
  double pipeline_exchange_s = 0;  ///< exchanges between stages on the critical path
  double data_parallel_s = 0;      ///< gradient reductions and weight gathers left exposed
  double optimizer_s = 0;
  double memory_bytes = 0;  ///< the most loaded stage's footprint, B
  double tokens_per_s = 0;
  double mfu = 0;                 ///< model FLOPs over the job's units' peak in the model's dtype
  double energy_j = 0;            ///< the machine's, per iteration, J
  double energy_per_token_j = 0;  ///< J
  /// The scenario's cost per million tokens (cost section), USD; none without one.
  std::optional<double> cost_per_million_tokens_usd;
  /// What bounds the iteration most: "compute", "tensor/context/expert communication", "pipeline bubble",
  /// "pipeline exchanges", "data-parallel communication" or "optimizer".
  std::string limit() const;
  nlohmann::json to_json() const;
};

/// Estimates plans of one model on the first `ranks` units of a machine (ranks placed in order, as the
/// linear placement places them). Per distinct layer shape (the plan's tensor, context and expert
/// parallelism, micro-batch, recomputation, precision and overlaps) it generates the trace of a probe
/// (one dense and one Mixture-of-Experts layer, one micro-batch, no pipeline) with the workload generator
/// and costs the ops of its compute stream: compute by the unit model, blocking collectives on the
/// plan's own groups by the CollectiveEstimator. A plan's iteration is then
///   m x slowest stage + (the other stages) / chunks  (the schedule's bubble: (pp - 1) / v stages)
///   + the pipeline's exchanges while it fills and drains (every step's, with batched exchanges)
///   + exposed data-parallel reductions and gathers (overlapped ones: what the last stage's backward or
///     first forward cannot hide, at least one layer's share)
///   + the Adam step on the rank's shard, + the software stack's fixed costs,
/// with routing balanced (the expert load the plan's routing model draws is the engine's to see). ZeRO-3
/// gathers each layer's two blocks for forward and backward and reduce-scatters their gradients per
/// micro-batch: what a layer's compute does not hide is exposed. Full recomputation of the first layers
/// of each virtual stage (block method) blends probes with and without recomputation by the share of
/// layers recomputed.
class PlanEstimator {
 public:
  /// `stack`: the workload's software stack; `cost`: the scenario's cost section (nullptr: none).
  PlanEstimator(const workload::TransformerSpec& model, const topology::Machine& machine, uint64_t ranks,
                workload::StackCosts stack, const topology::CostSetting* cost);

  /// The HBM of the smallest unit of the job, B.
  double capacity() const { return capacity_; }
  /// The most loaded stage's footprint (stage_footprint of the first and last stages), B.
  double memory(const workload::ParallelPlan& plan) const;
  /// The estimate of a plan that fits, its collectives costed by `collectives` (one per collective
  /// policy; `policy` tells the layer-cost cache which).
  PlanEstimate estimate(const workload::ParallelPlan& plan, CollectiveEstimator& collectives,
                        uint32_t policy);
  /// Probe traces generated so far.
  uint64_t probes() const { return layer_costs_.size(); }

 private:
  /// One micro-batch's compute-stream time of a dense and an MoE layer and of the last stage's extras
  /// (logits, loss), per pass, s.
  struct LayerCosts {
    double layer[2][2] = {{0, 0}, {0, 0}};  ///< [dense, moe][forward, backward]
    double layer_communication[2][2] = {{0, 0}, {0, 0}};
    double extras[2] = {0, 0};
    double extras_communication[2] = {0, 0};
  };
  const LayerCosts& layer_costs(const workload::ParallelPlan& plan, CollectiveEstimator& collectives,
                                uint32_t policy);
  LayerCosts probe(const workload::ParallelPlan& plan, CollectiveEstimator& collectives);
  /// The groups of communicator `name` of `plan`: rank 0's, and a sample of the others (cached).
  const GroupUnits& group_units(const workload::ParallelPlan& plan, const std::string& name);
  /// Exposed data-parallel time and the optimizer step of stage `stage`, s.
  std::pair<double, double> after_backward(const workload::ParallelPlan& plan, uint32_t stage,
                                           double forward_s, double backward_s, const LayerCosts& costs,
                                           CollectiveEstimator& c);
  /// ZeRO-3's gathers and reduce-scatters of one layer of each kind (dense, MoE), per micro-batch, s.
  std::pair<double, double> sharded_layer_communication(const workload::ParallelPlan& plan,
                                                        CollectiveEstimator& c);

  workload::TransformerSpec model_;
  const topology::Machine& machine_;
  uint64_t ranks_;
  workload::StackCosts stack_;
  const topology::CostSetting* cost_;
  std::vector<topology::NodeId> units_;  ///< the job's units, rank order
  const hw::ComputeUnitModel* unit_;     ///< the first unit's model
  double capacity_ = 0;
  topology::MachinePower power_;
  std::map<std::string, LayerCosts> layer_costs_;
  std::map<std::string, GroupUnits> groups_;
};

}  // namespace zs::search
