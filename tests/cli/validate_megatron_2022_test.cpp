// The Megatron-LM 2022 published-runs validation (Korthikanti et al.'s Table 5, 8 to 512 A100s): label
// "slow".
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

TEST_CASE(
    "validate megatron-2022: every run within the acceptance, and the speed-up of sequence parallelism "
    "with selective recomputation over full recomputation as published") {
  test::TempDir dir;
  const auto r = test::run_cli({"validate", "megatron-2022", "--out", dir.file("v"), "--quiet"});
  INFO(r.err);
  CHECK(r.code == 0);
  const auto j = nlohmann::json::parse(std::ifstream(dir.file("v/validation.json")));
  const auto& sum = j["summary"];
  CHECK(sum["rows"] == 8);
  CHECK(sum["predicted"] == 8);
  CHECK(sum["within_row_tolerance"] == 8);
  CHECK(sum["mean_absolute_error"].get<double>() <= 0.07);
  std::map<std::string, double> predicted;
  std::map<std::string, double> published;
  for (const auto& run : j["runs"]) {
    const auto name = run["name"].get<std::string>();
    predicted[name] = run["predicted_iteration_time_s"].get<double>();
    published[name] = run["published_iteration_time_s"].get<double>();
  }
  // Table 5's throughput increase of the paper's method: 29.0%, 31.8%, 29.7% and 32.1%. The simulated one
  // comes from the recomputed forward passes, the element-wise work sequence parallelism splits and its
  // collectives: 33.8% to 36.4% (measured 2026-11-29: full recomputation simulates 2-6% slow, the paper's
  // method 0-3%), so within 7 points; without either mechanism it would be 0.
  for (const std::string model :
       {"gpt-22b-a100-8", "gpt-175b-a100-64", "mt-nlg-530b-a100-280", "gpt-1t-a100-512"}) {
    INFO(model);
    const double published_gain = published[model + "-full"] / published[model + "-selective"] - 1;
    const double predicted_gain = predicted[model + "-full"] / predicted[model + "-selective"] - 1;
    CHECK(published_gain > 0.28);
    CHECK(std::abs(predicted_gain - published_gain) < 0.07);
  }
}
