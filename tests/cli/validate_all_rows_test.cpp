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
  // What is not met yet, stated exactly so that a change either way shows: the 529.6B ZeRO-3 row on 640
  // GPUs does not fit in 80 GB under our memory accounting (no prediction), and one row is outside 15%.
  size_t outside = 0;
  for (const auto& row : j["rows"]) {
    INFO(row.dump());
    if (!row.contains("error")) {
      CHECK(row["name"] == "table2-529.6B-zero-3-640gpu");
      CHECK(row["failure"].get<std::string>().find("capacity") != std::string::npos);
      continue;
    }
    const double e = row["error"].get<double>();
    CHECK(std::abs(e) < 0.17);
    outside += std::abs(e) > 0.15;
    // ZeRO-3's collapse with scale is communication: its rows are the ones the trend rests on.
    if (row["scheme"] == "zero-3") CHECK(std::abs(e) < 0.15);
  }
  CHECK(sum["predicted"] == 21);
  CHECK(outside <= 1);
}
