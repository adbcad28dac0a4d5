// What `zettasim search` found: tier 1's counts and ranking, tier 2's simulated finalists, the best plan.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "search/plan_search.hpp"

namespace zs::search {

/// One plan run through the engine: a tier-1 finalist with a placement, or the scenario's own plan.
struct Finalist {
  bool reference = false;  ///< the scenario's own plan (its tier-1 estimate too, when it fits)
  Candidate candidate;     ///< the plan and its tier-1 estimate
  bool estimated = false;  ///< whether `candidate.estimate` holds a tier-1 estimate
  std::string placement, collective;
  bool ran = false;        ///< whether the engine ran it (the sweep point's status is "ok")
  std::string status;      ///< the sweep point's status, as its record names it
  std::string error;       ///< why it is not ok
  nlohmann::json summary;  ///< the engine's summary.json (ok only)
  /// The simulated figure the objective ranks by (smaller is better), when ok.
  std::optional<double> simulated_objective;
  /// (estimate - simulated) / simulated iteration time, when ok and estimated.
  std::optional<double> estimate_error;
};

struct SearchResult {
  std::string scenario;  ///< its name
  std::string file;
  Objective objective = Objective::kTime;
  uint64_t space_combinations = 0;  ///< the space's size before any check
  Tier1Result tier1;
  std::vector<Finalist> finalists;  ///< the reference first (when tier 2 ran), then by tier-1 rank
  /// The best simulated finalist by the objective: the scenario's own plan when no searched plan beats it.
  std::optional<size_t> best;
  /// Spearman's rank correlation between tier 1's and the engine's iteration times over the finalists
  /// that ran (the reference left out); none below three.
  std::optional<double> rank_correlation;
  bool tier2 = false;  ///< whether finalists ran through the engine
};

/// The simulated figure `objective` ranks by in a summary.json (iteration time for time and pareto,
/// energy per token, cost per million tokens); none when the summary lacks it.
std::optional<double> simulated_objective(const nlohmann::json& summary, Objective objective);

/// Spearman's rank correlation of two equally long series (ties share their mean rank); none below three.
std::optional<double> spearman(const std::vector<double>& a, const std::vector<double>& b);

/// Fills each finalist's simulated objective and estimate error, the best, and the rank correlation.
void rank_finalists(SearchResult& result);

}  // namespace zs::search
