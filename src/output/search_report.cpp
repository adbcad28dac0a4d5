// `zettasim search`'s outputs: search.json, the report's text and the tier-1 table as CSV.
#include "output/search_report.hpp"

#include <sstream>

#include "core/units.hpp"
#include "output/text_columns.hpp"

namespace zs::output {
namespace {

using search::Candidate;
using search::Finalist;
using search::SearchResult;

nlohmann::json candidate_json(const Candidate& c) {
  return {{"index", c.index},
          {"plan", c.choice.describe()},
          {"workload", c.choice.workload_keys()},
          {"estimate", c.estimate.to_json()}};
}

/// The simulated figures search.json keeps of a summary.json.
nlohmann::json simulated_json(const nlohmann::json& s) {
  nlohmann::json out = nlohmann::json::object();
  for (const char* key :
       {"iteration_time_s", "mfu", "tokens_per_second", "energy_per_iteration_j", "energy_per_token_j",
        "critical_rank_breakdown_s", "critical_rank_exposed_communication_by_communicator_s", "fidelity"})
    if (s.contains(key)) out[key] = s[key];
  if (s.contains("cost") && s["cost"].contains("per_million_tokens_usd"))
    out["cost_per_million_tokens_usd"] = s["cost"]["per_million_tokens_usd"];
  return out;
}

nlohmann::json finalist_json(const Finalist& f) {
  nlohmann::json j = {{"reference", f.reference},
                      {"plan", f.candidate.choice.describe()},
                      {"workload", f.candidate.choice.workload_keys()},
                      {"placement", f.placement},
                      {"collective", f.collective},
                      {"status", f.status}};
  if (f.estimated) j["estimate"] = f.candidate.estimate.to_json();
  if (!f.error.empty()) j["error"] = f.error;
  if (f.ran) j["simulated"] = simulated_json(f.summary);
  if (f.estimate_error) j["estimate_error"] = *f.estimate_error;
  return j;
}

/// What holds the simulated iteration up most: the critical rank's largest part, and for exposed
/// communication the communicator that exposes most.
std::string simulated_limit(const nlohmann::json& s) {
  if (!s.contains("critical_rank_breakdown_s")) return "";
  std::string part;
  double most = -1;
  for (const auto& [k, v] : s["critical_rank_breakdown_s"].items())
    if (v.is_number() && v.get<double>() > most) most = v.get<double>(), part = k;
  if (part == "exposed_communication" &&
      s.contains("critical_rank_exposed_communication_by_communicator_s")) {
    std::string comm;
    double worst = -1;
    for (const auto& [k, v] : s["critical_rank_exposed_communication_by_communicator_s"].items())
      if (v.is_number() && v.get<double>() > worst) worst = v.get<double>(), comm = k;
    if (!comm.empty()) part += " (" + comm + ")";
  }
  return part;
}

std::string counts_text(const SearchResult& r) {
  const auto& t = r.tier1;
  std::ostringstream o;
  o << "tier 1: " << format_number(double(r.space_combinations), "%.0f") << " combinations, " << t.candidates
    << " whose degrees divide the units, layers and batch: " << t.refused << " refused by the plan's rules";
  if (!t.refused_by.empty()) {
    o << " (";
    bool first = true;
    for (const auto& [key, n] : t.refused_by) o << (first ? "" : ", ") << key << " " << n, first = false;
    o << ")";
  }
  o << ", " << t.too_large << " over the units' HBM, " << t.estimated << " estimated in "
    << format_number(t.seconds, "%.1f") << " s ("
    << format_number(double(t.candidates) / std::max(t.seconds, 1e-9), "%.0f") << " candidates/s; "
    << t.probes << " probe traces, " << t.patterns << " communication patterns)\n";
  if (t.budget_reached) o << "tier 1 stopped at the time budget: the candidates after it were not weighed\n";
  return o.str();
}

std::string finalist_row(const Finalist& f, size_t rank) {
  std::string row = column(f.reference ? "plan" : std::to_string(rank), 6);
  row += column(f.candidate.choice.describe() + (f.placement.empty() ? "" : " [" + f.placement + "]"), 78);
  row += column(f.estimated ? format_number(f.candidate.estimate.iteration_s) : "-", 10);
  if (!f.ran) return row + f.status + ": " + f.error + "\n";
  const nlohmann::json& s = f.summary;
  row += column(format_number(s.value("iteration_time_s", 0.0)), 10);
  row += column(f.estimate_error ? signed_percent(*f.estimate_error) : "-", 8);
  row += column(format_number(100 * s.value("mfu", 0.0), "%.1f%%"), 7);
  row += column(format_number(s.value("energy_per_token_j", 0.0)), 9);
  const bool priced = s.contains("cost") && s["cost"].contains("per_million_tokens_usd");
  row += column(priced ? format_number(s["cost"]["per_million_tokens_usd"].get<double>()) : "-", 9);
  return row + simulated_limit(s) + "\n";
}

std::string best_text(const SearchResult& r) {
  if (!r.best) return r.tier2 ? "no plan ran through the engine\n" : "";
  const Finalist& b = r.finalists[*r.best];
  std::ostringstream o;
  const double t = b.summary.value("iteration_time_s", 0.0);
  o << (b.reference ? "best: the scenario's own plan (no searched plan beats it), " : "best: ")
    << b.candidate.choice.describe() << " [" << b.placement << ", " << b.collective
    << "]: " << format_number(t) << " s per iteration, MFU "
    << format_number(100 * b.summary.value("mfu", 0.0), "%.1f%%") << ", "
    << format_number(b.summary.value("energy_per_token_j", 0.0)) << " J per token";
  if (b.summary.contains("cost") && b.summary["cost"].contains("per_million_tokens_usd"))
    o << ", $" << format_number(b.summary["cost"]["per_million_tokens_usd"].get<double>())
      << " per million tokens";
  o << "; limited by " << simulated_limit(b.summary) << "\n";
  for (const auto& f : r.finalists)
    if (f.reference && f.ran && t > 0 && !b.reference)
      o << "the scenario's plan: " << format_number(f.summary.value("iteration_time_s", 0.0))
        << " s per iteration, which the best plan cuts by "
        << format_number(100 * (1 - t / f.summary.value("iteration_time_s", 0.0)), "%.1f%%") << "\n";
  return o.str();
}

}  // namespace

nlohmann::json search_json(const SearchResult& r) {
  const auto& t = r.tier1;
  nlohmann::json space = {{"combinations", r.space_combinations},
                          {"candidates", t.candidates},
                          {"refused", t.refused},
                          {"refused_by", t.refused_by},
                          {"over_memory", t.too_large},
                          {"estimated", t.estimated},
                          {"tier1_seconds", t.seconds},
                          {"probe_traces", t.probes},
                          {"communication_patterns", t.patterns},
                          {"budget_reached", t.budget_reached}};
  nlohmann::json tier1 = nlohmann::json::array();
  for (size_t i = 0; i < t.ranked.size() && i < 64; ++i) tier1.push_back(candidate_json(t.ranked[i]));
  nlohmann::json finalists = nlohmann::json::array();
  for (const auto& f : r.finalists) finalists.push_back(finalist_json(f));
  nlohmann::json out = {
      {"scenario", r.scenario}, {"file", r.file}, {"objective", search::objectives().name(r.objective)},
      {"space", space},         {"tier1", tier1}, {"pareto", t.pareto},
      {"finalists", finalists}};
  if (r.best) out["best"] = *r.best;
  if (r.rank_correlation) out["rank_correlation"] = *r.rank_correlation;
  return out;
}

std::string search_report_text(const SearchResult& r) {
  std::ostringstream o;
  o << "search: " << r.scenario << " (" << r.file << "), objective " << search::objectives().name(r.objective)
    << "\n"
    << counts_text(r);
  if (!r.tier2) {
    o << "tier 1's best (estimates; no finalist ran through the engine):\n";
    for (size_t i = 0; i < r.tier1.ranked.size() && i < 16; ++i) {
      const Candidate& c = r.tier1.ranked[i];
      o << "  " << column(std::to_string(i + 1), 4) << column(c.choice.describe(), 78)
        << format_number(c.estimate.iteration_s) << " s, MFU "
        << format_number(100 * c.estimate.mfu, "%.1f%%") << ", "
        << core::display(core::Bytes(c.estimate.memory_bytes)) << " per rank, limit " << c.estimate.limit()
        << "\n";
    }
    return o.str();
  }
  o << "tier 2: " << r.finalists.size() << " plans through the engine";
  if (r.rank_correlation)
    o << "; rank correlation of tier 1 with the engine " << format_number(*r.rank_correlation, "%.2f");
  o << "\n\n"
    << column("rank", 6) << column("plan [placement]", 78) << column("est. s", 10) << column("sim. s", 10)
    << column("error", 8) << column("MFU", 7) << column("J/token", 9) << column("$/Mtok", 9) << "limit\n";
  size_t rank = 0;
  for (const auto& f : r.finalists) o << finalist_row(f, f.reference ? 0 : ++rank);
  o << "\n" << best_text(r);
  o << "tier 1 estimates with balanced expert routing and ranks placed in order; the engine's figures rank "
       "the finalists\n";
  return o.str();
}

std::string tier1_csv(const SearchResult& r) {
  std::ostringstream o;
  o << "rank,index,plan,iteration_time_s,mfu,tokens_per_second,memory_per_rank_bytes,energy_per_token_j,"
       "cost_per_million_tokens_usd,limit\n";
  size_t rank = 0;
  for (const auto& c : r.tier1.ranked) {
    const auto& e = c.estimate;
    o << ++rank << "," << c.index << ",\"" << c.choice.describe() << "\","
      << format_number(e.iteration_s, "%.9g") << "," << format_number(e.mfu, "%.6g") << ","
      << format_number(e.tokens_per_s, "%.9g") << "," << format_number(e.memory_bytes, "%.0f") << ","
      << format_number(e.energy_per_token_j, "%.9g") << ","
      << (e.cost_per_million_tokens_usd ? format_number(*e.cost_per_million_tokens_usd, "%.9g") : "") << ","
      << e.limit() << "\n";
  }
  return o.str();
}

}  // namespace zs::output
