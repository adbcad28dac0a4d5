// Turns a validation study into validation.json, validation.csv and the terminal report.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario/megatron_validation.hpp"
#include "study/validation_study.hpp"

namespace zs::output {

/// Predicted against published TFLOP/s per GPU per row, the error, the summary and the acceptance.
std::string validation_report(const scenario::ValidationSpec& spec, const study::ValidationStudy& validation);
nlohmann::json validation_json(const scenario::ValidationSpec& spec,
                               const study::ValidationStudy& validation);
/// The counts of an error summary with the tolerances they were taken against (the "summary" object of
/// validation.json, without what is particular to one table).
nlohmann::json error_summary_json(const scenario::ErrorSummary& s, double row_tolerance,
                                  double mean_tolerance);
/// The what-if values --set sets, one line each ("set in every WHAT (what-if, not as published): ..."),
/// WHAT "run" or "row"; empty when there are none.
std::string overrides_lines(const std::vector<scenario::RunOverride>& overrides, const std::string& what);
/// The same as validation.json's "overrides": [{"pointer", "value"}, ...].
nlohmann::json overrides_json(const std::vector<scenario::RunOverride>& overrides);
/// One line per row: name, gpus, published and predicted TFLOP/s per GPU, iteration time (s), error.
std::string validation_csv(const study::ValidationStudy& validation);

}  // namespace zs::output
