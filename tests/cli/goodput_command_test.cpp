// `zettasim goodput`: a shipped scenario's days of training under failures, deterministic; bad sections
// exit 2.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "support/approx.hpp"
#include "support/quiet_rates.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;
namespace fs = std::filesystem;

using test::quiet_rates;
using test::source_file;

TEST_CASE(
    "goodput of moe-10t-16k over 54 days: Llama 3's failure count, ETTR from its parts, deterministic") {
  test::TempDir dir;
  auto a = test::run_cli(
      {"goodput", source_file("scenarios/moe-10t-16k.json"), "--seeds", "3", "--out", dir.file("a")});
  REQUIRE(a.code == 0);
  CHECK(a.out.find("ETTR") != std::string::npos);
  auto b = test::run_cli({"goodput", source_file("scenarios/moe-10t-16k.json"), "--seeds", "3", "--out",
                          dir.file("b"), "--quiet"});
  REQUIRE(b.code == 0);
  const std::string ja = test::read_text(dir.path() / "a" / "goodput.json");
  CHECK(ja == test::read_text(dir.path() / "b" / "goodput.json"));
  const auto g = nlohmann::json::parse(ja);
  const double horizon = g["horizon_s"];
  CHECK(horizon == 54 * 86400.0);
  CHECK(std::abs(g["failures"]["mean"].get<double>() - 419) < 4 * std::sqrt(419.0 / 3));
  double lost = 0;
  for (const auto& [cause, e] : g["lost_s"].items()) lost += e["mean"].get<double>();
  CHECK(g["ettr"]["mean"].get<double>() + lost / horizon == zs::test::approx(1.0).epsilon(1e-9));
  // Checkpoint: 10 T parameters x (2 B weights + 12 B optimizer) at 2 TB/s.
  CHECK(g["checkpoint_cost_s"].get<double>() ==
        zs::test::approx(g["checkpoint_state_bytes"].get<double>() / 2e12).epsilon(1e-12));
  CHECK(g["checkpoint_state_bytes"].get<double>() > 1.3e14);
  CHECK(g["timeline_first_seed"].size() > 300);
}

TEST_CASE("goodput without a reliability section, or with an empty spare pool: one line, exit code 2") {
  test::TempDir dir;
  auto none = test::run_cli({"goodput", source_file("scenarios/default.json"), "--out", dir.file("x")});
  CHECK(none.code == 2);
  CHECK(none.err.find("default.json: /reliability: expected a reliability section") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "x"));

  auto doc = nlohmann::json::parse(test::read_text(source_file("scenarios/moe-10t-16k.json")));
  doc["machine"] = source_file("topologies/llama3-24k.machine.json");
  doc["workload"]["model"] = source_file("workloads/moe-10t.json");
  doc["reliability"]["failure_rates"] = source_file("models/reliability/llama3-405b-54d.json");
  doc["reliability"]["spares"]["units"] = 0;
  auto zero = test::run_cli({"goodput", dir.write("zero.json", doc.dump()), "--out", dir.file("x")});
  CHECK(zero.code == 2);
  CHECK(zero.err.find("zero.json: /reliability/spares/units: a spare pool of 0 units") != std::string::npos);
  doc["reliability"]["spares"]["units"] = 8;
  doc["reliability"]["checkpoint"]["interval"] = "often";
  auto often = test::run_cli({"goodput", dir.write("often.json", doc.dump()), "--out", dir.file("x")});
  CHECK(often.code == 2);
  CHECK(often.err.find("often.json: /reliability/checkpoint/interval") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "x"));
}

TEST_CASE("scripted failures and degradations name things of the job, or exit 2 with their JSON path") {
  test::TempDir dir;
  auto doc = nlohmann::json::parse(test::read_text(source_file("scenarios/moe-10t-16k.json")));
  doc["machine"] = source_file("topologies/llama3-24k.machine.json");
  doc["workload"]["model"] = source_file("workloads/moe-10t.json");
  doc["reliability"]["failure_rates"] = source_file("models/reliability/llama3-405b-54d.json");
  auto run = [&](const nlohmann::json& d) {
    return test::run_cli({"goodput", dir.write("s.json", d.dump()), "--seeds", "1", "--out", dir.file("x")});
  };
  auto bad = doc;
  bad["reliability"]["events"] = {{{"at", "3h"}, {"component", "pdu"}, {"instance", "host0"}}};
  auto r = run(bad);
  CHECK(r.code == 2);
  CHECK(r.err.find("s.json: /reliability/events/0/component: no component \"pdu\"") != std::string::npos);
  bad["reliability"]["events"] = {{{"at", "3h"}, {"component", "host"}, {"instance", "host99999"}}};
  r = run(bad);
  CHECK(r.code == 2);
  CHECK(r.err.find("s.json: /reliability/events/0/instance: the job has no host named \"host99999\"") !=
        std::string::npos);
  bad = doc;
  bad["reliability"]["degradations"] = {{{"at", "1h"}, {"for", "1h"}, {"unit", "nowhere"}, {"slowdown", 2}}};
  r = run(bad);
  CHECK(r.code == 2);
  CHECK(r.err.find("s.json: /reliability/degradations/0/unit: no rank of the job runs on a unit named") !=
        std::string::npos);
  bad = doc;  // the horizon is 54 d: nothing scripted after it would ever happen
  bad["reliability"]["events"] = {{{"at", "55d"}, {"component", "host"}, {"instance", "host7"}}};
  r = run(bad);
  CHECK(r.code == 2);
  CHECK(
      r.err.find("s.json: /reliability/events/0/at: a failure at 4752000s is after the horizon (4665600s)") !=
      std::string::npos);
  bad = doc;
  bad["reliability"]["degradations"] = {{{"at", "60d"}, {"for", "1h"}, {"unit", "gpu0"}, {"slowdown", 2}}};
  r = run(bad);
  CHECK(r.code == 2);
  CHECK(r.err.find("s.json: /reliability/degradations/0/at: a degradation from 5184000s starts after the "
                   "horizon (4665600s)") != std::string::npos);
  bad = doc;  // a failure table naming one component twice
  auto rates = nlohmann::json::parse(test::read_text(source_file("models/reliability/llama3-405b-54d.json")));
  rates["components"].push_back(rates["components"][0]);
  bad["reliability"]["failure_rates"] = dir.write("rates.json", rates.dump());
  r = run(bad);
  CHECK(r.code == 2);
  CHECK(r.err.find("rates.json: /components/" + std::to_string(rates["components"].size() - 1) +
                   "/name: duplicate component name \"" + rates["components"][0]["name"].get<std::string>() +
                   "\"") != std::string::npos);
  bad = doc;
  bad["reliability"]["checkpoint"]["mode"] = "lazy";
  r = run(bad);
  CHECK(r.code == 2);
  CHECK(r.err.find("s.json: /reliability/checkpoint/mode") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "x"));

  // A valid scripted host failure and an asynchronous checkpoint: the failure is in the timeline, the
  // blocking cost is the snapshot's.
  auto good = doc;
  good["reliability"]["events"] = {{{"at", "3h"}, {"component", "host"}, {"instance", "host7"}}};
  good["reliability"]["checkpoint"]["mode"] = "async";
  good["reliability"]["checkpoint"]["snapshot_bandwidth"] = "200TB/s";
  r = run(good);
  REQUIRE(r.code == 0);
  const auto g = nlohmann::json::parse(test::read_text(dir.path() / "x" / "goodput.json"));
  CHECK(g["checkpoint_cost_s"].get<double>() ==
        zs::test::approx(g["checkpoint_state_bytes"].get<double>() / 200e12).epsilon(1e-12));
  bool found = false;
  for (const auto& e : g["timeline_first_seed"])
    found = found ||
            (e["at_s"] == 3 * 3600.0 && e["name"] == "host7" && e["action"] == "swap 8 spares (scripted)");
  CHECK(found);
}

namespace {

/// moe-ep-64's model on half of the disaggregated machine (dp 4 x pp 2 x tp 4: pods 0 and 1), the other
/// 32 units idle, one scripted failure of `component` `instance` at 1 h, spares from the idle units.
nlohmann::json half_machine_job(test::TempDir& dir, const std::string& component,
                                const std::string& instance) {
  auto doc = nlohmann::json::parse(test::read_text(source_file("scenarios/moe-ep-64.json")));
  doc["machine"] = source_file("topologies/disaggregated-64.machine.json");
  doc["workload"]["model"] = source_file("workloads/mixtral-8x7b.json");
  doc["workload"]["data_parallel"] = 4;
  doc["workload"]["expert_parallel"] = 4;
  doc["workload"]["global_batch"] = 16;
  doc["reliability"] = test::one_day_of_scripted_failures(dir.write("quiet.json", quiet_rates().dump()));
  doc["reliability"]["spares"] = {{"from", "idle-units"}, {"swap", "10min"}};
  doc["reliability"]["events"] = {{{"at", "1h"}, {"component", component}, {"instance", instance}}};
  return doc;
}

}  // namespace

TEST_CASE("re-placement onto idle units: the rank crosses to another pod, the circuits are reconfigured") {
  test::TempDir dir;
  auto r =
      test::run_cli({"goodput", dir.write("s.json", half_machine_job(dir, "gpu", "pod1-rack1-unit7").dump()),
                     "--out", dir.file("x"), "--quiet"});
  REQUIRE(r.code == 0);
  const auto g = nlohmann::json::parse(test::read_text(dir.path() / "x" / "goodput.json"));
  const auto& timeline = g["timeline_first_seed"];
  REQUIRE(timeline.size() == 1);
  // Pod 1 is full: the nearest idle unit is across an optical circuit, in pod 2.
  CHECK(timeline[0]["action"] == "re-place 1 rank onto idle units, optical circuits reconfigured (scripted)");
  CHECK(g["re_placement"]["idle_units"] == 32);
  CHECK(g["re_placement"]["optical_reconfiguration_s"].get<double>() == 0.01);  // palomar-ocs.json
  CHECK(g["lost_s"]["waiting"]["mean"].get<double>() == zs::test::approx(600.01).epsilon(1e-12));
  const auto& displaced = g["re_placement"]["displaced_iterations"];
  REQUIRE(displaced.size() == 1);
  CHECK(displaced[0]["left_island"] == true);
  const double healthy = g["iteration_time_s"], moved = displaced[0]["iteration_time_s"];
  // Its tensor-parallel peers now reach it over a NIC and a circuit instead of NVLink.
  CHECK(moved > 1.3 * healthy);
  // From the restart on, training runs at healthy/moved of its speed: the rest is lost as "degraded".
  const double restart_end = 3600 + 60 + 600.01 + 300;
  const double checkpoints_after =
      g["lost_s"]["checkpoint"]["mean"].get<double>() - g["checkpoint_cost_s"].get<double>();
  const double work_after = 86400 - restart_end - checkpoints_after;
  CHECK(g["lost_s"]["degraded"]["mean"].get<double>() ==
        zs::test::approx(work_after * (1 - healthy / moved)).epsilon(1e-9));
}

TEST_CASE(
    "a power domain's failure re-places every rank it fed, and power domains and idle units must exist") {
  test::TempDir dir;
  auto r = test::run_cli({"goodput", dir.write("p.json", half_machine_job(dir, "feed", "power0").dump()),
                          "--out", dir.file("x"), "--quiet"});
  REQUIRE(r.code == 0);
  const auto g = nlohmann::json::parse(test::read_text(dir.path() / "x" / "goodput.json"));
  REQUIRE(g["timeline_first_seed"].size() == 1);
  CHECK(g["timeline_first_seed"][0]["action"] ==
        "re-place 16 ranks onto idle units, optical circuits reconfigured (scripted)");  // pod 0's 2 racks

  auto whole = half_machine_job(dir, "feed", "power0");  // every unit busy: nothing idle to re-place onto
  whole["workload"] =
      nlohmann::json::parse(test::read_text(source_file("scenarios/moe-ep-64.json")))["workload"];
  whole["workload"]["model"] = source_file("workloads/mixtral-8x7b.json");
  r = test::run_cli({"goodput", dir.write("w.json", whole.dump()), "--out", dir.file("y")});
  CHECK(r.code == 2);
  CHECK(r.err.find(
            "w.json: /reliability/spares/from: machine \"disaggregated-64\" has 64 units and the job runs "
            "on all of them") != std::string::npos);
  auto no_power = half_machine_job(dir, "gpu", "pod1-rack1-unit7");
  no_power["machine"] = source_file("topologies/fat-tree-512-oversubscribed.machine.json");
  no_power["reliability"].erase("events");
  r = test::run_cli({"goodput", dir.write("n.json", no_power.dump()), "--out", dir.file("z")});
  CHECK(r.code == 2);
  CHECK(r.err.find("n.json: /reliability/failure_rates: component \"feed\"") != std::string::npos);
  CHECK(r.err.find("declares none") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "y"));
  CHECK_FALSE(fs::exists(dir.path() / "z"));
}

namespace {

/// moe-ep-64 with fidelity "collapsed" (which runs exact for it: its routing leaves no ranks to merge;
/// each degraded iteration takes about 5 s in a release build) with a rate table of
/// links and optical ports that practically never fail on their own, no checkpoint within the 10-day
/// horizon, and `events` scripted.
nlohmann::json fabric_job(test::TempDir& dir, const nlohmann::json& events) {
  auto doc = nlohmann::json::parse(test::read_text(source_file("scenarios/moe-ep-64.json")));
  doc["fidelity"] = "collapsed";
  doc["machine"] = source_file("topologies/disaggregated-64.machine.json");
  doc["workload"]["model"] = source_file("workloads/mixtral-8x7b.json");
  const auto rates = test::quiet_parts({{"cable", "link"}, {"port", "optical-port"}});
  doc["reliability"] = {{"failure_rates", dir.write("fabric.json", rates.dump())},
                        {"horizon", "10d"},
                        {"seeds", 1},
                        {"checkpoint", {{"interval", "1000d"}, {"bandwidth", "100GB/s"}}},
                        {"detection", "1min"},
                        {"restart", "5min"},
                        {"repair", "2d"},
                        {"spares", {{"units", 1}, {"swap", "10min"}}},
                        {"events", events}};
  return doc;
}

/// Runs `goodput` on `doc` (quietly, into dir/x), which must succeed, and returns its goodput.json.
nlohmann::json goodput_of(test::TempDir& dir, const nlohmann::json& doc) {
  const auto r =
      test::run_cli({"goodput", dir.write("s.json", doc.dump()), "--out", dir.file("x"), "--quiet"});
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(test::read_text(dir.path() / "x" / "goodput.json"));
}

}  // namespace

TEST_CASE("links and optical ports fail: the job runs without them until repaired, at the engine's pace") {
  test::TempDir dir;
  const nlohmann::json events = {
      {{"at", "1h"}, {"component", "cable"}, {"instance", "pod0-rack0-tor - pod0-spine"}},
      {{"at", "3d"}, {"component", "port"}, {"instance", "ocs0:0"}}};
  const auto g = goodput_of(dir, fabric_job(dir, events));
  // Every link but the 8 to the CXL pools carries traffic: per rack 8 NVLink and 8 NIC cables and 8 ToR
  // uplink cables (one bundle of width 8), 8 racks; and the 4 circuits of width 1 (2 ports each).
  CHECK(g["instances_by_component"]["cable"] == 8 * (8 + 8 + 8) + 4);
  CHECK(g["instances_by_component"]["port"] == 4 * 2);
  const auto& timeline = g["timeline_first_seed"];
  REQUIRE(timeline.size() == 2);
  CHECK(timeline[0]["action"] == "restart with 87.5% of the link until repaired (scripted)");
  CHECK(timeline[1]["action"] == "restart without the link until repaired (scripted)");  // ports all in use
  const auto& states = g["degraded_iterations"];
  REQUIRE(states.size() == 2);
  const double healthy = g["iteration_time_s"];
  double degraded = 0;  // each outage from the restart (6 min after its failure) to the repair (2 days)
  for (const auto& s : states) {
    const double slow = std::max(healthy, s["iteration_time_s"].get<double>());
    degraded += (2 * 86400 - 360) * (1 - healthy / slow);
  }
  CHECK(g["lost_s"]["degraded"]["mean"].get<double>() == zs::test::approx(degraded).epsilon(1e-9));
  CHECK(g["lost_s"]["detection"]["mean"].get<double>() == 120);
  // Losing one of pod 0's 4 circuits puts its traffic to the other pods on the rest.
  bool circuit = false;
  for (const auto& s : states)
    if (s["state"].get<std::string>().find("ocs0:0 out (100% of its link)") == 0) {
      circuit = true;
      CHECK(s["iteration_time_s"].get<double>() > healthy);
    }
  CHECK(circuit);
}

TEST_CASE("a unit's last link out cuts it off: a spare takes its rank, and no outage is simulated") {
  test::TempDir dir;
  const nlohmann::json events = {
      {{"at", "1h"}, {"component", "cable"}, {"instance", "pod0-rack0-unit0 - pod0-rack0-tor"}},
      {{"at", "2h"}, {"component", "cable"}, {"instance", "pod0-rack0-unit0 - pod0-rack0-scale-up"}}};
  const auto g = goodput_of(dir, fabric_job(dir, events));
  const auto& timeline = g["timeline_first_seed"];
  REQUIRE(timeline.size() == 2);
  CHECK(timeline[1]["action"] == "cuts off 1 rank(s): swap 1 spare (scripted)");
  CHECK(g["lost_s"]["waiting"]["mean"].get<double>() == 600);
  CHECK(g["degraded_iterations"].size() == 1);  // the NIC link alone; the cut is healed by the swap
}

TEST_CASE(
    "fabric components on a machine without those parts, or naming a part the job does not use, exit 2") {
  test::TempDir dir;
  auto no_ocs = fabric_job(dir, nlohmann::json::array());
  no_ocs["machine"] = source_file("topologies/fat-tree-512-oversubscribed.machine.json");
  auto r = test::run_cli({"goodput", dir.write("n.json", no_ocs.dump()), "--out", dir.file("x")});
  CHECK(r.code == 2);
  CHECK(r.err.find("n.json: /reliability/failure_rates: component \"port\" of ") != std::string::npos);
  CHECK(r.err.find("fails per optical port, but machine \"fat-tree-512-oversubscribed\" has no optical "
                   "circuit switch") != std::string::npos);
  const nlohmann::json events = {
      {{"at", "1h"}, {"component", "cable"}, {"instance", "pod0-rack0-unit0 - pod3-spine"}}};
  r = test::run_cli({"goodput", dir.write("b.json", fabric_job(dir, events).dump()), "--out", dir.file("y")});
  CHECK(r.code == 2);
  CHECK(r.err.find("b.json: /reliability/events/0/instance: the job has no cable named \"pod0-rack0-unit0 - "
                   "pod3-spine\"") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "x"));
  CHECK_FALSE(fs::exists(dir.path() / "y"));
}

namespace {

/// moe-ep-64 with its optimizer state offloaded to the rack's CXL pool, fidelity "collapsed", with a
/// rate table of memory pools that practically never fail on their own and `events` scripted.
nlohmann::json pool_job(test::TempDir& dir, const nlohmann::json& events) {
  auto doc = fabric_job(dir, events);
  doc["workload"]["offload_optimizer"] = true;
  const auto rates = test::quiet_parts({{"cxl", "memory-pool"}});
  doc["reliability"]["failure_rates"] = dir.write("pools.json", rates.dump());
  return doc;
}

}  // namespace

TEST_CASE(
    "a memory pool fails: its ranks' data moves to the nearest pool until repaired, at the engine's pace") {
  test::TempDir dir;
  const nlohmann::json events = {{{"at", "1h"}, {"component", "cxl"}, {"instance", "pod0-rack0-pool0"}}};
  const auto g = goodput_of(dir, pool_job(dir, events));
  CHECK(g["instances_by_component"]["cxl"] == 8);  // every rack's pool holds its 8 ranks' optimizer state
  const auto& timeline = g["timeline_first_seed"];
  REQUIRE(timeline.size() == 1);
  CHECK(timeline[0]["action"] ==
        "restart with its ranks' data in the nearest pools with room until repaired (scripted)");
  const auto& states = g["degraded_iterations"];
  REQUIRE(states.size() == 1);
  CHECK(states[0]["state"] ==
        "memory pool pod0-rack0-pool0 out (its ranks' data in the nearest pools with room)");
  // Rack 0's optimizer traffic crosses the rack's NICs to rack 1's pool, whose ports it shares: slower.
  const double healthy = g["iteration_time_s"], slow = states[0]["iteration_time_s"];
  CHECK(slow > 1.1 * healthy);
  CHECK(g["lost_s"]["degraded"]["mean"].get<double>() ==
        zs::test::approx((2 * 86400 - 360) * (1 - healthy / slow)).epsilon(1e-9));
  CHECK(g["lost_s"]["recompute"]["mean"].get<double>() == 3600);
}

TEST_CASE("memory-pool failures without pools, or with checkpoints held only in pools, exit 2") {
  test::TempDir dir;
  auto no_pools = pool_job(dir, nlohmann::json::array());
  no_pools["machine"] = source_file("topologies/fat-tree-512-oversubscribed.machine.json");
  no_pools["workload"]["offload_optimizer"] = false;
  auto r = test::run_cli({"goodput", dir.write("n.json", no_pools.dump()), "--out", dir.file("x")});
  CHECK(r.code == 2);
  CHECK(r.err.find("n.json: /reliability/failure_rates: component \"cxl\" of ") != std::string::npos);
  CHECK(r.err.find("fails per memory pool, but machine \"fat-tree-512-oversubscribed\" has no memory pool") !=
        std::string::npos);
  auto in_pools = pool_job(dir, nlohmann::json::array());
  in_pools["reliability"]["checkpoint"] = {{"interval", "1000d"}, {"target", "memory-pools"}};
  r = test::run_cli({"goodput", dir.write("c.json", in_pools.dump()), "--out", dir.file("y")});
  CHECK(r.code == 2);
  CHECK(r.err.find("c.json: /reliability/checkpoint/target: checkpoints held only in memory pools are lost "
                   "when a pool fails, and component \"cxl\" of ") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(dir.path() / "x"));
  CHECK_FALSE(fs::exists(dir.path() / "y"));
}

TEST_CASE("detection and restart left out default to 10 minutes each, written in config.json") {
  test::TempDir dir;
  const nlohmann::json events = {{{"at", "1h"}, {"component", "cxl"}, {"instance", "pod0-rack0-pool0"}}};
  auto doc = pool_job(dir, events);
  doc["reliability"].erase("detection");
  doc["reliability"].erase("restart");
  const auto g = goodput_of(dir, doc);
  CHECK(g["lost_s"]["detection"]["mean"].get<double>() == 600);
  CHECK(g["lost_s"]["restart"]["mean"].get<double>() == 600);
  const auto config = nlohmann::json::parse(test::read_text(dir.path() / "x" / "config.json"));
  CHECK(config["reliability"]["detection"] == config["reliability"]["restart"]);
  CHECK(config["reliability"]["detection"].get<std::string>().find("600") == 0);
}

TEST_CASE(
    "a horizon or failure table asking for too many events is refused before it runs, one line, exit 2") {
  test::TempDir dir;
  auto doc = nlohmann::json::parse(test::read_text(source_file("scenarios/hgx-3d-parallel.json")));
  doc["machine"] = source_file("topologies/hgx-h100-8.machine.json");
  doc["workload"]["model"] = source_file("workloads/gpt3-1.3b.json");
  auto rates = nlohmann::json::parse(test::read_text(source_file("models/reliability/llama3-405b-54d.json")));
  doc["reliability"] = {{"failure_rates", source_file("models/reliability/llama3-405b-54d.json")},
                        {"horizon", "1e12d"},
                        {"seeds", 2},
                        {"checkpoint", {{"interval", "daly"}, {"bandwidth", "2TB/s"}}},
                        {"detection", "5min"},
                        {"restart", "10min"},
                        {"repair", "2d"}};
  const std::string long_horizon = dir.write("long.json", doc.dump());
  auto r = test::run_cli({"goodput", long_horizon, "--out", dir.file("a"), "--quiet"});
  CHECK(r.code == 2);
  CHECK(r.err.rfind(
            "zettasim: error: " + long_horizon + ": /reliability/horizon: one seed of this horizon expects ",
            0) == 0);
  CHECK(r.err.find("over the limit of 1e+06") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "a"));

  rates["observed"]["duration"] = "54us";  // a typo for 54d: 10^11 times the rate
  doc["reliability"]["failure_rates"] = dir.write("typo-rates.json", rates.dump());
  doc["reliability"]["horizon"] = "54d";
  const std::string typo = dir.write("typo.json", doc.dump());
  r = test::run_cli({"goodput", typo, "--out", dir.file("b"), "--quiet"});
  CHECK(r.code == 2);
  CHECK(r.err.find("/reliability/horizon: one seed of this horizon expects") != std::string::npos);

  // The limit can be raised; a reasonable run is untouched by it.
  doc["reliability"]["failure_rates"] = source_file("models/reliability/llama3-405b-54d.json");
  r = test::run_cli({"goodput", dir.write("ok.json", doc.dump()), "--out", dir.file("c"), "--quiet",
                     "--max-events", "1000"});
  CHECK(r.code == 0);
}
