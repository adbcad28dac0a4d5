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

/// The scenario as resolved (every default filled in) with the zettasim version: config.json.
nlohmann::json config_json(const scenario::Scenario& s);

/// The human-readable report of one run.
std::string report_text(const scenario::Scenario& s, const engine::SimulationResult& r);

}  // namespace zs::output
