// Every single file a command writes follows one rule: never over a link, a folder, an input of the run or a
// file zettasim did not write (unless --force), never two outputs on one path, never inside the results
// folder.
#include <doctest/doctest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "support/run_cli.hpp"
#include "support/scenario_files.hpp"
#include "support/temp_dir.hpp"

using namespace zs;
namespace fs = std::filesystem;

namespace {

/// One command line with one single-file output: `args(path)` writes it at `path`.
struct OutputCase {
  const char* name;
  const char* extension;
  std::function<std::vector<std::string>(const test::TempDir&, const std::string& scenario,
                                         const std::string& path)>
      args;
};

std::vector<OutputCase> cases() {
  const std::string goodput_scenario =
      std::string(ZS_SOURCE_DIR) + "/scenarios/planner/gpt3-1.3b-hgx-h100-4node.json";
  const std::string machine = std::string(ZS_SOURCE_DIR) + "/topologies/hgx-h100-8.machine.json";
  return {
      {"run --timeline", ".json",
       [](const test::TempDir& d, const std::string& s, const std::string& p) {
         return std::vector<std::string>{"run", s, "--out", d.file("r"), "--quiet", "--timeline", p};
       }},
      {"run --timeseries", ".h5",
       [](const test::TempDir& d, const std::string& s, const std::string& p) {
         return std::vector<std::string>{"run", s, "--out", d.file("r"), "--quiet", "--timeseries", p};
       }},
      {"goodput --timeline", ".json",
       [goodput_scenario](const test::TempDir& d, const std::string&, const std::string& p) {
         return std::vector<std::string>{"goodput", goodput_scenario, "--out", d.file("g"),
                                         "--quiet", "--timeline",     p};
       }},
      {"trace gen --out", ".json",
       [](const test::TempDir&, const std::string& s, const std::string& p) {
         return std::vector<std::string>{"trace", "gen", s, "--out", p};
       }},
      {"topo --graph", ".dot",
       [machine](const test::TempDir&, const std::string&, const std::string& p) {
         return std::vector<std::string>{"topo", machine, "--graph", p, "--diameter-sources", "4"};
       }},
  };
}

}  // namespace

TEST_CASE("each single-file output: written, replaced by its next run, never over what is not its own") {
  for (const OutputCase& c : cases()) {
    CAPTURE(c.name);
    test::TempDir dir;
    const std::string scenario = test::ScenarioFiles().write(dir);
    const std::string out = dir.file(std::string("out") + c.extension);
    REQUIRE(test::run_cli(c.args(dir, scenario, out)).code == 0);
    REQUIRE(fs::is_regular_file(out));
    CHECK(test::run_cli(c.args(dir, scenario, out)).code == 0);  // its own file: replaced

    const std::string notes = dir.write(std::string("notes") + c.extension, "the user's notes\n");
    auto refused = test::run_cli(c.args(dir, scenario, notes));
    CHECK(refused.code == 2);
    CHECK(refused.err.find("exists and is not") != std::string::npos);
    CHECK(refused.err.find("--force") != std::string::npos);
    CHECK(test::read_text(notes) == "the user's notes\n");

    fs::create_symlink(notes, dir.path() / (std::string("link") + c.extension));
    refused = test::run_cli(c.args(dir, scenario, dir.file(std::string("link") + c.extension)));
    CHECK(refused.code == 2);
    CHECK(refused.err.find("is a symbolic link") != std::string::npos);
    CHECK(fs::is_symlink(dir.path() / (std::string("link") + c.extension)));

    fs::create_directories(dir.path() / (std::string("folder") + c.extension));
    CHECK(test::run_cli(c.args(dir, scenario, dir.file(std::string("folder") + c.extension))).code == 2);
  }
}

TEST_CASE("an output never replaces an input of its own run, not even with --force") {
  test::TempDir dir;
  const std::string scenario = test::ScenarioFiles().write(dir);
  const std::string before = test::read_text(scenario);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", scenario, "--out", dir.file("r"), "--quiet", "--force", "--timeline",
                                 scenario},
        {"run", scenario, "--out", dir.file("r"), "--quiet", "--timeseries", dir.file("models/gpu.json"),
         "--force"},
        {"trace", "gen", scenario, "--out", dir.file("workloads/small.json"), "--force"},
        {"topo", scenario, "--graph", scenario, "--force"}}) {
    CAPTURE(args[0]);
    const auto r = test::run_cli(args);
    CHECK(r.code == 2);
    CHECK(r.err.find("an input of this command") != std::string::npos);
  }
  CHECK(test::read_text(scenario) == before);
  // A results folder is never one that holds an input (replacing it would remove the input).
  const auto r = test::run_cli({"run", scenario, "--out", dir.path().string(), "--quiet", "--force"});
  CHECK(r.code == 2);
  CHECK(test::read_text(scenario) == before);
}

TEST_CASE("two outputs of one run never share a path, and none lies inside the results folder") {
  test::TempDir dir;
  const std::string scenario = test::ScenarioFiles().write(dir);
  auto r = test::run_cli({"run", scenario, "--out", dir.file("r"), "--quiet", "--timeline", dir.file("v"),
                          "--timeseries", dir.file("v")});
  CHECK(r.code == 2);
  CHECK(r.err.find("name one file") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.file("v")));
  REQUIRE(test::run_cli({"run", scenario, "--out", dir.file("r"), "--quiet"}).code == 0);
  const std::string summary = test::read_text(dir.file("r/summary.json"));
  r = test::run_cli({"run", scenario, "--out", dir.file("r"), "--quiet", "--force", "--timeline",
                     dir.file("r/summary.json")});
  CHECK(r.code == 2);
  CHECK(r.err.find("is inside") != std::string::npos);
  CHECK(test::read_text(dir.file("r/summary.json")) == summary);
}

TEST_CASE("--force replaces a file zettasim did not write") {
  test::TempDir dir;
  const std::string scenario = test::ScenarioFiles().write(dir);
  const std::string notes = dir.write("notes.json", "the user's notes\n");
  CHECK(test::run_cli({"trace", "gen", scenario, "--out", notes, "--force"}).code == 0);
  CHECK(test::read_text(notes).find("\"kind\": \"trace\"") != std::string::npos);
}

TEST_CASE("options of a view given without the view are refused, not ignored") {
  test::TempDir dir;
  const std::string scenario = test::ScenarioFiles().write(dir);
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--timeline-ranks", "0-1"},
                                                {"--timeline-window", "0..1ms"},
                                                {"--timeseries-step", "1ms"}}) {
    std::vector<std::string> args{"run", scenario, "--out", dir.file("r"), "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = test::run_cli(args);
    CHECK(r.code == 2);
    CHECK(r.err.find(extra[0]) != std::string::npos);
  }
}
