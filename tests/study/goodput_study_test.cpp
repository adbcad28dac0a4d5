// A goodput study called as a library: the healthy iteration is the engine's, the checkpoint the closed
// form of its store, and the seeds' time adds up to the horizon.
#include <doctest/doctest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/goodput_study.hpp"
#include "study/scenario_simulation.hpp"
#include "support/approx.hpp"
#include "support/input_error_of.hpp"
#include "support/quiet_rates.hpp"
#include "support/source_file.hpp"
#include "support/temp_dir.hpp"
#include "support/test_models.hpp"

using namespace zs;

namespace {

/// hgx-3d-parallel with absolute paths and a day of quiet failure rates (no failure expected),
/// checkpointing every 30 min of work at 10 GB/s.
std::string hgx_with_reliability(test::TempDir& dir) {
  auto doc = nlohmann::json::parse(test::read_text(test::source_file("scenarios/hgx-3d-parallel.json")));
  doc["machine"] = test::source_file("topologies/") +
                   std::filesystem::path(doc["machine"].get<std::string>()).filename().string();
  doc["workload"]["model"] = test::source_file("workloads/gpt3-1.3b.json");
  auto rates = test::quiet_rates();
  rates["components"].erase(1);  // no power domains on this machine
  doc["reliability"] = {{"failure_rates", dir.write("quiet.json", rates.dump())},
                        {"horizon", "1d"},
                        {"seeds", 2},
                        {"checkpoint", {{"interval", "30min"}, {"bandwidth", "10GB/s"}}},
                        {"detection", "1min"},
                        {"restart", "5min"},
                        {"repair", "2d"},
                        {"spares", {{"units", 4}, {"swap", "10min"}}}};
  return dir.write("hgx-goodput.json", doc.dump());
}

}  // namespace

TEST_CASE("goodput study: the engine's iteration, the store's checkpoint time, every second accounted") {
  test::TempDir dir;
  const std::string file = hgx_with_reliability(dir);
  core::DiskFileSource files;
  const auto s = scenario::ScenarioLoader(files).load(file);
  const study::GoodputStudy g = study::run_goodput_study(std::make_shared<const scenario::Scenario>(s), file);

  CHECK(g.iteration.replay.iteration_time.value() ==
        study::simulate_scenario(s).replay.iteration_time.value());
  CHECK(g.units == s.trace.mesh.size());
  CHECK(g.idle_units == s.machine.unit_count() - g.units);
  CHECK(g.seeds == 2);
  CHECK(g.horizon.value() == 86400.0);
  const double state = test::gpt3_1_3b_checkpoint_bytes();  // each tensor once, not per data-parallel replica
  // The first stage writes most: 12 layers of 12 h^2 + 13 h and the embeddings (V + s) h, in 4 shares (tp 2 x
  // dp 2); the last stage has no copy of the tied embedding to write.
  const double h = 2048, first_stage = 12 * (12 * h * h + 13 * h) + (51200 + 2048) * h;
  CHECK(g.checkpoint_state_per_rank_max == test::approx(14 * first_stage / 4).epsilon(1e-12));
  CHECK(g.checkpoint_state == test::approx(state).epsilon(1e-12));
  CHECK(g.checkpoint_cost.value() == test::approx(state / 10e9).epsilon(1e-12));
  CHECK(g.summary.interval == 1800.0);
  CHECK(g.summary.failures.mean == 0);
  double lost = 0;
  for (const auto& [cause, e] : g.summary.lost) lost += e.mean;
  CHECK(g.summary.ettr.mean + lost / g.horizon.value() == test::approx(1.0).epsilon(1e-9));
  REQUIRE(g.instances_by_component.size() == 1);
  CHECK(g.instances_by_component[0] == g.units);  // one "gpu" per unit of the job
  CHECK(g.degraded_iterations.empty());
}

TEST_CASE("goodput study of a scenario without a reliability section: an input error at /reliability") {
  core::DiskFileSource files;
  const std::string file = test::source_file("scenarios/hgx-3d-parallel.json");
  const auto s = scenario::ScenarioLoader(files).load(file);
  CHECK(test::input_error_of([&] {
          study::run_goodput_study(std::make_shared<const scenario::Scenario>(s), file);
        }).starts_with(file + ": /reliability: expected a reliability section"));
}
