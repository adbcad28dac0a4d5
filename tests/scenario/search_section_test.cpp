// A scenario's "search" section is read and checked when the scenario loads, whatever command loads it.
#include <doctest/doctest.h>

#include "support/default_scenario.hpp"
#include "support/input_error_of.hpp"

using namespace zs;

TEST_CASE("a scenario's search section is checked at load and kept in the resolved configuration") {
  test::TempDir dir;
  test::default_scenario_with(dir, "s.json", [](nlohmann::json&) {});
  nlohmann::json j = nlohmann::json::parse(test::read_text(dir.file("s.json")));
  j["search"] = {{"tensor_parallel", {1, 2}}, {"recompute", "none"}};
  dir.write("s.json", j.dump());
  const scenario::Scenario s = scenario::ScenarioLoader(core::DiskFileSource()).load(dir.file("s.json"));
  REQUIRE(s.search);
  CHECK(s.search->tensor_parallel == std::vector<uint32_t>{1, 2});
  CHECK(s.resolved["search"]["tensor_parallel"] == nlohmann::json{1, 2});
  CHECK(s.resolved["search"]["pipeline_parallel"] ==
        nlohmann::json{1, 2, 4, 8});  // the defaults, written out
  j["search"] = {{"zero_stage", 4}};
  dir.write("s.json", j.dump());
  CHECK(test::input_error_of([&] {
          scenario::ScenarioLoader(core::DiskFileSource()).load(dir.file("s.json"));
        }) == dir.file("s.json") + ": /search/zero_stage: ZeRO stages are 0 to 3, got 4");
}
