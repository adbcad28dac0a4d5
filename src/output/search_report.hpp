// `zettasim search`'s outputs: search.json, the report's text and the tier-1 table as CSV.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "search/search_result.hpp"

namespace zs::output {

/// The whole result as JSON (search.json): the space's counts, tier 1's best with their estimates, the
/// Pareto front, the finalists with their estimates, simulated figures and the estimate's error, the best.
nlohmann::json search_json(const search::SearchResult& result);

/// What the command prints and report.txt holds: the counts, the finalists' table and the best plan.
std::string search_report_text(const search::SearchResult& result);

/// Tier 1's kept candidates, best first, one line each (tier1.csv).
std::string tier1_csv(const search::SearchResult& result);

}  // namespace zs::output
