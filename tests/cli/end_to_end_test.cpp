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

TEST_CASE(
    "a run with the topology-aware placement reports its layout decision, and times as linear where it keeps "
    "it") {
  test::TempDir dir;
  test::ScenarioFiles files;
  files.scenario["policies"]["placement"] = "topology-aware";
  auto r = test::run_cli({"run", files.write(dir), "--out", dir.file("out")});
  REQUIRE(r.code == 0);
  auto summary = nlohmann::json::parse(test::read_text(dir.path() / "out" / "summary.json"));
  CHECK(summary["policies"]["placement"] == "topology-aware");
  // One axis on one switch: a single layout, the linear one.
  CHECK(
      summary["policies"]["placement_layout"] ==
      "kept the linear layout (axes dp on the topology's unit order): no layout has both 2% fewer hop-bytes "
      "and a 2% less loaded busiest switch-to-switch link, of 1 layout");
  CHECK(r.out.find("placement layout          kept the linear layout") != std::string::npos);
  CHECK(summary["iteration_time_s"].get<double>() ==
        zs::test::approx(test::HandCalculation().iteration).epsilon(1e-9));
}
