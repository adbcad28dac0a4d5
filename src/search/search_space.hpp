// The plans `zettasim search` weighs: each searched key of a Megatron plan and the values it may take.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/param_reader.hpp"
#include "core/param_table.hpp"
#include "workload/parallel_plan.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::search {

/// One candidate's choices: the searched keys of the plan (the rest stay as the scenario's plan has them)
/// and the collective policy. Degrees are whole numbers; expert_tensor_parallel 0 means "as
/// tensor_parallel".
struct PlanChoice {
  uint32_t tensor_parallel = 1, pipeline_parallel = 1, virtual_stages = 1, context_parallel = 1;
  uint32_t data_parallel = 1, expert_parallel = 1, expert_tensor_parallel = 1;
  uint32_t micro_batch = 1, global_batch = 1, zero_stage = 0;
  workload::Recompute recompute = workload::Recompute::kNone;
  workload::PipelineSchedule schedule = workload::PipelineSchedule::k1F1B;
  bool sequence_parallel = false;
  bool overlap_gradient_reduction = false, overlap_parameter_gather = false;
  bool overlap_tensor_communication = false, overlap_pipeline_exchanges = false;
  bool overlap_expert_communication = false;
  uint32_t collective = 0;  ///< index into SearchSpace::collective

  /// The workload keys it sets, as a scenario's workload section writes them.
  nlohmann::json workload_keys() const;
  /// One line, e.g. "tp 8, pp 16 (1f1b), dp 128, ep 128, mb 1, ZeRO-1, recompute full".
  std::string describe() const;
};

/// The values each searched key may take. A scenario's "search" section pins a key (a value), lists its
/// values, or bounds the default values ({"min": A, "max": B}); a key it leaves out takes its defaults:
/// - tensor_parallel: divisors of the job's units that divide the attention heads, at most 64;
/// - pipeline_parallel: divisors of the units, at most the layers;
/// - virtual_stages (interleaved-1f1b only): 2 to 16 chunks per stage;
/// - context_parallel: divisors of the units that divide the sequence, at most 32;
/// - expert_parallel: divisors of the routed experts (1 for a dense model);
/// - expert_tensor_parallel: 1 and tensor_parallel (Mixture-of-Experts models);
/// - micro_batch: 1, 2, 4, 8; zero_stage: 0 to 3; recompute: none, selective, full (every layer);
/// - schedule: 1f1b and interleaved-1f1b; sequence_parallel: true (with tensor parallelism);
/// - global_batch, the overlap options, and the policies: the scenario's.
/// The data-parallel degree follows from the units. Pipeline stages split the layers evenly.
struct SearchSpace {
  std::vector<uint32_t> tensor_parallel, pipeline_parallel, virtual_stages, context_parallel;
  std::vector<uint32_t> expert_parallel, expert_tensor_parallel;  ///< 0: as tensor_parallel
  std::vector<uint32_t> micro_batch, global_batch, zero_stage;
  std::vector<workload::Recompute> recompute;
  std::vector<workload::PipelineSchedule> schedule;
  std::vector<bool> sequence_parallel;
  std::vector<bool> overlap_gradient_reduction, overlap_parameter_gather, overlap_tensor_communication;
  std::vector<bool> overlap_pipeline_exchanges, overlap_expert_communication;
  std::vector<std::string> collective;  ///< collective policy names
  std::vector<std::string> placement;   ///< placement policy names (the engine tells them apart)
  uint64_t units = 0;                   ///< ranks of every candidate: the scenario's job
  uint32_t layers = 0;                  ///< the model's layers (split evenly over the virtual stages)
  nlohmann::json resolved;              ///< the section as read, defaults filled in

  /// The keys of a scenario's "search" section.
  static const core::ParamTable& params();
  /// The space for `model` on `units` ranks around `base` (the scenario's plan) and its policies
  /// (`collective`, `placement`; the names a section may list: `collectives`, `placements`), with what
  /// `section` pins or bounds; nullptr: the defaults. Problems are InputErrors at the section's keys.
  static SearchSpace read(core::ParamReader* section, const workload::TransformerSpec& model,
                          const workload::ParallelPlan& base, uint64_t units,
                          const std::vector<std::string>& collectives,
                          const std::vector<std::string>& placements, const std::string& collective,
                          const std::string& placement);

  /// Calls `visit(choice)` for every combination of the values, in a fixed order, whose model-parallel
  /// degrees divide the units (the data-parallel degree is what is left), whose interleaving matches its
  /// schedule, whose virtual stages divide the layers, whose expert parallelism divides the data-parallel
  /// degree and whose micro-batches divide the
  /// batch, with the count of combinations looked at so far; stops early when `visit` returns false.
  /// Returns how many it visited.
  uint64_t enumerate(const std::function<bool(const PlanChoice&, uint64_t combinations)>& visit) const;
  /// How many combinations of the values there are (before enumerate's checks).
  double combinations() const;
};

}  // namespace zs::search
