// `zettasim regress`: cases run as processes, each metric checked against its baseline in its direction and
// tolerance, missing baselines, new metrics and failing cases reported as such, baselines rewritten
// atomically, and JUnit XML whose counts are the table's.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "batch/regression_runner.hpp"
#include "support/run_cli.hpp"
#include "support/run_zettasim.hpp"
#include "support/scenario_files.hpp"

using namespace zs;
namespace fs = std::filesystem;

namespace {

/// The test scenario and a suite over it: two cases (ring and double binary tree), three metrics.
struct SmallSuite {
  test::TempDir dir;
  test::ScenarioFiles scenario;
  nlohmann::json suite = {
      {"kind", "regression-suite"},
      {"name", "small"},
      {"metrics",
       {{{"metric", "iteration_time_s"}, {"direction", "lower-is-better"}, {"relative_tolerance", 0.02}},
        {{"metric", "mfu"}, {"direction", "higher-is-better"}, {"relative_tolerance", 0.02}},
        {{"metric", "/critical_rank_breakdown_s/compute"},
         {"direction", "both"},
         {"absolute_tolerance", 1e-6}}}},
      {"cases",
       {{{"name", "ring"}, {"scenario", "scenario.json"}},
        {{"name", "tree"}, {"scenario", "scenario.json"}, {"collective", "double-binary-tree"}}}}};

  SmallSuite() { scenario.write(dir); }

  std::string write() const { return dir.write("suite.json", suite.dump(2)); }
  fs::path baselines() const { return dir.path() / "small.baselines.json"; }

  batch::RegressionRun run(bool update = false) const {
    batch::RegressionOptions o;
    o.suite = write();
    o.update_baselines = update;
    o.jobs = 2;
    o.executable = ZS_ZETTASIM;
    return batch::run_regression(core::DiskFileSource(), o);
  }

  nlohmann::json read_baselines() const { return nlohmann::json::parse(test::read_text(baselines())); }
  void write_baselines(const nlohmann::json& b) const { dir.write("small.baselines.json", b.dump(2)); }
};

std::vector<std::string> verdicts(const batch::RegressionRun& run) {
  std::vector<std::string> out;
  for (const auto& c : run.outcome.checks) out.push_back(scenario::to_string(c.verdict));
  return out;
}

/// Checks the JUnit file with Python's XML parser: well-formed, and the counts given.
void check_junit(const std::string& file, int tests, int failures, int errors) {
  const std::string command = std::string(ZS_PYTHON) + " " + ZS_SOURCE_DIR + "/tests/batch/check_junit.py " +
                              file + " " + std::to_string(tests) + " " + std::to_string(failures) + " " +
                              std::to_string(errors);
  CHECK(std::system(command.c_str()) == 0);
}

}  // namespace

TEST_CASE("regress with no baselines reports every metric as without baseline, and fails") {
  SmallSuite s;
  const auto run = s.run();
  CHECK(verdicts(run) == std::vector<std::string>(6, "no baseline"));
  CHECK(!run.outcome.passed());
  CHECK(!fs::exists(s.baselines()));
}

TEST_CASE("--update-baselines records every value atomically, after which every metric holds") {
  SmallSuite s;
  const auto update = s.run(true);
  CHECK(update.outcome.baseline_changes.size() == 6);
  const auto b = s.read_baselines();
  CHECK(b["kind"] == "regression-baselines");
  CHECK(b["suite"] == "small");
  CHECK(b["cases"]["ring"]["iteration_time_s"] == update.outcome.checks[0].now.value());
  for (const auto& entry : fs::directory_iterator(s.dir.path()))
    CHECK(entry.path().filename().string().find(".tmp-") == std::string::npos);
  const auto again = s.run();
  CHECK(verdicts(again) == std::vector<std::string>(6, "held"));
  CHECK(again.outcome.passed());
  CHECK(s.run(true).outcome.baseline_changes.empty());
}

TEST_CASE("a metric moved the worse way beyond its tolerance regresses, the better way improves") {
  SmallSuite s;
  s.run(true);
  auto b = s.read_baselines();
  const double time = b["cases"]["ring"]["iteration_time_s"];
  const double mfu = b["cases"]["ring"]["mfu"];
  const double compute = b["cases"]["ring"]["/critical_rank_breakdown_s/compute"];
  b["cases"]["ring"]["iteration_time_s"] = time / 1.03;  // now 3% slower than the baseline
  b["cases"]["ring"]["mfu"] = mfu * 1.03;                // now lower
  b["cases"]["ring"]["/critical_rank_breakdown_s/compute"] = compute + 2e-6;  // moved down, "both"
  b["cases"]["tree"]["iteration_time_s"] = double(b["cases"]["tree"]["iteration_time_s"]) * 1.03;  // faster
  b["cases"]["tree"]["mfu"] = double(b["cases"]["tree"]["mfu"]) / 1.03;                            // higher
  s.write_baselines(b);
  const auto run = s.run();
  CHECK(verdicts(run) ==
        std::vector<std::string>{"regressed", "regressed", "regressed", "improved", "improved", "held"});
  CHECK(run.outcome.checks[0].change_percent().value() == doctest::Approx(3.0));
  CHECK(!run.outcome.passed());
}

TEST_CASE("a change of exactly the tolerance holds, one just beyond it regresses") {
  SmallSuite s;
  s.run(true);
  auto b = s.read_baselines();
  const double time = b["cases"]["ring"]["iteration_time_s"];
  b["cases"]["ring"]["iteration_time_s"] = time / 1.02;  // +2% exactly: (now - b) / b = 0.02
  b["cases"]["tree"]["iteration_time_s"] = double(b["cases"]["tree"]["iteration_time_s"]) / 1.0201;
  s.write_baselines(b);
  const auto run = s.run();
  CHECK(scenario::to_string(run.outcome.checks[0].verdict) == "held");
  CHECK(scenario::to_string(run.outcome.checks[3].verdict) == "regressed");
}

TEST_CASE("a new metric and a new case are reported without baseline, and a stale baseline is named") {
  SmallSuite s;
  s.run(true);
  s.suite["metrics"].push_back(
      {{"metric", "tokens_per_second"}, {"direction", "higher-is-better"}, {"relative_tolerance", 0.01}});
  s.suite["cases"].push_back(
      {{"name", "recursive"}, {"scenario", "scenario.json"}, {"collective", "recursive"}});
  auto b = s.read_baselines();
  b["cases"]["gone"]["iteration_time_s"] = 1.0;
  s.write_baselines(b);
  const auto run = s.run();
  CHECK(verdicts(run) == std::vector<std::string>{"held", "held", "held", "no baseline", "held", "held",
                                                  "held", "no baseline", "no baseline", "no baseline",
                                                  "no baseline", "no baseline"});
  CHECK(run.outcome.stale == std::vector<std::string>{"gone: iteration_time_s"});
}

TEST_CASE("a case that fails to run is an error of each of its metrics, and keeps its baselines on update") {
  SmallSuite s;
  s.run(true);
  // A policy that loads but throws while it schedules: the case fails only when it runs.
  s.suite["cases"][1]["plugins"] = {std::string(ZS_FAULTY_PLUGIN_DIR) + "/zs_faulty_plugin_policy_throws.so"};
  s.suite["cases"][1]["collective"] = "throwing-collective";
  const auto run = s.run(true);
  CHECK(verdicts(run) == std::vector<std::string>{"held", "held", "held", "error", "error", "error"});
  CHECK(run.outcome.checks[3].error.find("the case failed to run: ") == 0);
  CHECK(run.outcome.checks[3].error.find("deliberate failure") != std::string::npos);
  CHECK(s.read_baselines()["cases"]["tree"].size() == 3);
}

TEST_CASE(
    "an unknown policy, a missing plugin or a malformed metric pointer is refused before any case runs") {
  SmallSuite s;
  s.run(true);
  const nlohmann::json baselines = s.read_baselines();
  auto refused = [&](auto change, const std::string& expected) {
    SmallSuite t;
    change(t.suite);
    t.write_baselines(baselines);
    const auto r = test::run_zettasim(t.dir, {"regress", t.write(), "--update-baselines"});
    CHECK(r.code == 2);
    CHECK(r.err.find(expected) != std::string::npos);
    CHECK(t.read_baselines() == baselines);  // nothing ran, nothing rewritten
  };
  refused([](nlohmann::json& j) { j["cases"][1]["collective"] = "no-such-policy"; }, "case \"tree\": ");
  refused([](nlohmann::json& j) { j["cases"][1]["plugins"] = {"/nonexistent/plugin.so"}; }, "plugin.so");
  refused([](nlohmann::json& j) { j["metrics"][2]["metric"] = "/critical_rank_breakdown_s/~2"; },
          "/metrics/2/metric: expected a key of the result or a JSON pointer");
}

TEST_CASE("zettasim regress: exit 0, 1 and 2, the table, and JUnit XML with the table's counts") {
  SmallSuite s;
  const std::string suite = s.write();
  const std::string junit = s.dir.file("junit.xml");
  auto r = test::run_zettasim(s.dir, {"regress", suite, "--junit", junit, "--jobs", "2"});
  CHECK(r.code == 1);
  CHECK(r.out.find("result: 0 held, 0 improved, 0 regressed, 6 without baseline, 0 errors: FAILED") !=
        std::string::npos);
  check_junit(junit, 6, 6, 0);
  r = test::run_zettasim(s.dir, {"regress", suite, "--update-baselines"});
  CHECK(r.code == 0);
  CHECK(r.out.find("(6 changed)") != std::string::npos);
  r = test::run_zettasim(s.dir, {"regress", suite, "--junit", junit});
  CHECK(r.code == 0);
  CHECK(r.out.find("result: 6 held") != std::string::npos);
  check_junit(junit, 6, 0, 0);
  s.suite["cases"][1]["plugins"] = {std::string(ZS_FAULTY_PLUGIN_DIR) + "/zs_faulty_plugin_policy_throws.so"};
  s.suite["cases"][1]["collective"] = "throwing-collective";  // fails while it runs: an error of its checks
  auto b = s.read_baselines();
  b["cases"]["ring"]["iteration_time_s"] = double(b["cases"]["ring"]["iteration_time_s"]) / 2;
  s.write_baselines(b);
  r = test::run_zettasim(s.dir, {"regress", s.write(), "--junit", junit});
  CHECK(r.code == 1);
  CHECK(r.out.find("ring: iteration_time_s: ") != std::string::npos);
  check_junit(junit, 6, 1, 3);
  s.suite["metrics"][0]["relative_tolerance"] = "2%";
  const auto bad = test::run_zettasim(s.dir, {"regress", s.write()});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("suite.json: /metrics/0/relative_tolerance: ") != std::string::npos);
}

TEST_CASE(
    "regress catches the example placement plugin swapped for one that scatters tensor-parallel peers") {
  // examples/regression-suite.json as a runtime team's CI runs it: the plugin at build/, the committed
  // baselines beside the suite.
  test::TempDir dir;
  const fs::path examples = fs::path(ZS_SOURCE_DIR) / "examples";
  auto suite = nlohmann::json::parse(test::read_text(examples / "regression-suite.json"));
  suite["cases"][0]["scenario"] = (examples / "scenarios" / "tp8-on-4-servers.json").string();
  const std::string suite_file = dir.write("regression-suite.json", suite.dump(2));
  dir.write("example-placement.baselines.json",
            test::read_text(examples / "example-placement.baselines.json"));
  const fs::path plugin = dir.path() / "build" / "zs_example_placement.so";
  fs::create_directories(plugin.parent_path());
  auto install = [&](const std::string& built) {
    fs::copy_file(std::string(ZS_EXAMPLE_PLUGIN_DIR) + "/" + built, plugin,
                  fs::copy_options::overwrite_existing);
  };
  const std::string junit = dir.file("junit.xml");

  install("zs_example_placement.so");
  CHECK(test::run_zettasim(dir, {"regress", suite_file, "--junit", junit}).code == 0);
  check_junit(junit, 3, 0, 0);

  install("zs_example_placement_scattered.so");
  const auto broken = test::run_zettasim(dir, {"regress", suite_file, "--junit", junit});
  CHECK(broken.code == 1);
  for (const char* metric :
       {"iteration_time_s", "/critical_rank_exposed_communication_by_communicator_s/tp"}) {
    CAPTURE(metric);
    CHECK(broken.out.find(std::string("  tp8-on-4-servers: ") + metric + ": ") != std::string::npos);
    CHECK(test::read_text(junit).find(std::string("<failure type=\"regressed\" message=\"") + metric +
                                      ": ") != std::string::npos);
  }
  check_junit(junit, 3, 3, 0);

  install("zs_example_placement.so");
  CHECK(test::run_zettasim(dir, {"regress", suite_file}).code == 0);
}

TEST_CASE("regress writes --junit and baselines under the output-file rule, checked before any case runs") {
  SmallSuite s;
  const std::string suite = s.write();
  // The JUnit file never replaces the suite or a case's scenario, not even with --force.
  for (const std::string& target : {suite, s.dir.file("scenario.json")}) {
    const std::string before = test::read_text(target);
    const auto r = test::run_zettasim(s.dir, {"regress", suite, "--junit", target, "--force"});
    CHECK(r.code == 2);
    CHECK(r.err.find("an input of this command") != std::string::npos);
    CHECK(test::read_text(target) == before);
  }
  const std::string notes = s.dir.write("notes.xml", "<mine/>\n");
  CHECK(test::run_zettasim(s.dir, {"regress", suite, "--junit", notes}).code == 2);
  CHECK(test::read_text(notes) == "<mine/>\n");
  CHECK(!fs::exists(s.baselines()));  // refused before any case ran
  // Its own JUnit file is replaced by the next run.
  CHECK(test::run_zettasim(s.dir, {"regress", suite, "--junit", s.dir.file("j.xml"), "--update-baselines"})
            .code == 0);
  CHECK(test::run_zettasim(s.dir, {"regress", suite, "--junit", s.dir.file("j.xml")}).code == 0);
  // A suite whose baselines file is its own scenario: --update-baselines refuses before running anything.
  s.suite["baselines"] = "scenario.json";
  const std::string scenario_before = test::read_text(s.dir.file("scenario.json"));
  const auto r = test::run_zettasim(s.dir, {"regress", s.write(), "--update-baselines"});
  CHECK(r.code == 2);
  CHECK(test::read_text(s.dir.file("scenario.json")) == scenario_before);
}
