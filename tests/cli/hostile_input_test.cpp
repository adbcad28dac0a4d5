// Scenario files an adversarial user might write: each is one error line and exit 2, never a crash.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "support/run_cli.hpp"
#include "support/scenario_files.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

namespace {

/// Runs the small scenario with its text edited by `edit`; returns the result.
test::CliResult run_edited(const std::function<std::string(std::string)>& edit, std::string& path) {
  test::TempDir dir;
  path = test::ScenarioFiles().write(dir);
  const std::string text = edit(test::read_text(path));
  dir.write("scenario.json", text);
  auto r = test::run_cli({"run", path, "--out", dir.file("out"), "--quiet"});
  CHECK_FALSE(std::filesystem::exists(dir.path() / "out"));
  return r;
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("hostile scenario text: one line naming the file and where, exit 2") {
  struct Case {
    const char* what;
    std::function<std::string(std::string)> edit;
    std::string expected_tail;
  };
  const std::vector<Case> cases = {
      {"duplicate key",
       [](std::string t) { return replace_once(t, "\"seed\": 7", "\"seed\": 7, \"seed\": 8"); },
       ": /seed: duplicate key \"seed\" (each key may appear once in an object)\n"},
      {"number out of range", [](std::string t) { return replace_once(t, "\"seed\": 7", "\"seed\": 1e400"); },
       ": /seed: a number out of range (a double holds up to about 1.8e308)\n"},
      {"deep nesting",
       [](std::string t) {
         return replace_once(t, "\"name\": \"hand\"",
                             "\"name\": " + std::string(100000, '[') + std::string(100000, ']'));
       },
       ": /name/0/0/0/...: nested deeper than 256 levels of arrays and objects\n"},
      {"NUL and garbage after the document", [](std::string t) { return t + std::string("\0 more", 6); },
       ": a NUL byte (JSON text holds none)\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    std::string path;
    const auto r = run_edited(c.edit, path);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("zettasim: error: " + path, 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.size() >= c.expected_tail.size());
    CHECK(r.err.substr(r.err.size() - std::min(r.err.size(), c.expected_tail.size())) == c.expected_tail);
  }
}

TEST_CASE("command-line errors are one line with error:, exit 2") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"run", "a.json", "--bogus"},
       "zettasim: error: command line: The following argument was not expected: --bogus "
       "(see zettasim --help)\n"},
      {{}, "zettasim: error: command line: A subcommand is required (see zettasim --help)\n"},
      {{"goodput", "x.json", "--seeds", "0"},
       "zettasim: error: command line: --seeds: Value 0 not in range 1 to 100000 (see zettasim --help)\n"},
  };
  for (const auto& c : cases) {
    const auto& args = c.first;
    const auto& expected = c.second;
    CAPTURE(expected);
    const auto r = test::run_cli(args);
    CHECK(r.code == 2);
    CHECK(r.err == expected);
  }
}

TEST_CASE("a plan whose trace would not fit in memory is refused before it is generated") {
  test::TempDir dir;
  test::ScenarioFiles files;
  files.model["layers"] = 10000000;
  files.scenario["workload"]["generator"] = "megatron";  // data-parallel checks model state first
  const std::string path = files.write(dir);
  const auto r = test::run_cli({"run", path, "--out", dir.file("out"), "--quiet"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "zettasim: error: " + path +
            ": /workload: the generated trace would hold more than 16777216 ops (at least 20000000: a "
            "forward and a backward op per layer and micro-batch): small has 10000000 layers, 1 "
            "micro-batch per iteration\n");
}

TEST_CASE("echoed input cannot forge a second line") {
  const std::string forged = "\nzettasim: error: forged";
  auto run = [](const test::ScenarioFiles& files) {
    test::TempDir dir;
    const auto r = test::run_cli({"run", files.write(dir), "--out", dir.file("out"), "--quiet"});
    CHECK(r.code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    return r.err;
  };
  test::ScenarioFiles key;
  key.scenario["workload"]["bogus" + forged] = 1;
  CHECK(run(key).find("/workload/bogus\\nzettasim: error: forged: unknown key") != std::string::npos);
  test::ScenarioFiles unit;
  unit.link["latency"] = "1us" + forged;
  CHECK(run(unit).find("/latency: \"1us\\nzettasim: error: forged\": unknown unit") != std::string::npos);
}

TEST_CASE("an error found in a generated trace names the scenario's key that asked for it") {
  test::TempDir dir;
  test::ScenarioFiles files;  // its machine has no memory pool
  files.scenario["workload"]["generator"] = "megatron";
  files.scenario["workload"]["offload_optimizer"] = true;
  const std::string path = files.write(dir);
  const auto r = test::run_cli({"run", path, "--out", dir.file("out"), "--quiet"});
  CHECK(r.code == 2);
  CHECK(
      r.err.rfind("zettasim: error: " + path +
                      ": /workload/offload_optimizer: a memory move, but machine \"switch-4\" has no memory "
                      "pool (in trace \"small-dp4-pp1-tp1\" at /roles/0/ops/",
                  0) == 0);
}

TEST_CASE("the bounds on the machine and the trace are options of the commands that load scenarios") {
  test::TempDir dir;
  const std::string path = test::ScenarioFiles().write(dir);  // 5 nodes, a trace of 9 ops
  const auto nodes = test::run_cli({"run", path, "--out", dir.file("out"), "--max-machine-nodes", "4"});
  CHECK(nodes.code == 2);
  CHECK(nodes.err == "zettasim: error: " + dir.file("topologies/switch-4.json") +
                         ": the machine would have more than 4 nodes (units, switches and memory pools)\n");
  const auto ops = test::run_cli({"place", path, "--max-trace-ops", "8"});
  CHECK(ops.code == 2);
  CHECK(ops.err.find(": /workload: the generated trace would hold 9 ops, more than 8") != std::string::npos);
  CHECK(test::run_cli({"topo", path, "--max-machine-nodes", "5"}).code == 0);
  CHECK(test::run_cli({"run", path, "--out", dir.file("out"), "--quiet", "--max-trace-ops", "9"}).code == 0);
}

TEST_CASE("a misspelt plan key is refused before the trace is generated") {
  test::TempDir dir;
  test::ScenarioFiles files;
  files.model["layers"] = 10000000;  // generating first would be refused for its size instead
  files.scenario["workload"]["generator"] = "megatron";
  files.scenario["workload"]["data_pcrallel"] = 4;
  const std::string path = files.write(dir);
  const auto r = test::run_cli({"run", path, "--out", dir.file("out"), "--quiet"});
  CHECK(r.code == 2);
  CHECK(r.err.rfind("zettasim: error: " + path + ": /workload/data_pcrallel: unknown key", 0) == 0);
}
