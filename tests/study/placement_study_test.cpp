// Placements by named policies and their costs, without simulating.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/placement_study.hpp"
#include "support/input_error_of.hpp"
#include "support/source_file.hpp"

using namespace zs;

namespace {
const std::string kScenario = test::source_file("scenarios/hgx-3d-parallel.json");
}

TEST_CASE("placement study: the scenario's own policy by default, each named one otherwise") {
  core::DiskFileSource files;
  const auto s = scenario::ScenarioLoader(files).load(kScenario);
  const auto own = study::study_placements(s, {}, 1024, "--policy");
  REQUIRE(own.size() == 1);
  CHECK(own[0].policy == s.placement_policy);
  CHECK(own[0].cost.ranks == s.trace.mesh.size());
  CHECK(own[0].cost.ranks_evaluated == s.trace.mesh.size());  // 8 ranks, under the sample
  const auto both = study::study_placements(s, {"linear", "random"}, 1024, "--policy");
  REQUIRE(both.size() == 2);
  CHECK(both[0].policy == "linear");
  CHECK(both[1].policy == "random");
  // The bytes each rank sends do not depend on where it runs; the hops do.
  REQUIRE(both[0].cost.communicators.size() == both[1].cost.communicators.size());
  for (size_t c = 0; c < both[0].cost.communicators.size(); ++c)
    CHECK(both[0].cost.communicators[c].bytes == both[1].cost.communicators[c].bytes);
}

TEST_CASE("placement study: an unknown policy is an input error naming where the name came from") {
  core::DiskFileSource files;
  const auto s = scenario::ScenarioLoader(files).load(kScenario);
  const auto what = test::input_error_of([&] { study::study_placements(s, {"nearest"}, 16, "--policy"); });
  CHECK(what.starts_with("--policy: "));
  CHECK(what.find("nearest") != std::string::npos);
}
