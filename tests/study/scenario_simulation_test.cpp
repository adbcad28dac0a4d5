// One iteration of a loaded scenario, with its own placement policy or with a placement it is given.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/input_error_of.hpp"

using namespace zs;

namespace {
const std::string kScenario = std::string(ZS_SOURCE_DIR) + "/scenarios/hgx-3d-parallel.json";
}

TEST_CASE("a scenario simulated on the placement its policy makes, given, is the same iteration") {
  core::DiskFileSource files;
  const auto s = scenario::ScenarioLoader(files).load(kScenario);
  const auto own = study::simulate_scenario(s, "--fidelity");
  const auto placement = study::placement_policy_of(s)->place({s.trace, s.machine, s.seed});
  const auto given = study::simulate_scenario(s, "--fidelity", placement);
  CHECK(given.replay.iteration_time.value() == own.replay.iteration_time.value());  // bit for bit
  CHECK(given.placement_policy == "given");
  CHECK(own.placement_policy == s.placement_policy);
  CHECK(given.mfu == own.mfu);
}

TEST_CASE("an unknown fidelity names its source") {
  core::DiskFileSource files;
  auto s = scenario::ScenarioLoader(files).load(kScenario);
  s.fidelity = "fast";
  CHECK(test::input_error_of([&] { study::simulate_scenario(s, "--fidelity"); }) ==
        "--fidelity: expected auto, exact or collapsed, got \"fast\"");
}
