// A scenario moved to another folder: its paths rewritten, it loads to the same configuration.
#include <doctest/doctest.h>

#include <filesystem>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/scenario_rebase.hpp"
#include "support/source_file.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

TEST_CASE("a shipped scenario rebased into another folder loads to the same resolved configuration") {
  test::TempDir dir;
  core::DiskFileSource disk;
  for (const char* name : {"scenarios/default.json", "scenarios/moe-10t-16k.json"}) {
    const std::string from = test::source_file(name);
    const nlohmann::json rebased =
        scenario::rebased_scenario(disk.read_json(from), from, dir.file("deep/er"));
    dir.write("deep/er/moved.json", rebased.dump());
    auto original = scenario::ScenarioLoader(disk).load(from).resolved;
    auto moved = scenario::ScenarioLoader(disk).load(dir.file("deep/er/moved.json")).resolved;
    for (auto* r : {&original, &moved}) r->erase("derived");  // it names the files as read
    CHECK(moved == original);
  }
  // An absolute path stays as written.
  const nlohmann::json absolute = {{"machine", "/abs/machine.json"}, {"workload", {{"model", "m.json"}}}};
  const nlohmann::json r = scenario::rebased_scenario(absolute, "/a/b/s.json", "/a/c");
  CHECK(r["machine"] == "/abs/machine.json");
  CHECK(r["workload"]["model"] == "../b/m.json");
}
