// The command line: exit codes, messages, atomic outputs, determinism, the golden default run.
#include <doctest/doctest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "support/approx.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;
namespace fs = std::filesystem;

namespace {
/// Compares two JSON values: numbers within a relative tolerance, everything else exactly.
void check_close(const nlohmann::json& got, const nlohmann::json& want, const std::string& path) {
  CAPTURE(path);
  if (want.is_number()) {
    REQUIRE(got.is_number());
    double g = got.get<double>(), w = want.get<double>();
    CHECK(std::fabs(g - w) <= 1e-9 * std::max(std::fabs(w), 1e-300));
  } else if (want.is_object()) {
    REQUIRE(got.is_object());
    CHECK(got.size() == want.size());
    for (const auto& [k, v] : want.items()) {
      REQUIRE(got.contains(k));
      check_close(got[k], v, path + "/" + k);
    }
  } else if (want.is_array()) {
    REQUIRE(got.is_array());
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) check_close(got[i], want[i], path + "/" + std::to_string(i));
  } else {
    CHECK(got == want);
  }
}
}  // namespace

TEST_CASE("--help, --version and usage errors") {
  auto help = test::run_cli({"--help"});
  CHECK(help.code == 0);
  CHECK(help.out.find("run") != std::string::npos);
  auto run_help = test::run_cli({"run", "--help"});
  CHECK(run_help.code == 0);
  CHECK(run_help.out.find("--out") != std::string::npos);
  auto version = test::run_cli({"--version"});
  CHECK(version.code == 0);
  CHECK(version.out.find("zettasim 0.1.0") != std::string::npos);
  CHECK(test::run_cli({"frobnicate"}).code == 2);
  CHECK(test::run_cli({}).code == 2);
  CHECK(test::run_cli({"run", "a.json", "--bogus"}).code == 2);
}

TEST_CASE("list shows the built-in policies and generators") {
  auto r = test::run_cli({"list"});
  CHECK(r.code == 0);
  CHECK(r.out.find("collective ring") != std::string::npos);
  CHECK(r.out.find("single-switch") != std::string::npos);
}

TEST_CASE("list names each entry's parameter table, and params prints every one of them") {
  const auto r = test::run_cli({"list"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("collective in-network: ") != std::string::npos);
  CHECK(r.out.find("[parameters: collective-chunking]\n  collective rings") != std::string::npos);
  CHECK(r.out.find("placement from-file: ") != std::string::npos);
  CHECK(r.out.find("[parameters: placement.from-file]") != std::string::npos);
  CHECK(r.out.find("fat-tree: folded Clos of 1-3 switch levels with oversubscription per level "
                   "[parameters: topology.fat-tree]") != std::string::npos);
  CHECK(r.out.find("[parameters: workload.megatron]") != std::string::npos);
  size_t tables = 0;
  const std::string mark = "[parameters: ";
  for (size_t at = r.out.find(mark); at != std::string::npos; at = r.out.find(mark, at + 1)) {
    const std::string type = r.out.substr(at + mark.size(), r.out.find(']', at) - at - mark.size());
    CAPTURE(type);
    const auto params = test::run_cli({"params", type});
    CHECK(params.code == 0);
    CHECK(params.out.find(type) != std::string::npos);
    ++tables;
  }
  CHECK(tables == 1 + 4 + 8 + 3);  // from-file; four pipelined collectives; the generators
}

TEST_CASE("bad input exits 2 with one line naming the file, and writes no output folder") {
  test::TempDir dir;
  std::string bad = dir.write("bad.json", "{\"kind\": \"scenario\", \"name\": }");
  auto r = test::run_cli({"run", bad, "--out", dir.file("out")});
  CHECK(r.code == 2);
  CHECK(r.err == "zettasim: error: " + bad +
                     ": malformed JSON at line 1, column 30: syntax error while parsing "
                     "value - unexpected '}'; expected '[', '{', or a literal\n");
  CHECK_FALSE(fs::exists(dir.file("out")));
  auto missing = test::run_cli({"run", dir.file("nope.json"), "--out", dir.file("out")});
  CHECK(missing.code == 2);
  CHECK(missing.err ==
        "zettasim: error: " + dir.file("nope.json") + ": cannot read file (missing or unreadable)\n");
  CHECK_FALSE(fs::exists(dir.file("out")));
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++entries;
  CHECK(entries == 1);  // only bad.json: no staging folder left behind
}

TEST_CASE("the embedded default scenario runs and matches its golden summary") {
  test::TempDir dir;
  auto r = test::run_cli({"run", "--out", dir.file("default"), "--quiet"});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  auto summary = nlohmann::json::parse(test::read_text(dir.path() / "default" / "summary.json"));
  auto config = nlohmann::json::parse(test::read_text(dir.path() / "default" / "config.json"));
  CHECK(config["workload"]["model"]["name"] == "gpt3-1.3b");
  CHECK(config["machine"]["models"]["gpu"]["hbm_bandwidth"] == "3.35TB/s");
  // The report's identity: iteration = compute + exposed communication (+ idle, zero here).
  const auto& part = summary["critical_rank_breakdown_s"];
  double sum = part["compute"].get<double>() + part["exposed_communication"].get<double>() +
               part["memory_stall"].get<double>() + part["idle"].get<double>();
  CHECK(summary["iteration_time_s"].get<double>() == zs::test::approx(sum).epsilon(1e-12));
  CHECK(part["idle"].get<double>() == zs::test::approx(0.0));
  // One communicator (dp) carries every collective here: its exposed time is all of it.
  CHECK(summary["critical_rank_exposed_communication_by_communicator_s"]["dp"].get<double>() ==
        zs::test::approx(part["exposed_communication"].get<double>()).epsilon(1e-12));
  auto golden =
      nlohmann::json::parse(test::read_text(fs::path(ZS_SOURCE_DIR) / "tests/golden/default/summary.json"));
  check_close(summary, golden, "");
}

TEST_CASE("the same scenario twice gives byte-identical results") {
  test::TempDir dir;
  REQUIRE(test::run_cli({"run", "--out", dir.file("a"), "--quiet"}).code == 0);
  REQUIRE(test::run_cli({"run", "--out", dir.file("b"), "--quiet"}).code == 0);
  for (const char* f : {"summary.json", "config.json", "report.txt"}) {
    CAPTURE(f);
    CHECK(test::read_text(dir.path() / "a" / f) == test::read_text(dir.path() / "b" / f));
  }
}

TEST_CASE("the shipped scenarios/default.json is the embedded one") {
  test::TempDir dir;
  std::string shipped = std::string(ZS_SOURCE_DIR) + "/scenarios/default.json";
  REQUIRE(test::run_cli({"run", shipped, "--out", dir.file("disk"), "--quiet"}).code == 0);
  REQUIRE(test::run_cli({"run", "--out", dir.file("embedded"), "--quiet"}).code == 0);
  CHECK(test::read_text(dir.path() / "disk" / "summary.json") ==
        test::read_text(dir.path() / "embedded" / "summary.json"));
}

TEST_CASE("run --fidelity overrides the scenario's, and exact fidelity refuses a job beyond its size") {
  test::TempDir dir;
  const std::string hgx = std::string(ZS_SOURCE_DIR) + "/scenarios/hgx-3d-parallel.json";
  auto r = test::run_cli({"run", hgx, "--out", dir.file("c"), "--quiet", "--fidelity", "collapsed"});
  REQUIRE(r.code == 0);
  auto summary = nlohmann::json::parse(test::read_text(dir.path() / "c" / "summary.json"));
  CHECK(summary["fidelity"] == "collapsed");
  CHECK(summary["collapsed"]["simulated_ranks"] == 2);
  CHECK(summary["collapsed"]["ranks_per_representative"] == 4);
  auto config = nlohmann::json::parse(test::read_text(dir.path() / "c" / "config.json"));
  CHECK(config["fidelity"] == "collapsed");
  CHECK(test::read_text(dir.path() / "c" / "report.txt").find("collapsed: 2 of 8 ranks simulated") !=
        std::string::npos);

  // Expert routing drawn per call leaves no two ranks of moe-ep-64 alike: collapsed runs exact, and says so.
  const std::string moe = std::string(ZS_SOURCE_DIR) + "/scenarios/moe-ep-64.json";
  r = test::run_cli({"run", moe, "--out", dir.file("m"), "--quiet", "--fidelity", "collapsed"});
  REQUIRE(r.code == 0);
  summary = nlohmann::json::parse(test::read_text(dir.path() / "m" / "summary.json"));
  CHECK(summary["fidelity"] == "exact");
  CHECK(summary["collapsed_not_applied"].get<std::string>().find("nothing to merge") != std::string::npos);
  CHECK_FALSE(summary.contains("collapsed"));
  CHECK(test::read_text(dir.path() / "m" / "report.txt").find("collapsed was asked for: expert routing") !=
        std::string::npos);

  r = test::run_cli({"run", hgx, "--out", dir.file("x"), "--quiet", "--fidelity", "fast"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--fidelity") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "x"));

  // Collapsed costs use the circuits as set up at the start: a scripted reconfiguration is refused.
  const std::string ocs = std::string(ZS_SOURCE_DIR) + "/scenarios/disaggregated-ocs.json";
  r = test::run_cli({"run", ocs, "--out", dir.file("ocs"), "--quiet", "--fidelity", "collapsed"});
  CHECK(r.code == 2);
  CHECK(r.err.find("collapsed fidelity does not model optical circuit reconfigurations") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "ocs"));

  const std::string big = std::string(ZS_SOURCE_DIR) + "/scenarios/moe-10t-512k.json";
  r = test::run_cli({"run", big, "--out", dir.file("big"), "--quiet", "--fidelity", "exact"});
  CHECK(r.code == 2);
  CHECK(r.err.find("exact fidelity would replay 1.48e+09 rank-ops") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "big"));
}

TEST_CASE("the optical reconfiguration scenario holds transfers for its circuits and records the event") {
  test::TempDir dir;
  std::string shipped = std::string(ZS_SOURCE_DIR) + "/scenarios/disaggregated-ocs.json";
  REQUIRE(test::run_cli({"run", shipped, "--out", dir.file("ocs"), "--quiet"}).code == 0);
  auto summary = nlohmann::json::parse(test::read_text(dir.path() / "ocs" / "summary.json"));
  auto config = nlohmann::json::parse(test::read_text(dir.path() / "ocs" / "config.json"));
  CHECK(summary["simulated"]["optical_circuit_waits"].get<int>() > 0);
  CHECK(config["circuit_reconfigurations"][0]["at"] == "0.1s");
  CHECK(config["circuit_reconfigurations"][0]["optical_switch"] == "ocs0");
  CHECK(config["derived"]["machine"]["optical_switches"] == 2);
}

TEST_CASE("an unknown command is named with the known ones, and --help shows flags as flags") {
  auto r = test::run_cli({"frobnicate"});
  CHECK(r.code == 2);
  CHECK(r.err.rfind("zettasim: error: command line: unknown command \"frobnicate\" (known: run, goodput,",
                    0) == 0);
  CHECK(r.err.find("sweep-point") ==
        std::string::npos);  // the commands zettasim starts itself are not offered
  r = test::run_cli({"trace", "import", "x"});
  CHECK(r.code == 2);
  CHECK(r.err.find("unknown command \"trace import\" (known: gen, inspect, export-chakra)") !=
        std::string::npos);
  r = test::run_cli({"plan", "--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("--no-torchrun ") != std::string::npos);
  CHECK(r.out.find("{false}") == std::string::npos);
  r = test::run_cli({"trace", "--help"});
  CHECK(r.out.find("import") == std::string::npos);
}
