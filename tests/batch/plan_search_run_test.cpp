// `zettasim search` on the default scenario: the finalists and the scenario's own plan through the engine as
// sweep points, the results folder, the best plan as a scenario file that runs to the finalist's figures,
// and a rerun that resumes from the journal to the same result.
#include <doctest/doctest.h>

#include <filesystem>
#include <iostream>

#include "batch/plan_search_run.hpp"
#include "study/scenario_simulation.hpp"
#include "support/default_scenario.hpp"
#include "support/run_cli.hpp"
#include "support/run_zettasim.hpp"
#include "support/source_file.hpp"

using namespace zs;

namespace {

batch::SearchOptions options(const std::string& scenario, const std::string& out) {
  batch::SearchOptions o;
  o.scenario = scenario;
  o.out = out;
  o.top = 2;
  o.jobs = 2;
  o.quiet = true;
  o.command = {ZS_ZETTASIM, {"sweep-point"}};
  return o;
}

nlohmann::json without_wall_time(nlohmann::json j) {
  j["space"].erase("tier1_seconds");
  return j;
}

}  // namespace

TEST_CASE("a search runs its finalists and the scenario's plan, writes its folder and resumes to the same") {
  test::TempDir dir;
  test::default_scenario_with(dir, "s.json", [](nlohmann::json&) {});
  const std::string out = dir.file("found");
  const batch::SearchOutcome r =
      batch::run_search(core::DiskFileSource(), options(dir.file("s.json"), out), std::cerr);
  REQUIRE(r.result.tier2);
  REQUIRE(r.result.finalists.size() == 3);  // the scenario's own plan, then the two best estimates
  CHECK(r.result.finalists[0].reference);
  for (const auto& f : r.result.finalists) {
    CHECK(f.status == "ok");
    CHECK(f.estimate_error.has_value());
    CHECK(std::abs(*f.estimate_error) < 0.1);  // the data-parallel 1.3B GPT on NVLink: within a few %
  }
  for (const char* file : {"search.json", "report.txt", "tier1.csv", "finalists.csv", "best.scenario.json"})
    CHECK(std::filesystem::is_regular_file(std::filesystem::path(out) / file));
  REQUIRE(r.result.best);
  const auto& best = r.result.finalists[*r.result.best];
  // The best plan's scenario file, as `run` loads it, simulates to the figures the search reports.
  const scenario::Scenario again =
      scenario::ScenarioLoader(core::DiskFileSource()).load(out + "/best.scenario.json");
  CHECK(study::simulate_scenario(again).replay.iteration_time.value() ==
        best.summary["iteration_time_s"].get<double>());
  // A second run takes every point from the journal and finds the same.
  const std::string first = test::read_text(out + "/search.json");
  const batch::SearchOutcome rerun =
      batch::run_search(core::DiskFileSource(), options(dir.file("s.json"), out), std::cerr);
  CHECK(without_wall_time(nlohmann::json::parse(test::read_text(out + "/search.json"))) ==
        without_wall_time(nlohmann::json::parse(first)));
}

TEST_CASE("search refuses what it cannot do with one line and exit code 2") {
  test::TempDir dir;
  test::default_scenario_with(dir, "s.json", [](nlohmann::json&) {});
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.begin(),
                {"search", dir.file("s.json"), "--top", "0", "--quiet", "--out", dir.file("o")});
    return test::run_cli(args);
  };
  auto r = run({"--objective", "fastest"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "zettasim: error: --objective: unknown objective \"fastest\" (known: time, energy, cost, pareto)\n");
  r = run({"--budget", "soon"});
  CHECK(r.code == 2);
  CHECK(r.err == "zettasim: error: --budget: expected a duration such as 10min, got \"soon\"\n");
  test::default_scenario_with(dir, "bad.json", [](nlohmann::json&) {});
  nlohmann::json bad = nlohmann::json::parse(test::read_text(dir.file("bad.json")));
  bad["search"] = {{"pipeline_parallel", {{"min", 64}}}};
  dir.write("bad.json", bad.dump());
  r = test::run_cli({"search", dir.file("bad.json"), "--top", "0", "--quiet", "--out", dir.file("o2")});
  CHECK(r.code == 2);
  CHECK(r.err.starts_with("zettasim: error: " + dir.file("bad.json") +
                          ": /search/pipeline_parallel: no value in [64,"));
  CHECK(r.err.find('\n') == r.err.size() - 1);
}

TEST_CASE("zettasim plan --search plans the best plan the search found for the job") {
  test::TempDir dir;
  const std::string scenario = test::source_file("scenarios/planner/gpt3-1.3b-hgx-h100-4node.json");
  const auto r = test::run_zettasim(
      dir, {"plan", scenario, "--search", "--search-top", "1", "--quiet", "--out", dir.file("plan")});
  REQUIRE(r.code == 0);
  // The search's results sit in results/<name>-search of the working folder; the plan is of its best.
  const nlohmann::json found =
      nlohmann::json::parse(test::read_text("results/gpt3-1.3b-hgx-h100-4node-search/search.json"));
  const nlohmann::json& best = found["finalists"][found["best"].get<size_t>()];
  const std::string sbatch = test::read_text(dir.file("plan") + "/launch.sbatch");
  CHECK(sbatch.find("--tensor-model-parallel-size " +
                    std::to_string(best["workload"]["tensor_parallel"].get<int>())) != std::string::npos);
  CHECK(sbatch.find("--micro-batch-size " + std::to_string(best["workload"]["micro_batch"].get<int>())) !=
        std::string::npos);
  std::filesystem::remove_all("results/gpt3-1.3b-hgx-h100-4node-search");
  std::filesystem::remove_all("results/gpt3-1.3b-hgx-h100-4node-search.tier2");
}

TEST_CASE("search replaces nothing it was not asked to: an input in --out, another folder at OUT.tier2") {
  test::TempDir dir;
  test::default_scenario_with(dir, "s.json", [](nlohmann::json&) {});
  // --force lets a results folder zettasim did not write be replaced, never one holding the scenario.
  auto r = test::run_cli(
      {"search", dir.file("s.json"), "--top", "0", "--quiet", "--force", "--out", dir.path().string()});
  CHECK(r.code == 2);
  CHECK(r.err.find("an input of this command, and would be replaced whole") != std::string::npos);
  CHECK(r.err.find('\n') == r.err.size() - 1);
  // A user's folder where the finalists' sweep would go is neither replaced nor written into, forced or not.
  dir.write("found.tier2/notes.txt", "mine");
  for (bool force : {false, true}) {
    std::vector<std::string> args = {"search", dir.file("s.json"), "--quiet", "--out", dir.file("found")};
    if (force) args.push_back("--force");
    r = test::run_cli(args);
    CHECK(r.code == 2);
    CHECK(r.err ==
          "zettasim: error: " + dir.file("found.tier2") + ": is not a folder zettasim wrote (no " +
              ".zettasim-output), and a search keeps its finalists' sweep there: choose another --out\n");
  }
  CHECK(test::read_text(dir.file("found.tier2/notes.txt")) == "mine");
  CHECK(!std::filesystem::exists(dir.file("found")));  // refused before any work
}
