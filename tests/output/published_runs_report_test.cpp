// Published-runs outputs: each prediction's breakdown and unaccounted time, and a run without a prediction.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "output/published_runs_report.hpp"

using namespace zs;

namespace {

/// Two runs of 10 s published: one predicted at 8 s (6 compute, 1 exposed, 0.5 bubble, 0.25 stall, 0.25
/// idle) with `layers` per stage and `micro_batches` per replica (0: not a Megatron plan), one refused.
study::PublishedRunsStudy two_runs(double layers = 0, uint32_t micro_batches = 0, double model_flops = 0) {
  scenario::PublishedRun a{"a", "a.json", 10.0, "H100 SXM", false, "src a"};
  scenario::PublishedRun b{"b", "b.json", 10.0, "H100 SXM", false, "src b"};
  study::PublishedRunsStudy study;
  study.runs.push_back(
      {a, 8.0, 1024, 1e6, "", {6.0, 1.0, 0.5, 0.25, 0.125, 0.125}, layers, micro_batches, model_flops});
  study.runs.push_back({b, std::nullopt, 0, 0.0, "does not fit", {}, layers, micro_batches, model_flops});
  return study;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// The lines of the report's table that starts with `heading`, from the heading on (heading, column
/// names, then a row per run and a blank line); fails the test when there is no such table.
std::vector<std::string> table_lines(const std::string& report, const std::string& heading) {
  const auto table = report.find(heading);
  REQUIRE(table != std::string::npos);
  auto rows = lines(report.substr(table));
  REQUIRE(rows.size() >= 4);
  return rows;
}

/// A row's cells, split at blanks.
std::vector<std::string> words(const std::string& row) {
  std::istringstream in(row);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

TEST_CASE(
    "validation.csv: a predicted run's breakdown and unaccounted seconds, a refused run's fields empty") {
  const auto rows = lines(output::published_runs_csv(two_runs()));
  REQUIRE(rows.size() == 3);
  CHECK(rows[1] == "a,H100 SXM,1024,10,8,0.25,2,6,1,0.5,0.25,0.125,0.125");
  CHECK(rows[2] == "b,H100 SXM,0,10,,,,,,,,,");
  for (const auto& row : rows) CHECK(std::count(row.begin(), row.end(), ',') == 12);
}

TEST_CASE("validation.json and the report: the breakdown for predicted runs only") {
  scenario::PublishedRunsSpec spec;
  spec.name = "t";
  const auto study = two_runs();
  const auto j = output::published_runs_json(spec, study);
  CHECK(j["runs"][0]["unaccounted_s"].get<double>() == doctest::Approx(2.0));
  CHECK(j["runs"][0]["predicted_breakdown_s"]["pipeline_bubble"].get<double>() == doctest::Approx(0.5));
  CHECK_FALSE(j["runs"][1].contains("predicted_breakdown_s"));
  CHECK(j["runs"][1]["failure"] == "does not fit");
  const std::string report = output::published_runs_report(spec, study);
  const auto table = report.find("where the predicted time goes");
  REQUIRE(table != std::string::npos);
  const std::string after = report.substr(table);
  CHECK(after.find("+2\n") != std::string::npos);  // a's unaccounted seconds
  CHECK(after.find("\nb ") == std::string::npos);  // b has no row there
}

TEST_CASE("the report's per-layer table: seconds over layers per stage times micro-batches, in ms") {
  scenario::PublishedRunsSpec spec;
  spec.name = "t";
  // 4 layers per stage x 5 micro-batches: 6 s of compute is 300 ms per layer and micro-batch, the 2
  // unaccounted seconds 100 ms.
  const auto planned = two_runs(4, 5);
  const auto rows = table_lines(output::published_runs_report(spec, planned),
                                "per layer and micro-batch on the critical rank, ms");
  // name, layers, micro-batches, compute, unaccounted
  CHECK(words(rows[2]) == std::vector<std::string>{"a", "4", "5", "300", "+100"});
  CHECK(rows[3].empty());  // b, refused, has no row
  const auto j = output::published_runs_json(spec, planned);
  CHECK(j["runs"][0]["layers_per_stage"].get<double>() == 4.0);
  CHECK(j["runs"][0]["micro_batches_per_replica"] == 5);
  // Without a Megatron plan the table and the fields are left out.
  const auto unplanned = two_runs();
  CHECK(output::published_runs_report(spec, unplanned).find("per layer and micro-batch") ==
        std::string::npos);
  CHECK_FALSE(output::published_runs_json(spec, unplanned)["runs"][0].contains("layers_per_stage"));
}

TEST_CASE(
    "the report's model FLOP rates: the model's FLOPs per GPU over the published, predicted and compute "
    "seconds") {
  scenario::PublishedRunsSpec spec;
  spec.name = "t";
  // 1024 GPUs, 6.144e18 FLOP per iteration: 6e15 FLOP per GPU, over 10 s published 600 TFLOP/s, over 8 s
  // predicted 750, over 6 s of compute 1000.
  const auto study = two_runs(0, 0, 6.144e18);
  const auto rows = table_lines(output::published_runs_report(spec, study), "model TFLOP/s per GPU");
  // name, published, predicted, while computing
  CHECK(words(rows[2]) == std::vector<std::string>{"a", "600", "750", "1000"});
  CHECK(rows[3].empty());  // b has no prediction, so no row
  CHECK(output::published_runs_json(spec, study)["runs"][0]["model_flops_per_iteration_flop"] == 6.144e18);
  // Without the model's FLOPs (a workload that gives none) there is no table.
  CHECK(output::published_runs_report(spec, two_runs()).find("model TFLOP/s") == std::string::npos);
}
