// `zettasim validate` on one row, its --set what-ifs, and its bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

TEST_CASE("validate runs a row through the scenario path and reports predicted, published and error") {
  test::TempDir dir;
  const auto r = test::run_cli({"validate", "--rows", "table1-1.7B", "--out", dir.file("v"), "--quiet"});
  INFO(r.err);
  // One Table 1 row and no Table 2 trend to check: the acceptance is the row's and the mean's.
  CHECK(r.code == 0);
  const auto j = nlohmann::json::parse(std::ifstream(dir.file("v/validation.json")));
  REQUIRE(j["rows"].size() == 1);
  const auto& row = j["rows"][0];
  CHECK(row["name"] == "table1-1.7B-ptd-p-32gpu");
  CHECK(row["published_tflops_per_gpu"] == 137);
  // Within 15% of the published 137 TFLOP/s; the number itself is in docs/validation.md.
  CHECK(row["predicted_tflops_per_gpu"].get<double>() > 137 * 0.85);
  CHECK(row["predicted_tflops_per_gpu"].get<double>() < 137 * 1.15);
  CHECK(row["error"].get<double>() ==
        doctest::Approx(row["predicted_tflops_per_gpu"].get<double>() / 137 - 1));
  CHECK(j["summary"]["passed"] == true);
  std::ifstream report(dir.file("v/report.txt"));
  const std::string text((std::istreambuf_iterator<char>(report)), {});
  CHECK(text.find("table1-1.7B-ptd-p-32gpu") != std::string::npos);
  CHECK(text.find("acceptance: met") != std::string::npos);
  std::ifstream csv(dir.file("v/validation.csv"));
  std::string header;
  std::getline(csv, header);
  CHECK(header == "name,gpus,published_tflops_per_gpu,predicted_tflops_per_gpu,iteration_time_s,error");
}

TEST_CASE("validate: bad input exits 2 with one line naming what is wrong") {
  test::TempDir dir;
  auto missing = test::run_cli({"validate", dir.file("none.json"), "--out", dir.file("v")});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("none.json: cannot read file") != std::string::npos);
  auto no_rows = test::run_cli({"validate", "--rows", "table9", "--out", dir.file("v")});
  CHECK(no_rows.code == 2);
  CHECK(no_rows.err.find("--rows: no row name contains \"table9\"") != std::string::npos);
  const std::string bad = dir.write("bad.json", R"({"kind": "validation", "name": "x", "description": "x",
      "rows": "rows.csv", "machine": {"units_per_server": 8, "models": {"gpu": "a", "nvlink": "b", "ib": "c"}},
      "workload": {"seq_len": 2048, "vocab": 51200, "dtype": "fp16", "recompute": "full"},
      "fidelity": "collapsed", "acceptance": {"row_error": 0.15, "mean_absolute_error": 0.08}, "extra": 1})");
  auto unknown = test::run_cli({"validate", bad, "--out", dir.file("v")});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("bad.json") != std::string::npos);
  CHECK(unknown.err.find("extra") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("v")));
}

TEST_CASE("validate at-scale runs a published run's scenario and compares seconds per iteration") {
  test::TempDir dir;
  const auto r = test::run_cli(
      {"validate", "at-scale", "--rows", "gpt3-175b-h100-1024", "--out", dir.file("v"), "--quiet"});
  INFO(r.err);
  const auto j = nlohmann::json::parse(std::ifstream(dir.file("v/validation.json")));
  REQUIRE(j["runs"].size() == 1);
  const auto& run = j["runs"][0];
  CHECK(run["gpus"] == 1024);
  CHECK(run["hardware"] == "H100 SXM");
  CHECK(run["published_iteration_time_s"].get<double>() == doctest::Approx(8.453));
  // 2,048 sequences of 2,048 tokens.
  CHECK(run["tokens_per_iteration"].get<double>() == doctest::Approx(2048.0 * 2048));
  const double predicted = run["predicted_iteration_time_s"].get<double>();
  CHECK(run["error"].get<double>() == doctest::Approx(8.453 / predicted - 1));
  CHECK(run["unaccounted_s"].get<double>() == doctest::Approx(8.453 - predicted));
  // The critical rank's six parts partition the iteration; the recipe hides most communication.
  double parts = 0;
  for (const auto& [part, seconds] : run["predicted_breakdown_s"].items()) parts += seconds.get<double>();
  CHECK(run["predicted_breakdown_s"].size() == 6);
  CHECK(parts == doctest::Approx(predicted).epsilon(1e-9));
  CHECK(run["predicted_breakdown_s"]["compute"].get<double>() > 0.9 * predicted);
  // The series over 1,024 and 2,048 GPUs is left out with one of its runs.
  CHECK(j["summary"]["scaling"].empty());
  CHECK(r.code == (j["summary"]["passed"].get<bool>() ? 0 : 1));
  std::ifstream csv(dir.file("v/validation.csv"));
  std::string header;
  std::getline(csv, header);
  CHECK(header ==
        "name,hardware,gpus,published_iteration_time_s,predicted_iteration_time_s,error,"
        "unaccounted_s,compute_s,exposed_communication_s,pipeline_bubble_s,memory_stall_s,collective_wait_s,"
        "idle_s");
  std::string row;
  std::getline(csv, row);
  CHECK(std::count(row.begin(), row.end(), ',') == 12);
  const std::string report = test::read_text(dir.file("v/report.txt"));
  CHECK(report.find("where the predicted time goes") != std::string::npos);
  auto unknown = test::run_cli({"validate", "at-scale", "--rows", "gpt-5", "--out", dir.file("w")});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("--rows: no run name contains \"gpt-5\"") != std::string::npos);
}

TEST_CASE("validate: a file of another kind is refused with exit 2 naming both validation kinds") {
  test::TempDir dir;
  const std::string other = dir.write("other.json", R"({"kind": "scenario", "name": "x"})");
  const auto r = test::run_cli({"validate", other, "--out", dir.file("v")});
  CHECK(r.code == 2);
  CHECK(r.err.find("other.json: /kind: expected \"validation\" or \"published-runs\"") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("v")));
}

namespace {
/// `zettasim validate FILE --rows ROWS` with `set` (each POINTER=VALUE passed as --set) into `out`: the
/// first run's or row's `seconds_key` in validation.json (each override stated there), and the report.
std::pair<double, std::string> validated(test::TempDir& dir, const std::string& out,
                                         const std::vector<std::string>& file_and_rows,
                                         const std::vector<std::string>& set, const std::string& list,
                                         const std::string& seconds_key) {
  std::vector<std::string> args = {"validate"};
  args.insert(args.end(), file_and_rows.begin(), file_and_rows.end());
  args.insert(args.end(), {"--out", dir.file(out), "--quiet"});
  for (const auto& s : set) args.insert(args.end(), {"--set", s});
  const auto r = test::run_cli(args);
  INFO(r.err);
  REQUIRE(r.code != 2);
  const auto j = nlohmann::json::parse(std::ifstream(dir.file(out + "/validation.json")));
  CHECK(j["overrides"].size() == set.size());
  std::ifstream report(dir.file(out + "/report.txt"));
  return {j[list][0][seconds_key].get<double>(), std::string((std::istreambuf_iterator<char>(report)), {})};
}

/// The predicted seconds per iteration of at-scale's Nemotron-4 15B run on 1,024 GPUs, with `set`, and the
/// report.
std::pair<double, std::string> nemotron_with(test::TempDir& dir, const std::string& out,
                                             const std::vector<std::string>& set) {
  return validated(dir, out, {"at-scale", "--rows", "nemotron4-15b-h100-1024"}, set, "runs",
                   "predicted_iteration_time_s");
}
}  // namespace

TEST_CASE("validate --set sets a parameter in every run's scenario, and the outputs say so") {
  test::TempDir dir;
  const auto [as_published, plain] = nemotron_with(dir, "a", {});
  // The recipe overlaps tensor-parallel communication: setting what the file sets changes nothing, and
  // switching it off exposes the exchanges.
  const auto [same, same_report] = nemotron_with(dir, "b", {"/workload/overlap_tensor_communication=true"});
  const auto [exposed, report] = nemotron_with(dir, "c", {"/workload/overlap_tensor_communication=false"});
  CHECK(same == as_published);
  CHECK(exposed > as_published * 1.05);
  CHECK(plain.find("set in every run") == std::string::npos);
  CHECK(report.find("set in every run (what-if, not as published): /workload/overlap_tensor_communication "
                    "= false") != std::string::npos);
  // A model parameter through the scenario's include, and a policy given as an object.
  const auto [no_interference, r1] = nemotron_with(dir, "d", {"/machine/models/gpu/overlap_slowdown=0"});
  CHECK(no_interference < as_published);
  const auto [no_library_latency, r2] =
      nemotron_with(dir, "e", {R"(/policies/collective={"name": "ring", "step_latency": false})"});
  CHECK(no_library_latency < as_published);
}

TEST_CASE("validate --set: a pointer that leads nowhere, or a value the run refuses, exits 2 naming --set") {
  test::TempDir dir;
  auto run = [&](const std::string& set, const std::string& file = "at-scale") {
    return test::run_cli(
        {"validate", file, "--rows", "nemotron4-15b-h100-1024", "--set", set, "--out", dir.file("v")});
  };
  const auto nowhere = run("/workload/no_such_key=1");
  CHECK(nowhere.code == 2);
  CHECK(nowhere.err.find("--set: /workload/no_such_key: \"/workload/no_such_key\" names nothing in "
                         "the resolved configuration") != std::string::npos);
  const auto refused = run("/workload/fp8_amax_reduction=true");
  CHECK(refused.code == 2);
  CHECK(refused.err.find("--set: run nemotron4-15b-h100-1024 with what --set sets: ") != std::string::npos);
  CHECK(refused.err.find("/workload/fp8_amax_reduction: amax reduction is Transformer Engine's") !=
        std::string::npos);
  const auto malformed = run("overlap_slowdown=0");
  CHECK(malformed.code == 2);
  CHECK(malformed.err.find("--set: expected POINTER=VALUE") != std::string::npos);
  const auto twice = test::run_cli({"validate", "at-scale", "--set", "/policies/collective=ring", "--set",
                                    "/policies/collective=tree", "--out", dir.file("v")});
  CHECK(twice.code == 2);
  CHECK(twice.err ==
        "zettasim: error: --set: /policies/collective: set twice (\"ring\", then \"tree\"): give "
        "each parameter one --set\n");
  const auto long_value = run("/policies/collective=" + std::string(100000, 'x'));
  CHECK(long_value.code == 2);
  CHECK(long_value.err.size() < 2500);
  CHECK(long_value.err.find("characters left out") != std::string::npos);
  const auto table = test::run_cli(
      {"validate", "--rows", "table1-1.7B", "--set", "/workload/no_such_key=1", "--out", dir.file("v")});
  CHECK(table.code == 2);
  CHECK(table.err.find("(row table1-1.7B-ptd-p-32gpu)") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("v")));
}

TEST_CASE("validate --set sets a parameter in every SC'21 row's scenario, and the outputs say so") {
  test::TempDir dir;
  auto row = [&](const std::string& out, const std::vector<std::string>& set) {
    return validated(dir, out, {"--rows", "table1-1.7B"}, set, "rows", "iteration_time_s");
  };
  const auto [as_composed, plain] = row("a", {});
  // The 32 GPUs' data-parallel rings cross 4 servers: NCCL's step and base latencies cost time.
  const auto [links_only, report] =
      row("b", {R"(/policies/collective={"name": "ring", "step_latency": false})"});
  CHECK(links_only < as_composed);
  CHECK(plain.find("set in every row") == std::string::npos);
  CHECK(report.find("set in every row (what-if, not as published): /policies/collective = ") !=
        std::string::npos);
  // A model parameter through the row's machine: the A100 model's interference.
  const auto [same, same_report] = row("c", {"/machine/models/gpu/overlap_slowdown=0.19"});
  CHECK(same == as_composed);
}
