// The published-runs validation file: the shipped runs, the scaling efficiency, the summary and bad input.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "scenario/published_runs.hpp"
#include "scenario/scenario_loader.hpp"

using namespace zs;
using scenario::PublishedRunResult;
using scenario::PublishedRunsSpec;

namespace {
const std::string kSpec = std::string(ZS_SOURCE_DIR) + "/scenarios/validation/at-scale.json";

PublishedRunsSpec shipped() {
  core::DiskFileSource disk;
  return PublishedRunsSpec::load(disk, kSpec);
}

/// A result for `run` predicted at `predicted_s`, of `gpus` ranks training `tokens` per iteration.
PublishedRunResult result(const scenario::PublishedRun& run, double predicted_s, uint64_t gpus,
                          double tokens) {
  return {run, predicted_s, gpus, tokens, "", {}, 0.0, 0};
}

/// The error a published-runs file with `runs` (a JSON array) and `scaling` gives, or "no error".
std::string load_error(const std::string& runs, const std::string& scaling = "") {
  const std::string path = "/v/spec.json";
  const std::string text = R"({"kind": "published-runs", "name": "t", "description": "d", "mechanisms": "m",
      "acceptance": {"row_error": 0.15, "mean_absolute_error": 0.1, "scaling_points": 5}, "runs": )" +
                           runs + (scaling.empty() ? "" : ", \"scaling\": " + scaling) + "}";
  core::BundledFileSource files(std::map<std::string, std::string>{{path, text}});
  try {
    PublishedRunsSpec::load(files, path);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "no error";
}

const char* kRun =
    R"({"name": "a", "scenario": "a.json", "iteration_time": "2s", "hardware": "H100", "source": "s"})";
}  // namespace

TEST_CASE("the shipped published runs: at least 10 runs on at least 1,024 GPUs, two generations, an MoE") {
  const auto spec = shipped();
  CHECK(spec.runs.size() >= 10);
  CHECK(spec.row_tolerance == doctest::Approx(0.15));
  CHECK(spec.mean_tolerance == doctest::Approx(0.10));
  CHECK(spec.scaling_tolerance == doctest::Approx(0.05));
  std::set<std::string> hardware;
  bool moe = false;
  core::DiskFileSource disk;
  for (const auto& run : spec.runs) {
    INFO(run.name);
    hardware.insert(run.hardware);
    CHECK_FALSE(run.source.empty());
    // Each scenario loads as shipped, and the job it builds is the run's size.
    const auto s = scenario::ScenarioLoader(disk).load(run.scenario);
    CHECK(s.trace.mesh.size() >= 1024);
    const bool routed = std::any_of(s.trace.mesh.axes().begin(), s.trace.mesh.axes().end(),
                                    [](const auto& a) { return a.name == "ep"; });
    CHECK(routed == run.moe);
    moe = moe || run.moe;
  }
  CHECK(hardware.size() >= 2);
  CHECK(moe);
}

TEST_CASE("scaling efficiency is per-GPU throughput at the last run over the first") {
  // Weak scaling: twice the GPUs and tokens in the same time keep all of it.
  CHECK(scenario::scaling_efficiency(1000, 10, 100, 2000, 10, 200) == doctest::Approx(1.0));
  // Strong scaling, MT-NLG's published figures: the same batch in 60.1 s on 2,240 GPUs and 44.4 s on 3,360.
  CHECK(scenario::scaling_efficiency(1920, 60.1, 2240, 1920, 44.4, 3360) ==
        doctest::Approx(60.1 * 2240 / (44.4 * 3360)));
  CHECK(scenario::scaling_efficiency(1920, 60.1, 2240, 1920, 44.4, 3360) ==
        doctest::Approx(0.9024).epsilon(1e-4));
}

TEST_CASE("the summary: throughput errors, the mean, and each scaling series against its tolerance") {
  PublishedRunsSpec spec;
  spec.row_tolerance = 0.15;
  spec.mean_tolerance = 0.10;
  spec.scaling_tolerance = 0.05;
  const scenario::PublishedRun a{"a", "a.json", 10.0, "H100", false, "s"},
      b{"b", "b.json", 10.0, "H100", false, "s"};
  spec.runs = {a, b};
  spec.scaling = {{"weak", {"a", "b"}}};
  // a predicted 8 s: 25% faster (outside); b 10.5 s: 4.8% slower. b at twice a's GPUs and tokens.
  std::vector<PublishedRunResult> results = {result(a, 8.0, 1024, 1e6), result(b, 10.5, 2048, 2e6)};
  CHECK(results[0].error() == doctest::Approx(0.25));
  CHECK(results[1].error() == doctest::Approx(10.0 / 10.5 - 1));
  auto sum = scenario::summarize(spec, results);
  CHECK(sum.within == 1);
  CHECK(sum.mean_abs_error == doctest::Approx((0.25 + (1 - 10.0 / 10.5)) / 2));
  CHECK(sum.max_abs_error == doctest::Approx(0.25));
  REQUIRE(sum.scaling.size() == 1);
  CHECK(*sum.scaling[0].published == doctest::Approx(1.0));
  CHECK(*sum.scaling[0].predicted == doctest::Approx(8.0 / 10.5));  // 23.8 points off
  CHECK_FALSE(sum.scaling[0].holds);
  CHECK_FALSE(sum.passed);
  // Both within and scaling within 5 points: passed.
  results = {result(a, 10.2, 1024, 1e6), result(b, 10.4, 2048, 2e6)};
  sum = scenario::summarize(spec, results);
  CHECK(sum.scaling[0].holds);
  CHECK(sum.passed);
  // A run without a prediction leaves its series unchecked and the acceptance unmet.
  results[1].predicted_iteration_s.reset();
  sum = scenario::summarize(spec, results);
  CHECK(sum.scaling[0].published.has_value());
  CHECK_FALSE(sum.scaling[0].predicted.has_value());
  CHECK_FALSE(sum.passed);
}

TEST_CASE("a bad published-runs file names the file and the JSON path") {
  CHECK(load_error("[]").find("/v/spec.json: /runs: expected a non-empty array of runs") !=
        std::string::npos);
  CHECK(load_error("[" + std::string(kRun) + "]") == "no error");
  const std::string no_unit =
      R"([{"name": "a", "scenario": "a.json", "iteration_time": "2", "hardware": "H100", "source": "s"}])";
  CHECK(load_error(no_unit).find("/runs/0/iteration_time") != std::string::npos);
  CHECK(load_error("[" + std::string(kRun) + ", " + kRun + "]")
            .find("/runs/1/name: another run is named \"a\"") != std::string::npos);
  const std::string extra =
      R"([{"name": "a", "scenario": "a.json", "iteration_time": "2s", "hardware": "H100", "source": "s", "gpus": 8}])";
  CHECK(load_error(extra).find("/runs/0") != std::string::npos);
  CHECK(load_error(extra).find("gpus") != std::string::npos);
  const std::string comma =
      R"([{"name": "a", "scenario": "a.json", "iteration_time": "2s", "hardware": "H100, 80GB", "source": "s"}])";
  CHECK(load_error(comma).find("/runs/0/hardware: expected a label without commas") != std::string::npos);
  CHECK(load_error("[" + std::string(kRun) + "]", R"([{"name": "s", "runs": ["a", "b"]}])")
            .find("/scaling/0/runs/1: expected the name of a run of this file, got \"b\"") !=
        std::string::npos);
  CHECK(load_error("[" + std::string(kRun) + "]", R"([{"name": "s", "runs": ["a"]}])")
            .find("/scaling/0/runs: expected at least two runs") != std::string::npos);
}
