// Turns a scenario's simulation result into the summary JSON and the terminal report.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/simulation.hpp"
#include "scenario/scenario.hpp"

namespace zs::output {

/// What the results leave out or simplify, for this scenario's trace and this run; printed in the report
/// and listed in the summary.
std::vector<std::string> approximations(const scenario::Scenario& s, const engine::SimulationResult& r);
/// What in the scenario may not be what the user meant (a job on fewer units than the machine has);
/// printed in the report and listed in the summary, never an error.
std::vector<std::string> warnings(const scenario::Scenario& s);

/// The machine-readable results. Keys carry their unit as a suffix (_s, _flop, _flop_per_s).
/// Deterministic: the same inputs give byte-identical text from dump().
nlohmann::json summary_json(const scenario::Scenario& s, const engine::SimulationResult& r);

/// The top-level keys of summary_json that hold a scalar (a sweep table's metric columns of the same
/// name): a sweep axis may not take one of these names.
inline constexpr const char* kSummaryScalarKeys[] = {"zettasim_version",
                                                     "scenario",
                                                     "fidelity",
                                                     "iteration_time_s",
                                                     "critical_rank",
                                                     "model_flops_per_iteration_flop",
                                                     "peak_flop_rate_flop_per_s",
                                                     "mfu",
                                                     "hardware_flops_per_iteration_flop",
                                                     "hfu",
                                                     "model_flop_rate_per_rank_flop_per_s",
                                                     "hardware_flop_rate_per_rank_flop_per_s",
                                                     "tokens_per_second",
                                                     "energy_per_iteration_j",
                                                     "average_power_w",
                                                     "peak_power_w",
                                                     "energy_per_token_j",
                                                     "facility_energy_per_iteration_j",
                                                     "units",
                                                     "ranks",
                                                     "collapsed_not_applied",
                                                     "fidelity_reason"};

/// The scenario as resolved (every default filled in) with the zettasim version: config.json.
nlohmann::json config_json(const scenario::Scenario& s);

/// The human-readable report of one run.
std::string report_text(const scenario::Scenario& s, const engine::SimulationResult& r);

}  // namespace zs::output
