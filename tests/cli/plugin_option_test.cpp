// --plugin and a scenario's "plugins": plugin policies are listed, used by name, recorded in config.json,
// timed as their closed forms say, and every way a plugin fails is one line and exit 2.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "support/quiet_rates.hpp"
#include "support/run_cli.hpp"
#include "support/scenario_files.hpp"

using namespace zs;

namespace {

const std::string kPlacementPlugin = std::string(ZS_EXAMPLE_PLUGIN_DIR) + "/zs_example_placement.so";
const std::string kCollectivePlugin = std::string(ZS_EXAMPLE_PLUGIN_DIR) + "/zs_example_collective.so";
const std::string kRecoveryPlugin = std::string(ZS_EXAMPLE_PLUGIN_DIR) + "/zs_example_recovery.so";
const std::string kThrowingPlugin = std::string(ZS_FAULTY_PLUGIN_DIR) + "/zs_faulty_plugin_policy_throws.so";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The iteration time of the test machine's all-reduce benchmark of `size` under the example collective.
double direct_all_reduce_time(const std::string& size) {
  test::TempDir dir;
  test::ScenarioFiles files;
  files.scenario["workload"] = {{"generator", "collective"}, {"collective", "all-reduce"}, {"size", size}};
  files.scenario["policies"]["collective"] = "direct-all-reduce";
  const auto run = test::run_cli(
      {"run", files.write(dir), "--plugin", kCollectivePlugin, "--out", dir.file("out"), "--quiet"});
  REQUIRE(run.code == 0);
  return nlohmann::json::parse(test::read_text(dir.path() / "out" / "summary.json"))["iteration_time_s"];
}

}  // namespace

TEST_CASE("zettasim list --plugin lists the plugin's policies and the plugin") {
  const auto r = test::run_cli({"list", "--plugin", kPlacementPlugin, "--plugin", kCollectivePlugin});
  REQUIRE(r.code == 0);
  CHECK(contains(r.out, "placement domain-packed: "));
  CHECK(contains(r.out, "collective direct-all-reduce: "));
  CHECK(contains(r.out, "[plugin example-collective]"));
  CHECK(contains(r.out, "plugins:\n  example-placement: /"));
  CHECK(!contains(test::run_cli({"list"}).out, "domain-packed"));
}

TEST_CASE("a scenario's plugins load from its folder, and config.json records them") {
  test::TempDir dir;
  test::ScenarioFiles files;
  files.scenario["plugins"] = {kPlacementPlugin};
  files.scenario["policies"]["placement"] = "domain-packed";
  const std::string listed = files.write(dir);
  const auto run = test::run_cli({"run", listed, "--out", dir.file("listed"), "--quiet"});
  REQUIRE(run.code == 0);
  const auto config = nlohmann::json::parse(test::read_text(dir.path() / "listed" / "config.json"));
  CHECK(config["plugins"] == files.scenario["plugins"]);  // as the file lists them
  CHECK(config["derived"]["plugins"] ==
        nlohmann::json::array({{{"name", "example-placement"}, {"file", kPlacementPlugin}}}));
  // The same policy from --plugin gives the same results; without the plugin the name is unknown.
  files.scenario.erase("plugins");
  const std::string named = dir.write("named.json", files.scenario.dump());
  REQUIRE(test::run_cli({"run", named, "--plugin", kPlacementPlugin, "--out", dir.file("named"), "--quiet"})
              .code == 0);
  CHECK(test::read_text(dir.path() / "listed" / "summary.json") ==
        test::read_text(dir.path() / "named" / "summary.json"));
  const auto unknown = test::run_cli({"run", named, "--out", dir.file("unknown"), "--quiet"});
  CHECK(unknown.code == 2);
  CHECK(contains(unknown.err, "/policies/placement: unknown placement policy \"domain-packed\""));
}

TEST_CASE("the example collective plugin's all-reduce takes its closed form: 2 steps of (n-1)/n S/B") {
  // 4 ranks on 100 GB/s links of 1 us to one switch (alpha 2 us per transfer): each member sends its 3
  // shards of S/4 at once, then 3 reduced shards: t = 2 alpha + 2 (n-1)/n S/B, where the ring takes
  // 2(n-1) alpha + 2(n-1)/n S/B.
  const double alpha = 2e-6, bandwidth = 100e9;
  const double large = 64.0 * 1024 * 1024;
  CHECK(direct_all_reduce_time("64MiB") ==
        doctest::Approx(2 * alpha + 1.5 * large / bandwidth).epsilon(0.01));
  CHECK(direct_all_reduce_time("64B") == doctest::Approx(2 * alpha + 1.5 * 64 / bandwidth).epsilon(0.01));
}

TEST_CASE(
    "a failing plugin is one line naming it and exit 2: at load, in the scenario, or in a policy call") {
  test::TempDir dir;
  test::ScenarioFiles files;
  const std::string scenario = files.write(dir);
  const auto missing = test::run_cli({"run", scenario, "--plugin", dir.file("nope.so")});
  CHECK(missing.code == 2);
  CHECK(missing.err == "zettasim: error: " + dir.file("nope.so") +
                           ": no such plugin file (expected a shared library, PATH.so)\n");

  files.scenario["plugins"] = {"nope.so"};
  const auto listed = test::run_cli({"run", files.write(dir)});
  CHECK(listed.code == 2);
  CHECK(contains(listed.err, "scenario.json: /plugins/0: " + dir.file("nope.so") + ": no such plugin file"));

  files.scenario["plugins"] = {kThrowingPlugin};
  files.scenario["policies"]["placement"] = "throwing-placement";
  const auto placement = test::run_cli({"run", files.write(dir), "--out", dir.file("p")});
  CHECK(placement.code == 2);
  CHECK(placement.err == "zettasim: error: " + kThrowingPlugin +
                             ": placement policy \"throwing-placement\" of this plugin failed: deliberate "
                             "failure in place()\n");
  files.scenario["policies"]["placement"] = "linear";
  files.scenario["policies"]["collective"] = "throwing-collective";
  const auto collective = test::run_cli({"run", files.write(dir), "--out", dir.file("c")});
  CHECK(collective.code == 2);
  CHECK(contains(collective.err,
                 "collective policy \"throwing-collective\" of this plugin failed: deliberate "
                 "failure in schedule()"));
  CHECK(!std::filesystem::exists(dir.file("p")));
  CHECK(!std::filesystem::exists(dir.file("c")));
}

namespace {

/// quiet_rates' unit component alone (the test machine has no power domains).
nlohmann::json gpu_rates() {
  auto rates = test::quiet_rates();
  rates["components"].erase(1);
  return rates;
}

/// The test scenario's 4 data-parallel ranks over a day, unit0 failing at 1 h (repaired after 2 days,
/// past the horizon), 2 hot spares swapped in 10 min, recovery policy `recovery`, the example recovery
/// plugin listed.
nlohmann::json failing_job(const test::TempDir& dir, const std::string& recovery) {
  test::ScenarioFiles files;
  files.scenario["plugins"] = {kRecoveryPlugin};
  files.scenario["workload"]["generator"] = "megatron";  // it states what each rank checkpoints
  auto& reliability = files.scenario["reliability"];
  reliability = test::one_day_of_scripted_failures(dir.write("quiet.json", gpu_rates().dump()));
  reliability["spares"] = {{"units", 2}, {"swap", "10min"}};
  reliability["recovery"] = recovery;
  reliability["events"] = {{{"at", "1h"}, {"component", "gpu"}, {"instance", "unit0"}}};
  return files.scenario;
}

/// goodput.json of `scenario` (written with the test scenario's files).
nlohmann::json goodput_of(const test::TempDir& dir, const nlohmann::json& scenario, const std::string& out) {
  test::ScenarioFiles files;
  files.scenario = scenario;
  const auto r = test::run_cli({"goodput", files.write(dir), "--out", dir.file(out), "--quiet"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(test::read_text(dir.path() / out / "goodput.json"));
}

}  // namespace

TEST_CASE("a recovery policy is chosen by name: spares, a shrink or the repair, a plugin's among them") {
  test::TempDir dir;
  const auto action = [](const nlohmann::json& g) { return g["timeline_first_seed"][0]["action"]; };
  const auto waiting = [](const nlohmann::json& g) { return g["lost_s"]["waiting"]["mean"].get<double>(); };
  // The built-in shrink takes a spare while one is in hand; the plugin's shrink-first drops the failed
  // rank's replica instead and keeps the spares: no wait, a quarter of the throughput lost from the
  // restart (1 h + 1 min + 5 min) to the horizon, but for the checkpoints' few milliseconds.
  const auto spares_first = goodput_of(dir, failing_job(dir, "shrink"), "shrink");
  CHECK(action(spares_first) == "swap 1 spare (scripted)");
  CHECK(waiting(spares_first) == 600);
  const auto shrink_first = goodput_of(dir, failing_job(dir, "shrink-first"), "shrink-first");
  CHECK(action(shrink_first) == "shrink by 1 replica(s) until repaired (scripted)");
  CHECK(waiting(shrink_first) == 0);
  CHECK(shrink_first["lost_s"]["degraded"]["mean"].get<double>() ==
        doctest::Approx((86400 - 3600 - 60 - 300) / 4.0).epsilon(1e-4));
  const auto config = nlohmann::json::parse(test::read_text(dir.path() / "shrink-first" / "config.json"));
  CHECK(config["reliability"]["recovery"] == "shrink-first");
  // replace (the default) swaps a spare too; wait-for-repair waits until the horizon.
  auto replace = failing_job(dir, "replace");
  replace["reliability"].erase("recovery");
  CHECK(action(goodput_of(dir, replace, "replace")) == "swap 1 spare (scripted)");
  const auto waited = goodput_of(dir, failing_job(dir, "wait-for-repair"), "wait");
  CHECK(action(waited) == "wait for repair (scripted)");
  CHECK(waiting(waited) == 86400 - 3600 - 60);
}

TEST_CASE("an unknown recovery policy, or one that shrinks a job without replicas, is exit 2 at its path") {
  test::TempDir dir;
  test::ScenarioFiles files;
  files.scenario = failing_job(dir, "shrink-first");
  files.scenario.erase("plugins");
  const auto unknown = test::run_cli({"goodput", files.write(dir), "--out", dir.file("u")});
  CHECK(unknown.code == 2);
  CHECK(contains(unknown.err,
                 "scenario.json: /reliability/recovery: unknown recovery policy \"shrink-first\" "
                 "(known: replace, shrink, wait-for-repair)"));
  files.scenario = failing_job(dir, "shrink");
  files.scenario["workload"]["data_parallel"] = 1;
  files.scenario["workload"]["global_batch"] = 1;
  const auto single = test::run_cli({"goodput", files.write(dir), "--out", dir.file("s")});
  CHECK(single.code == 2);
  CHECK(contains(single.err,
                 "scenario.json: /reliability/recovery: recovery policy \"shrink\" may shrink the "
                 "job's data-parallel replicas, but the job has no \"dp\" axis of 2 or more"));
  CHECK(!std::filesystem::exists(dir.file("u")));
  CHECK(!std::filesystem::exists(dir.file("s")));
}
