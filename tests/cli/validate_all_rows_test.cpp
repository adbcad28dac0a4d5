// The whole Megatron-LM SC'21 validation (22 rows, about a minute in a release build): label "slow".
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

TEST_CASE("Megatron-LM SC'21 Tables 1 and 2: mean error under 8%, the PTD-P vs ZeRO-3 trend right") {
  test::TempDir dir;
  const auto r = test::run_cli({"validate", "--out", dir.file("v"), "--quiet"});
  INFO(r.err);
  const auto j = nlohmann::json::parse(std::ifstream(dir.file("v/validation.json")));
  const auto& sum = j["summary"];
  REQUIRE(sum["rows"] == 22);
  // The exit code says whether the file's acceptance holds.
  CHECK(r.code == (sum["passed"].get<bool>() ? 0 : 1));
  CHECK(sum["mean_absolute_error"].get<double>() < 0.08);
  for (const auto& t : sum["table2_trends"]) {
    INFO(t.dump());
    CHECK(t["gpu_counts_compared"].get<int>() >= 2);
    CHECK(t["holds"] == true);
  }
  // What is not met yet, stated exactly so that a change either way shows: every row is predicted (the
  // 529.6B ZeRO-3 row on 640 GPUs fits since ZeRO-3 gathers per block), and one row, 174.6B PTD-P on
  // 1,536 GPUs, is outside 15%.
  size_t outside = 0;
  for (const auto& row : j["rows"]) {
    INFO(row.dump());
    REQUIRE(row.contains("error"));
    const double e = row["error"].get<double>();
    CHECK(std::abs(e) < 0.17);
    if (std::abs(e) > 0.15) {
      ++outside;
      CHECK(row["name"] == "table2-174.6B-ptd-p-1536gpu");
    }
    // ZeRO-3's collapse with scale is communication: its rows are the ones the trend rests on.
    if (row["scheme"] == "zero-3") CHECK(std::abs(e) < 0.15);
  }
  CHECK(sum["predicted"] == 22);
  CHECK(outside <= 1);
}
