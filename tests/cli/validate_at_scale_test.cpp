// The whole published-runs validation at scale (23 runs on 1,024 to 3,360 GPUs): label "slow".
#include <doctest/doctest.h>

#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

TEST_CASE(
    "validate at-scale: every published run predicted, the exit code saying whether the acceptance holds") {
  test::TempDir dir;
  const auto r = test::run_cli({"validate", "at-scale", "--out", dir.file("v"), "--quiet"});
  INFO(r.err);
  const auto j = nlohmann::json::parse(std::ifstream(dir.file("v/validation.json")));
  const auto& sum = j["summary"];
  CHECK(sum["rows"].get<int>() >= 10);
  CHECK(sum["predicted"] == sum["rows"]);
  std::set<std::string> hardware;
  bool moe = false;
  double sum_error = 0;
  for (const auto& run : j["runs"]) {
    INFO(run.dump());
    REQUIRE(run.contains("error"));
    CHECK(run["gpus"].get<int>() >= 1024);
    hardware.insert(run["hardware"].get<std::string>());
    moe = moe || run["moe"].get<bool>();
    sum_error += std::abs(run["error"].get<double>());
  }
  CHECK(hardware.size() >= 2);
  CHECK(moe);
  CHECK(sum["mean_absolute_error"].get<double>() == doctest::Approx(sum_error / double(j["runs"].size())));
  // Every scaling series is checked: both efficiencies known.
  CHECK(sum["scaling"].size() >= 2);
  for (const auto& s : sum["scaling"]) {
    INFO(s.dump());
    CHECK(s.contains("published_efficiency"));
    CHECK(s.contains("predicted_efficiency"));
  }
  CHECK(r.code == (sum["passed"].get<bool>() ? 0 : 1));
}
