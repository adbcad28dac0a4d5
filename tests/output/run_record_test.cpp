// The run report and summary: the fidelity line, and a collective benchmark's bandwidths.
#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <string>

#include "core/file_source.hpp"
#include "output/run_record.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/hand_calculation.hpp"
#include "support/input_error_of.hpp"
#include "support/scenario_files.hpp"
#include "support/source_file.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

TEST_CASE("the collapsed report names the merged axes, and says so when none was merged") {
  core::DiskFileSource files;
  auto s = scenario::ScenarioLoader(files).load(test::source_file("scenarios/hgx-3d-parallel.json"));
  s.fidelity = core::Fidelity::kCollapsed;
  auto r = study::simulate_scenario(s);
  REQUIRE(r.replay.fidelity == core::Fidelity::kCollapsed);
  CHECK(output::report_text(s, r).find("(axes dp, tp merged)") != std::string::npos);
  r.replay.collapsed_axes.clear();  // as when the mesh has no axis but its roles' and its peers'
  const std::string report = output::report_text(s, r);
  CHECK(report.find("(no axis merged: no two ranks are symmetric)") != std::string::npos);
  CHECK(report.find("(axes  merged)") == std::string::npos);
}

TEST_CASE("a collective benchmark's summary gives nccl-tests' bandwidths, from the ring's closed form") {
  test::TempDir dir;
  test::ScenarioFiles files;
  files.scenario["workload"] = {{"generator", "collective"}, {"collective", "all-reduce"}, {"size", "64MiB"}};
  core::DiskFileSource disk;
  const auto s = scenario::ScenarioLoader(disk).load(files.write(dir));
  REQUIRE(s.collective_benchmark);
  const auto r = study::simulate_scenario(s);
  const double bytes = 64.0 * 1024 * 1024;
  // 4 ranks on 100 GB/s links of 1 us to one switch: t = 2(n-1) x 2 us + 2(n-1)/n x S / B.
  const double t = test::HandCalculation::all_reduce(bytes);
  CHECK(r.replay.iteration_time.value() == doctest::Approx(t).epsilon(0.01));
  const auto summary = output::summary_json(s, r);
  const auto& b = summary["collective_benchmark"];
  CHECK(b["collective"] == "all-reduce");
  CHECK(b["ranks"] == 4);
  CHECK(b["size_B"] == bytes);
  CHECK(b["bus_factor"] == 1.5);
  const double seconds = r.replay.iteration_time.value();
  CHECK(b["algorithm_bandwidth_B_per_s"].get<double>() == doctest::Approx(bytes / seconds));
  CHECK(b["bus_bandwidth_B_per_s"].get<double>() == doctest::Approx(1.5 * bytes / seconds));
  // Near the links' 100 GB/s: the latency term is 12 us of about 1 ms.
  CHECK(b["bus_bandwidth_B_per_s"].get<double>() == doctest::Approx(100e9).epsilon(0.02));
  const std::string report = output::report_text(s, r);
  CHECK(report.find("bus bandwidth") != std::string::npos);
  CHECK(report.find("model FLOPs utilization") == std::string::npos);
  // The resolved plan names its ranks (left out: every unit) and the bus factor; there is no model.
  CHECK(s.resolved["workload"]["ranks"] == 4);
  CHECK(s.resolved["derived"]["workload"]["bus_factor"] == 1.5);
  CHECK_FALSE(s.resolved["workload"].contains("model"));
}

TEST_CASE("a training generator needs a model, and the collective benchmark refuses one") {
  test::TempDir dir;
  test::ScenarioFiles files;
  core::DiskFileSource disk;
  files.scenario["workload"].erase("model");
  CHECK(test::input_error_of([&] {
          scenario::ScenarioLoader(disk).load(files.write(dir));
        }).find("/workload/model: the ideal-data-parallel generator needs a transformer model file") !=
        std::string::npos);
  files.scenario["workload"] = {{"generator", "collective"},
                                {"collective", "all-reduce"},
                                {"size", "1MiB"},
                                {"model", "workloads/small.json"}};
  CHECK(test::input_error_of([&] {
          scenario::ScenarioLoader(disk).load(files.write(dir));
        }).find("/workload/model: a collective benchmark has no model") != std::string::npos);
  files.scenario["workload"] = {
      {"generator", "collective"}, {"collective", "all-reduce"}, {"size", "1MiB"}, {"ranks", 8}};
  CHECK(test::input_error_of([&] {
          scenario::ScenarioLoader(disk).load(files.write(dir));
        }).find("needs 8 units") != std::string::npos);
  files.scenario["workload"] = {{"generator", "collective"}, {"collective", "all-reduce"}, {"size", "1TiB"}};
  CHECK(test::input_error_of([&] {
          scenario::ScenarioLoader(disk).load(files.write(dir));
        }).find("collective buffers (2 TiB") != std::string::npos);
}

TEST_CASE("every top-level scalar of summary.json is listed as a name sweep axes may not take") {
  core::DiskFileSource files;
  auto s = scenario::ScenarioLoader(files).load(test::source_file("scenarios/hgx-3d-parallel.json"));
  auto r = study::simulate_scenario(s);
  r.collapsed_ran_exact = true;  // the keys only some runs write
  r.fidelity_reason = "a reason";
  const nlohmann::json summary = output::summary_json(s, r);
  for (const auto& [key, value] : summary.items()) {
    if (value.is_object() || value.is_array()) continue;
    const std::string name = key;  // a structured binding cannot be captured (clang 14)
    CAPTURE(name);
    CHECK(std::find(std::begin(output::kSummaryScalarKeys), std::end(output::kSummaryScalarKeys), key) !=
          std::end(output::kSummaryScalarKeys));
  }
}
