// The run report's fidelity line states what collapsed fidelity merged, or that it merged nothing.
#include <doctest/doctest.h>

#include <string>

#include "core/file_source.hpp"
#include "output/run_record.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/source_file.hpp"

using namespace zs;

TEST_CASE("the collapsed report names the merged axes, and says so when none was merged") {
  core::DiskFileSource files;
  auto s = scenario::ScenarioLoader(files).load(test::source_file("scenarios/hgx-3d-parallel.json"));
  s.fidelity = core::Fidelity::kCollapsed;
  auto r = study::simulate_scenario(s);
  REQUIRE(r.replay.fidelity == core::Fidelity::kCollapsed);
  CHECK(output::report_text(s, r).find("(axes dp, tp merged)") != std::string::npos);
  r.replay.collapsed_axes.clear();  // as when the mesh has no axis but its roles' and its peers'
  const std::string report = output::report_text(s, r);
  CHECK(report.find("(no axis merged: no two ranks are symmetric)") != std::string::npos);
  CHECK(report.find("(axes  merged)") == std::string::npos);
}
