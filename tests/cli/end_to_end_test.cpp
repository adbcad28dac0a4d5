// End to end through every layer: scenario files -> loader -> SimGrid -> report, against a hand calculation.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "support/approx.hpp"
#include "support/hand_calculation.hpp"
#include "support/run_cli.hpp"
#include "support/scenario_files.hpp"

using namespace zs;

TEST_CASE("a small data-parallel scenario matches the hand calculation") {
  test::TempDir dir;
  test::ScenarioFiles files;
  auto r = test::run_cli({"run", files.write(dir), "--out", dir.file("out")});
  REQUIRE(r.code == 0);
  auto summary = nlohmann::json::parse(test::read_text(dir.path() / "out" / "summary.json"));
  test::HandCalculation hand;
  const auto& part = summary["critical_rank_breakdown_s"];
  CHECK(summary["iteration_time_s"].get<double>() == zs::test::approx(hand.iteration).epsilon(1e-9));
  CHECK(part["compute"].get<double>() == zs::test::approx(hand.compute).epsilon(1e-9));
  CHECK(part["exposed_communication"].get<double>() == zs::test::approx(hand.exposed).epsilon(1e-9));
  CHECK(summary["mfu"].get<double>() == zs::test::approx(hand.mfu).epsilon(1e-9));
  CHECK(summary["tokens_per_second"].get<double>() ==
        zs::test::approx(4 * 1024 / hand.iteration).epsilon(1e-9));
  // The printed report states the same breakdown.
  CHECK(r.out.find("iteration time") != std::string::npos);
  CHECK(r.out.find("exposed communication") != std::string::npos);
  CHECK(r.out.find("approximations:") != std::string::npos);
}
