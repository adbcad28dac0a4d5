// Grok-1's recipe at every size published below 1,024 GPUs (14 runs, about two minutes in a release build):
// label "slow".
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

TEST_CASE("validate grok-1-scales.json: every run of the diagnostic table predicted, 8 to 512 GPUs") {
  test::TempDir dir;
  const auto file = std::filesystem::path(ZS_SOURCE_DIR) / "scenarios/validation/grok-1-scales.json";
  const auto r = test::run_cli({"validate", file.string(), "--out", dir.file("v"), "--quiet"});
  INFO(r.err);
  const auto j = nlohmann::json::parse(std::ifstream(dir.file("v/validation.json")));
  const auto& sum = j["summary"];
  REQUIRE(sum["rows"] == 14);
  CHECK(sum["predicted"] == 14);
  std::set<int> gpus;
  std::map<std::string, std::pair<double, double>> times;  // run -> published, predicted s
  for (const auto& run : j["runs"]) {
    INFO(run.dump());
    REQUIRE(run.contains("error"));
    CHECK(run["moe"] == true);
    gpus.insert(run["gpus"].get<int>());
    times[run["name"]] = {run["published_iteration_time_s"], run["predicted_iteration_time_s"]};
  }
  // One bf16 and one fp8 run per published size.
  CHECK(gpus == std::set<int>{8, 16, 32, 64, 128, 256, 512});
  // From 64 GPUs (8 layers, no pipeline) to 512 (64 layers on 8 stages of 8 chunks, the same 8 layers and
  // micro-batches per GPU) the recipe's step time grows 0.9% in bf16 and 3.0% in fp8: its overlapped
  // pipeline exchanges hide the transfers. The prediction grows within 3 points of that.
  for (const std::string precision : {"", "fp8-"}) {
    const auto& small = times.at("grok-1-h100-" + precision + "64");
    const auto& large = times.at("grok-1-h100-" + precision + "512");
    CAPTURE(precision);
    CHECK(large.second / small.second == doctest::Approx(large.first / small.first).epsilon(0.03));
  }
  CHECK(r.code == (sum["passed"].get<bool>() ? 0 : 1));
}
