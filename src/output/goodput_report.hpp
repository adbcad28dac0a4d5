// Turns a goodput study into goodput.json and the terminal report.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "scenario/scenario.hpp"
#include "study/goodput_study.hpp"

namespace zs::output {

/// The machine-readable results; keys carry their unit as a suffix (_s, _bytes). Deterministic.
nlohmann::json goodput_json(const scenario::Scenario& s, const study::GoodputStudy& g);

/// The human-readable report, its approximations last; `file` is the scenario file as the user named it.
std::string goodput_report(const scenario::Scenario& s, const std::string& file,
                           const study::GoodputStudy& g);

}  // namespace zs::output
