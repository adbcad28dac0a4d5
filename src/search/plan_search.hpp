// Tier 1 of `zettasim search`: every candidate plan checked, fitted into memory and estimated; the best kept.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/choice_names.hpp"
#include "core/file_source.hpp"
#include "core/progress.hpp"
#include "policy/policy_catalog.hpp"
#include "search/plan_estimator.hpp"
#include "search/search_space.hpp"

namespace zs::search {

/// What the search ranks plans by: iteration time, energy per token, cost per token (the scenario's cost
/// section), or the Pareto front of time against cost (energy without a cost section).
enum class Objective { kTime, kEnergy, kCost, kPareto };
const core::ChoiceNames<Objective>& objectives();

/// What a search starts from: the scenario's model, plan, machine, policies and costs.
struct SearchInputs {
  const workload::TransformerSpec* model = nullptr;
  /// The scenario's plan keys (ParallelPlan::params()'s, as its resolved workload section holds them).
  nlohmann::json base_plan;
  std::string file;                         ///< the scenario file: errors and relative routing files
  const core::FileSource* files = nullptr;  ///< reads a routing histogram file
  const topology::Machine* machine = nullptr;
  uint64_t ranks = 0;
  workload::StackCosts stack;
  const topology::CostSetting* cost = nullptr;  ///< nullptr: no cost section
  const policy::PolicyCatalog* policies = nullptr;
  policy::CollectiveOptions collective_options;
  /// A further rule a plan must meet to be a candidate, with its name in refusals (Tier1Result::refused_by);
  /// none: every plan the generator accepts.
  std::function<bool(const workload::ParallelPlan&)> admissible;
  std::string admissible_rule;
};

struct Candidate {
  uint64_t index = 0;  ///< in the enumeration's order (ties go to the earlier)
  PlanChoice choice;
  PlanEstimate estimate;
  double objective = 0;  ///< what it is ranked by (smaller is better)
};

/// Tier 1's outcome: what it looked at and the best candidates.
struct Tier1Result {
  uint64_t candidates = 0;  ///< combinations whose degrees divide the units, layers and batch
  uint64_t refused = 0;     ///< refused by the workload generator's rules
  uint64_t too_large = 0;   ///< over the unit's HBM
  uint64_t estimated = 0;   ///< fit and were estimated
  std::map<std::string, uint64_t> refused_by;  ///< refusals per plan key the rule names
  uint64_t probes = 0, patterns = 0;           ///< probe traces generated, communication patterns costed
  double seconds = 0;                          ///< wall time
  bool budget_reached = false;                 ///< stopped by the time budget before the end
  /// The best `keep` by the objective, best first; under kPareto, the front (by time) then the best by
  /// time.
  std::vector<Candidate> ranked;
  std::vector<uint64_t> pareto;  ///< indices (Candidate::index) of the Pareto front, by time
};

/// The plan a choice makes of the scenario's plan keys; core::InputError when the generator's rules
/// refuse it.
workload::ParallelPlan plan_of(const SearchInputs& in, const PlanChoice& choice);
/// The plan keys (ParallelPlan::params()'s) a choice sets over `base_plan`.
nlohmann::json plan_keys(const nlohmann::json& base_plan, const PlanChoice& choice);

/// The searched keys of `plan`, with collective policy index `collective`.
PlanChoice choice_of(const workload::ParallelPlan& plan, uint32_t collective);
/// Tier 1's estimate of `plan` with the collective policy `collective`; none when it does not fit.
std::optional<PlanEstimate> estimate_plan(const SearchInputs& in, const workload::ParallelPlan& plan,
                                          const std::string& collective);

/// Runs tier 1 over `space`, keeping the best `keep`. Throws core::InputError (at "--objective") for the
/// cost objective without a cost section. Stops after `budget_s` of wall time when positive (then the
/// result depends on the machine's speed, and says so). `progress` hears of every 1,024 candidates.
Tier1Result run_tier1(const SearchInputs& in, const SearchSpace& space, Objective objective, size_t keep,
                      double budget_s, core::ProgressSink* progress);

}  // namespace zs::search
