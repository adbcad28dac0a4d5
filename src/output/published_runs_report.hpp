// Turns a published-runs validation into validation.json, validation.csv and the terminal report.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "scenario/published_runs.hpp"
#include "study/published_runs_study.hpp"

namespace zs::output {

/// Per run: hardware, GPUs, published and predicted seconds per iteration and the throughput error; per
/// predicted run, where its time went and the unaccounted seconds; the summary, the scaling series, the
/// acceptance and every run's source.
std::string published_runs_report(const scenario::PublishedRunsSpec& spec,
                                  const study::PublishedRunsStudy& study);
nlohmann::json published_runs_json(const scenario::PublishedRunsSpec& spec,
                                   const study::PublishedRunsStudy& study);
/// One line per run: name, hardware, gpus, published and predicted iteration time (s), error, unaccounted
/// time and the predicted breakdown (s); a run without a prediction leaves the fields from the predicted
/// time on empty.
std::string published_runs_csv(const study::PublishedRunsStudy& study);

}  // namespace zs::output
