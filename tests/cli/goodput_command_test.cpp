// `zettasim goodput`: a shipped scenario's days of training under failures, deterministic; bad sections
// exit 2.
#include <doctest/doctest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "support/approx.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;
namespace fs = std::filesystem;

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
