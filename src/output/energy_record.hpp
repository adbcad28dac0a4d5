// The energy and cost figures of one run: the whole machine's energy by part, per token, with the
// facility's overhead, and what the iteration, a million tokens and the training run cost.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/simulation.hpp"
#include "scenario/scenario.hpp"

namespace zs::output {

/// One line of the report: a label, its value, a note.
struct ReportLine {
  std::string label;
  std::string value;
  std::string note;
};

/// The summary.json keys of the run's energy and cost (energy_per_iteration_j, energy_by_part_j,
/// average_power_w, peak_power_w, energy_per_token_j, and with a cost section
/// facility_energy_per_iteration_j and cost), as one object to merge into the summary.
nlohmann::json energy_json(const scenario::Scenario& s, const engine::SimulationResult& r);

/// The report's lines for the same figures.
std::vector<ReportLine> energy_report_lines(const scenario::Scenario& s, const engine::SimulationResult& r);

/// US dollars with four significant digits and a k, M or B scale: "$1.234 M".
std::string display_usd(double usd);

}  // namespace zs::output
