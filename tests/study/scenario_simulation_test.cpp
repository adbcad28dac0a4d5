// One iteration of a loaded scenario, with its own placement policy or with a placement it is given.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"

using namespace zs;

namespace {
const std::string kScenario = std::string(ZS_SOURCE_DIR) + "/scenarios/hgx-3d-parallel.json";
}

TEST_CASE("a scenario simulated on the placement its policy makes, given, is the same iteration") {
  core::DiskFileSource files;
  const auto s = scenario::ScenarioLoader(files).load(kScenario);
  const auto own = study::simulate_scenario(s);
  const auto placement = study::placement_policy_of(s)->place({s.trace, s.machine, s.seed});
  const auto given = study::simulate_scenario(s, placement);
  CHECK(given.replay.iteration_time.value() == own.replay.iteration_time.value());  // bit for bit
  CHECK(given.placement_policy == "given");
  CHECK(own.placement_policy == s.placement_policy);
  CHECK(given.mfu == own.mfu);
}

TEST_CASE("the scenario's fidelity is the engine's mode") {
  core::DiskFileSource files;
  auto s = scenario::ScenarioLoader(files).load(kScenario);
  s.fidelity = core::Fidelity::kCollapsed;
  CHECK(study::simulate_scenario(s).replay.fidelity == core::Fidelity::kCollapsed);
  s.fidelity = core::Fidelity::kExact;
  CHECK(study::simulate_scenario(s).replay.fidelity == core::Fidelity::kExact);
}
