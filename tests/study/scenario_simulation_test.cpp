// One iteration of a loaded scenario, with its own placement policy, a placement it is given, or a
// policy a front end added to its catalog.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "scenario/catalog.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/placement_study.hpp"
#include "study/scenario_simulation.hpp"
#include "support/input_error_of.hpp"
#include "support/scenario_files.hpp"
#include "support/source_file.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

namespace {
const std::string kScenario = test::source_file("scenarios/hgx-3d-parallel.json");
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

namespace {

/// A placement added at run time: rank r on the r-th unit from the end.
class ReversedPlacement final : public policy::PlacementPolicy {
 public:
  std::string_view name() const override { return "reversed"; }
  policy::Placement place(const policy::PlacementRequest& request) const override {
    const auto& units = request.machine.topology.units();
    std::vector<topology::NodeId> chosen;
    for (uint64_t r = 0; r < request.trace.mesh.size(); ++r) chosen.push_back(units[units.size() - 1 - r]);
    return policy::place_on_units(std::move(chosen), request.machine);
  }
};

}  // namespace

TEST_CASE("a placement policy added to a catalog places the studies of scenarios read against it") {
  test::TempDir dir;
  test::ScenarioFiles files;
  files.scenario["policies"]["placement"] = "reversed";
  const std::string path = files.write(dir);
  scenario::Catalog catalog;
  catalog.policies.placement.add(
      "reversed", "rank r on the r-th unit from the end (a test plugin)",
      [](const policy::PlacementMap*) { return std::make_unique<ReversedPlacement>(); });
  core::DiskFileSource disk;
  const auto s = scenario::ScenarioLoader(disk, catalog).load(path);
  const auto run = study::simulate_scenario(s, catalog.policies);
  CHECK(run.placement_policy == "reversed");
  // Four ranks on a single switch: reversing them changes no distance, so not the iteration either.
  auto linear = s;
  linear.placement_policy = "linear";
  CHECK(run.replay.iteration_time.value() == study::simulate_scenario(linear).replay.iteration_time.value());
  const auto placed = study::study_placements(s, {}, 16, "--policy", catalog.policies);
  REQUIRE(placed.size() == 1);
  CHECK(placed[0].policy == "reversed");
  CHECK(test::input_error_of([&] {
          study::study_placements(s, {}, 16, "--policy");
        }).starts_with("--policy: "));  // the built-ins alone do not know it
}
