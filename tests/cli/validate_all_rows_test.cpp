// The whole Megatron-LM SC'21 validation (22 rows, about a minute in a release build): label "slow".
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

TEST_CASE(
    "Megatron-LM SC'21 Tables 1 and 2: mean error at most 7%, the PTD-P vs ZeRO-3 trend right, every row "
    "within 15% but the 530B ZeRO-3 one on 1,120 GPUs") {
  test::TempDir dir;
  const auto r = test::run_cli({"validate", "--out", dir.file("v"), "--quiet"});
  INFO(r.err);
  const auto j = nlohmann::json::parse(std::ifstream(dir.file("v/validation.json")));
  const auto& sum = j["summary"];
  REQUIRE(sum["rows"] == 22);
  // The exit code says whether the file's acceptance holds.
  CHECK(r.code == (sum["passed"].get<bool>() ? 0 : 1));
  CHECK(sum["mean_absolute_error"].get<double>() <= 0.07);
  for (const auto& t : sum["table2_trends"]) {
    INFO(t.dump());
    CHECK(t["gpu_counts_compared"].get<int>() >= 2);
    CHECK(t["holds"] == true);
  }
  // The acceptance asks every row within 15%. With NCCL's per-step and per-collective latencies charged
  // (the default), the 530B ZeRO-3 row on 1,120 GPUs, whose rings cross each server on one NIC, comes out
  // 15.5% slow (docs/validation.md): the acceptance is not met by that row alone.
  const std::string outlier = "table2-529.6B-zero-3-1120gpu";
  for (const auto& row : j["rows"]) {
    INFO(row.dump());
    REQUIRE(row.contains("error"));
    const double error = std::abs(row["error"].get<double>());
    if (row["name"] == outlier)
      CHECK(error < 0.16);
    else
      CHECK(error < 0.15);
  }
  CHECK(sum["predicted"] == 22);
  CHECK(sum["within_row_tolerance"] == 21);
  CHECK(sum["passed"] == false);
  CHECK(r.code == 1);
}
