// Exports with their communicator-group file re-imported: the same iteration time, the same groups (slow
// checks: whole shipped scenarios replayed).
#include <doctest/doctest.h>

#include "chakra/chakra_export.hpp"
#include "chakra/chakra_import.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/chakra_files.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

namespace {

scenario::Scenario shipped_scenario(const std::string& name) {
  core::DiskFileSource files;
  return scenario::ScenarioLoader(files).load(std::string(ZS_SOURCE_DIR) + "/scenarios/" + name + ".json");
}

}  // namespace

TEST_CASE("an export with its group file re-imports to the same iteration time, to the bit") {
  for (const char* name : {"hgx-3d-parallel", "moe-ep-64"}) {
    CAPTURE(name);
    const auto s = shipped_scenario(name);
    test::TempDir dir;
    core::DiskFileSource files;
    const std::string prefix = test::export_chakra_job(s.trace, dir);
    const auto imported = chakra::import_chakra(prefix, files, prefix + ".json");
    CHECK(imported.report.comm_groups == prefix + ".json");
    auto time = [&](const workload::Trace& t) {
      return engine::simulate(s.machine, t, policy::LinearPlacement(), policy::RingCollective())
          .replay.iteration_time.value();
    };
    CHECK(time(imported.trace) == time(s.trace));
  }
}

TEST_CASE("an export stripped of zettasim's attributes re-imports with the right groups") {
  const auto s = shipped_scenario("hgx-3d-parallel");
  test::TempDir dir;
  core::DiskFileSource files;
  const std::string prefix = test::export_chakra_job(s.trace, dir);
  test::strip_zettasim_attributes(prefix, s.trace.mesh.size());
  const auto imported = chakra::import_chakra(prefix, files, prefix + ".json");
  CHECK_FALSE(imported.report.zettasim_metadata);
  const auto& t = imported.trace;
  REQUIRE(t.mesh.size() == s.trace.mesh.size());
  size_t checked = 0;
  for (uint64_t r = 0; r < t.mesh.size(); ++r) {
    std::vector<const workload::CollectiveOp*> original, back;
    for (const auto& op : s.trace.program_of(r).ops)
      if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) original.push_back(c);
    for (const auto& op : t.program_of(r).ops)
      if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) back.push_back(c);
    REQUIRE(back.size() == original.size());
    for (size_t k = 0; k < back.size(); ++k) {
      CHECK(t.mesh.group_members(r, *t.communicator_axes(back[k]->communicator)) ==
            s.trace.mesh.group_members(r, *s.trace.communicator_axes(original[k]->communicator)));
      ++checked;
    }
  }
  CHECK(checked > 0);
  CHECK(engine::simulate(s.machine, t, policy::LinearPlacement(), policy::RingCollective())
            .replay.iteration_time.value() > 0);
}
