// Checkpoint stores in `zettasim goodput`: a file system model, and snapshots to peer memory costed by the
// engine against their closed form, falling back to the persistent tier when a rank and its peer fail
// together; configurations that cannot work exit 2 with their JSON path.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/approx.hpp"
#include "support/quiet_rates.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"
#include "support/test_models.hpp"

using namespace zs;
namespace fs = std::filesystem;

using test::source_file;

namespace {

/// A shipped scenario with absolute paths and a reliability section checkpointing as `checkpoint`, one
/// seed over a day, scripted failures only (test::quiet_rates; its power feeds only on the disaggregated
/// machine, the one that declares power domains), 16 hot spares.
nlohmann::json with_checkpoint(test::TempDir& dir, const std::string& scenario,
                               const nlohmann::json& checkpoint) {
  auto doc = nlohmann::json::parse(test::read_text(source_file("scenarios/" + scenario + ".json")));
  const std::string machine = fs::path(doc["machine"].get<std::string>()).filename().string();
  doc["machine"] = source_file("topologies/" + machine);
  doc["workload"]["model"] =
      source_file("workloads/" + fs::path(doc["workload"]["model"].get<std::string>()).filename().string());
  auto rates = test::quiet_rates();
  if (machine != "disaggregated-64.machine.json") rates["components"].erase(1);
  doc["reliability"] = {{"failure_rates", dir.write("quiet.json", rates.dump())},
                        {"horizon", "1d"},
                        {"seeds", 1},
                        {"checkpoint", checkpoint},
                        {"detection", "1min"},
                        {"restart", "5min"},
                        {"repair", "2d"},
                        {"spares", {{"units", 16}, {"swap", "10min"}}}};
  return doc;
}

nlohmann::json goodput_json(const test::TempDir& dir, const std::string& out) {
  return nlohmann::json::parse(test::read_text(dir.path() / out / "goodput.json"));
}

}  // namespace

TEST_CASE("a snapshot to peer memory takes the engine's time for the copy over NVLink, the closed form") {
  test::TempDir dir;
  const auto doc = with_checkpoint(
      dir, "hgx-3d-parallel",
      {{"interval", "30min"}, {"target", "peer-memory"}, {"persistent", {{"bandwidth", "10GB/s"}}}});
  const std::string path = dir.write("hgx.json", doc.dump());
  auto r = test::run_cli({"goodput", path, "--out", dir.file("x"), "--quiet"});
  REQUIRE(r.code == 0);
  const auto g = goodput_json(dir, "x");
  const auto& peer = g["checkpoint"]["peer_memory"];
  CHECK(peer["peer_axis"] == "dp");
  CHECK(peer["peer_offset"] == 1);  // half of dp 2
  // Each rank sends its weights and optimizer state to its data-parallel peer over its NVLink4 port at
  // 450 GB/s x 0.818 (nvlink4.json) while receiving the peer's: the largest stage's state sets the time.
  // (The copy within its own HBM, 2 x state at 3.35 TB/s x 0.9, is 4 times shorter.)
  core::DiskFileSource files;
  const auto s = scenario::ScenarioLoader(files).load(path);
  double largest = 0;
  for (const auto& role : s.trace.roles)
    largest = std::max(largest, (role.memory->weights + role.memory->optimizer).value());
  // What drains to the persistent tier is the distributed checkpoint: each tensor once.
  const double total = test::gpt3_1_3b_checkpoint_bytes();
  CHECK(g["checkpoint"]["state_bytes"].get<double>() == total);
  CHECK(peer["snapshot_s"].get<double>() == zs::test::approx(largest / (450e9 * 0.818)).epsilon(0.01));
  CHECK(g["checkpoint_cost_s"] == peer["snapshot_s"]);
  CHECK(peer["persistent_drain_s"].get<double>() == zs::test::approx(total / 10e9).epsilon(1e-12));
  CHECK(g["persistent_restores"]["mean"] == 0);
}

TEST_CASE(
    "a power feed that takes a rank and its peer restores from the persistent tier, one apart does not") {
  test::TempDir dir;
  // moe-ep-64: pipeline stage 0 (ranks 0-31) on pods 0 and 1, one power domain per pod. The default peer is
  // half of the 8 expert-parallel replicas away, 16 ranks: in the other pod. Offset 1 is 4 ranks away: the
  // same pod. Snapshots every 20 min of work; the persistent tier at 0.5 GB/s takes longer than that to
  // drain one.
  auto apart = with_checkpoint(
      dir, "moe-ep-64",
      {{"interval", "20min"}, {"target", "peer-memory"}, {"persistent", {{"bandwidth", "0.5GB/s"}}}});
  apart["reliability"]["events"] = {{{"at", "1h"}, {"component", "feed"}, {"instance", "power0"}}};
  auto r =
      test::run_cli({"goodput", dir.write("apart.json", apart.dump()), "--out", dir.file("a"), "--quiet"});
  REQUIRE(r.code == 0);
  const auto a = goodput_json(dir, "a");
  CHECK(a["checkpoint"]["peer_memory"]["peer_offset"] == 4);
  CHECK(a["persistent_restores"]["mean"] == 0);
  REQUIRE(a["timeline_first_seed"].size() == 1);
  CHECK(a["timeline_first_seed"][0]["action"] == "swap 16 spares (scripted)");
  const double state = a["checkpoint"]["state_bytes"], drain = state / 0.5e9;
  CHECK(a["checkpoint"]["peer_memory"]["persistent_drain_s"].get<double>() ==
        zs::test::approx(drain).epsilon(1e-12));
  // Snapshots committed at 1 and 2 cycles (the third would end after 1 h): the work since the second is
  // lost. The first drains by 1 h; the second starts draining when the first ends, and does not.
  const double cycle_a = 1200 + a["checkpoint_cost_s"].get<double>();
  REQUIRE(cycle_a + drain < 3600);
  REQUIRE(cycle_a + 2 * drain > 3600);
  CHECK(a["lost_s"]["recompute"]["mean"].get<double>() == zs::test::approx(3600 - 2 * cycle_a).epsilon(1e-9));
  CHECK(a["lost_s"]["restart"]["mean"] == 300);

  auto together = apart;
  together["reliability"]["checkpoint"]["peer_offset"] = 1;
  r = test::run_cli(
      {"goodput", dir.write("together.json", together.dump()), "--out", dir.file("t"), "--quiet"});
  REQUIRE(r.code == 0);
  const auto t = goodput_json(dir, "t");
  CHECK(t["persistent_restores"]["mean"] == 1);
  CHECK(t["timeline_first_seed"][0]["action"] ==
        "swap 16 spares; restore from the persistent tier (rank 0 and its peer rank 4 lost together) "
        "(scripted)");
  // The first snapshot had drained; the second had not: its 1,200 s of work are lost too, and loading
  // from the persistent tier adds its read time to the restart.
  const double cycle_t = 1200 + t["checkpoint_cost_s"].get<double>();
  CHECK(t["lost_s"]["recompute"]["mean"].get<double>() ==
        zs::test::approx(3600 - 2 * cycle_t + 1200).epsilon(1e-9));
  CHECK(t["lost_s"]["restart"]["mean"].get<double>() == zs::test::approx(300 + drain).epsilon(1e-12));
  // Peers 4 ranks away share a pod's electrical network; 16 ranks away they cross the optical core.
  CHECK(t["checkpoint_cost_s"].get<double>() < a["checkpoint_cost_s"].get<double>());
}

TEST_CASE("a single-tier file system store writes at its aggregate or its clients' bandwidth") {
  test::TempDir dir;
  auto doc = with_checkpoint(
      dir, "moe-ep-64", {{"interval", "30min"}, {"file_system", source_file("models/tectonic-240pb.json")}});
  auto r = test::run_cli({"goodput", dir.write("fs.json", doc.dump()), "--out", dir.file("x"), "--quiet"});
  REQUIRE(r.code == 0);
  const auto g = goodput_json(dir, "x");
  CHECK(g["checkpoint"]["store"] == "file system tectonic-240pb");
  CHECK(g["checkpoint_cost_s"].get<double>() ==
        zs::test::approx(g["checkpoint_state_bytes"].get<double>() / 400e9).epsilon(1e-12));
}

TEST_CASE("checkpoint stores that cannot work exit 2 with their JSON path") {
  test::TempDir dir;
  auto run = [&](const nlohmann::json& d) {
    return test::run_cli({"goodput", dir.write("s.json", d.dump()), "--out", dir.file("x")});
  };
  const nlohmann::json persistent = {{"bandwidth", "1TB/s"}};
  struct Case {
    std::string scenario;
    nlohmann::json checkpoint;
    std::string error;
  };
  const Case cases[] = {
      // 10T MoE on H100s: 16.6 GiB of state per rank twice beside a 59 GiB footprint is more than 80 GB.
      {"moe-10t-16k",
       {{"interval", "daly"}, {"target", "peer-memory"}, {"persistent", persistent}},
       "s.json: /reliability/checkpoint/target: peer memory: rank 0 (role \"stage0\") keeps its snapshot and "
       "its peer's"},
      {"moe-ep-64",
       {{"interval", "daly"}, {"target", "peer-memory"}, {"persistent", persistent}, {"peer_offset", 8}},
       "s.json: /reliability/checkpoint/peer_offset: expected 1 to 7"},
      {"moe-ep-64",
       {{"interval", "daly"}, {"target", "peer-memory"}},
       "s.json: /reliability/checkpoint/persistent: missing; peer-memory checkpoints drain to a persistent "
       "tier"},
      {"moe-ep-64",
       {{"interval", "daly"},
        {"target", "peer-memory"},
        {"persistent", persistent},
        {"mode", "async"},
        {"snapshot_bandwidth", "1TB/s"}},
       "s.json: /reliability/checkpoint/mode: peer-memory checkpoints already drain"},
      {"moe-ep-64",
       {{"interval", "daly"}, {"target", "memory-pools"}, {"bandwidth", "1TB/s"}},
       "s.json: /reliability/checkpoint/target: expected one of \"bandwidth\""},
      {"moe-ep-64",
       {{"interval", "daly"}, {"target", "peer-memory"}, {"persistent", {{"target", "peer-memory"}}}},
       "s.json: /reliability/checkpoint/persistent/target: expected one of \"bandwidth\" (a store's, e.g. "
       "\"2TB/s\"), \"target\": \"memory-pools\", or \"file_system\" (a file-system model file), got "
       "\"peer-memory\""},
      {"moe-ep-64",
       {{"interval", "daly"}, {"bandwidth", "1TB/s"}, {"peer_offset", 2}},
       "s.json: /reliability/checkpoint/peer_offset: unknown key here: the other values leave it unused (see "
       "`zettasim params reliability.checkpoint`)"},
      {"moe-ep-64",
       {{"interval", "daly"}, {"bandwidth", "1TB/s"}, {"mode", "async"}},
       "s.json: /reliability/checkpoint: missing key \"snapshot_bandwidth\" for async checkpoints"},
      {"hgx-3d-parallel",
       {{"interval", "daly"}, {"target", "peer-memory"}, {"persistent", persistent}},
       "s.json: /reliability/checkpoint/target: peer-memory checkpoints copy each rank's snapshot to a "
       "data-parallel peer, but the job's \"dp\" communicator has no axis of 2 or more"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.error);
    auto doc = with_checkpoint(dir, c.scenario, c.checkpoint);
    if (c.scenario == "hgx-3d-parallel") {  // no data parallelism
      doc["workload"]["data_parallel"] = 1;
      doc["workload"]["tensor_parallel"] = 4;
    }
    auto r = run(doc);
    CHECK(r.code == 2);
    CHECK(r.err.find(c.error) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  // A file system too small for two checkpoints.
  auto small = nlohmann::json::parse(test::read_text(source_file("models/tectonic-240pb.json")));
  small["capacity"] = "1TB";
  auto doc = with_checkpoint(dir, "moe-ep-64",
                             {{"interval", "daly"}, {"file_system", dir.write("small.json", small.dump())}});
  auto r = run(doc);
  CHECK(r.code == 2);
  CHECK(r.err.find(
            "s.json: /reliability/checkpoint/file_system: file system \"tectonic-240pb\" holds 931.3 GiB") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "x"));
}
