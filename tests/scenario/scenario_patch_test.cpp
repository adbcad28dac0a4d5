// Setting a scenario's values by their config.json pointer: a policy named alone takes its options there;
// a derived pointer is refused naming what sets it.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/scenario_patch.hpp"

using namespace zs;

TEST_CASE("the chunk of a collective given by name alone is swept where config.json shows it") {
  core::DiskFileSource disk;
  const std::string path = std::string(ZS_SOURCE_DIR) + "/scenarios/default.json";
  const scenario::Scenario s = scenario::ScenarioLoader(disk).load(path);
  REQUIRE(s.resolved.at("/policies/collective"_json_pointer).at("chunk") == "4MiB");
  for (const char* chunk : {"1MiB", "16MiB"}) {
    scenario::ScenarioPatch patch(disk, path, s.resolved);
    patch.set("/policies/collective/chunk", chunk, path);
    core::OverlayFileSource patched(disk, patch.files());
    const scenario::Scenario swept = scenario::ScenarioLoader(patched).load(path);
    CHECK(swept.resolved.at("/policies/collective/chunk"_json_pointer) == chunk);
    CHECK(swept.resolved.at("/policies/collective/name"_json_pointer) == "ring");
    CHECK(swept.collective_options.chunk.value() ==
          doctest::Approx(std::string(chunk) == "1MiB" ? 1048576 : 16777216));
  }
}

TEST_CASE("a derived pointer is refused in one line naming what sets it") {
  core::DiskFileSource disk;
  const std::string path = std::string(ZS_SOURCE_DIR) + "/scenarios/default.json";
  const scenario::Scenario s = scenario::ScenarioLoader(disk).load(path);
  scenario::ScenarioPatch patch(disk, path, s.resolved);
  REQUIRE(s.resolved.contains("/derived/workload/micro_batches"_json_pointer));
  try {
    patch.set("/derived/workload/micro_batches", 4, path);
    FAIL("a derived value was set");
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    CHECK(message.find("is derived") != std::string::npos);
    CHECK(message.find("(/workload)") != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
  CHECK_THROWS_WITH_AS(patch.set("/derived/machine/units", 4, path),
                       doctest::Contains("counting the parts of the machine (/machine)"),
                       std::invalid_argument);
}
