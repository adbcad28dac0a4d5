// The whole Megatron-LM SC'21 validation (22 rows, about a minute in a release build): label "slow".
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

TEST_CASE(
    "Megatron-LM SC'21 Tables 1 and 2: every row within 15%, mean error at most 7%, the PTD-P vs ZeRO-3 "
    "trend "
    "right") {
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
  // The acceptance asked of this table: every row predicted and within 15%, the mean at most 7%.
  for (const auto& row : j["rows"]) {
    INFO(row.dump());
    REQUIRE(row.contains("error"));
    CHECK(std::abs(row["error"].get<double>()) < 0.15);
  }
  CHECK(sum["predicted"] == 22);
  CHECK(sum["within_row_tolerance"] == 22);
  CHECK(sum["passed"] == true);
  CHECK(r.code == 0);
}
