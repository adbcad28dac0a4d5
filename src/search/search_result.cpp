// What `zettasim search` found: tier 1's counts and ranking, tier 2's simulated finalists, the best plan.
#include "search/search_result.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace zs::search {
namespace {

std::vector<double> ranks_of(const std::vector<double>& x) {
  std::vector<size_t> order(x.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return x[a] < x[b]; });
  std::vector<double> rank(x.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]]) ++j;
    for (size_t k = i; k <= j; ++k) rank[order[k]] = (double(i) + double(j)) / 2.0 + 1.0;
    i = j + 1;
  }
  return rank;
}

}  // namespace

std::optional<double> simulated_objective(const nlohmann::json& summary, Objective objective) {
  const char* key = "iteration_time_s";
  if (objective == Objective::kEnergy) key = "energy_per_token_j";
  if (objective == Objective::kCost) {
    if (!summary.contains("cost") || !summary["cost"].contains("per_million_tokens_usd")) return std::nullopt;
    return summary["cost"]["per_million_tokens_usd"].get<double>();
  }
  if (!summary.contains(key) || !summary[key].is_number()) return std::nullopt;
  return summary[key].get<double>();
}

std::optional<double> spearman(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.size() < 3) return std::nullopt;
  const auto ra = ranks_of(a), rb = ranks_of(b);
  const double n = double(a.size()), mean = (n + 1) / 2;
  double cov = 0, va = 0, vb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    cov += (ra[i] - mean) * (rb[i] - mean);
    va += (ra[i] - mean) * (ra[i] - mean);
    vb += (rb[i] - mean) * (rb[i] - mean);
  }
  if (va == 0 || vb == 0) return std::nullopt;
  return cov / std::sqrt(va * vb);
}

void rank_finalists(SearchResult& result) {
  std::vector<double> estimated, simulated;
  result.best.reset();
  for (size_t i = 0; i < result.finalists.size(); ++i) {
    Finalist& f = result.finalists[i];
    if (!f.ran) continue;
    f.simulated_objective = simulated_objective(f.summary, result.objective);
    const double t = f.summary.value("iteration_time_s", 0.0);
    if (f.estimated && t > 0) f.estimate_error = (f.candidate.estimate.iteration_s - t) / t;
    if (!f.reference && f.estimated && t > 0) {
      estimated.push_back(f.candidate.estimate.iteration_s);
      simulated.push_back(t);
    }
    if (!f.simulated_objective) continue;
    if (!result.best || *f.simulated_objective < *result.finalists[*result.best].simulated_objective)
      result.best = i;
  }
  result.rank_correlation = spearman(estimated, simulated);
}

}  // namespace zs::search
