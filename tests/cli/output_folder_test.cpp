// Where results go: a scenario's name is one safe folder name, and no file or foreign folder is destroyed.
#include <doctest/doctest.h>

#include <filesystem>

#include "support/run_cli.hpp"
#include "support/scenario_files.hpp"
#include "support/temp_dir.hpp"

using namespace zs;
namespace fs = std::filesystem;

namespace {

/// Runs `zettasim run` on the small scenario named `name`, from inside `dir` (so results/ lands there).
test::CliResult run_named(const test::TempDir& dir, const std::string& name,
                          std::vector<std::string> extra = {}) {
  test::ScenarioFiles files;
  files.scenario["name"] = name;
  const std::string scenario = files.write(dir);
  const fs::path before = fs::current_path();
  fs::current_path(dir.path());
  std::vector<std::string> args = {"run", scenario, "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = test::run_cli(args);
  fs::current_path(before);
  return r;
}

const std::string kRule =
    "expected 1 to 128 characters of A-Z a-z 0-9 . _ -, not starting with '.' or '-' (it names a file or "
    "folder), got ";

}  // namespace

TEST_CASE("a scenario name that is not one safe folder name is refused before anything is written") {
  test::TempDir dir;
  dir.write("results/other-run/summary.json", "{}");
  const std::string scenario = dir.file("scenario.json");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "an empty name"},
      {"..", "a name starting with '.'"},
      {"../escape", "a name starting with '.'"},
      {"/tmp/elsewhere", "a name containing \"/\""},
      {"a/b", "a name containing \"/\""},
      {"line\nbreak", "a name containing \"\\n\""},
      {"-rf", "a name starting with '-'"},
      {std::string(129, 'x'), "a name of 129 characters"},
  };
  for (const auto& c : cases) {
    const std::string& name = c.first;
    const std::string& why = c.second;
    CAPTURE(name);
    auto r = run_named(dir, name);
    CHECK(r.code == 2);
    CHECK(r.err == "zettasim: error: " + scenario + ": /name: " + kRule + why + "\n");
  }
  CHECK(test::read_text(dir.path() / "results/other-run/summary.json") == "{}");
  CHECK_FALSE(fs::exists(dir.path() / "escape"));
  auto ok = run_named(dir, "fine_name-1.0");
  CHECK(ok.code == 0);
  CHECK(fs::exists(dir.path() / "results/fine_name-1.0/summary.json"));
}

TEST_CASE("--out naming a file or a folder zettasim did not write is refused, --force replaces a folder") {
  test::TempDir dir;
  const std::string file = dir.write("keep.txt", "precious");
  auto on_file = run_named(dir, "hand", {"--out", file, "--force"});
  CHECK(on_file.code == 2);
  CHECK(on_file.err ==
        "zettasim: error: " + file +
            ": exists and is not a folder; zettasim never deletes a file: choose another output "
            "folder\n");
  CHECK(test::read_text(file) == "precious");

  dir.write("thesis/chapter1.tex", "precious");
  auto on_foreign = run_named(dir, "hand", {"--out", dir.file("thesis")});
  CHECK(on_foreign.code == 2);
  CHECK(on_foreign.err.find("is a folder that zettasim did not write") != std::string::npos);
  CHECK(test::read_text(dir.path() / "thesis/chapter1.tex") == "precious");

  // zettasim's own folder is replaced as before; a foreign one only when forced.
  CHECK(run_named(dir, "hand", {"--out", dir.file("mine")}).code == 0);
  CHECK(run_named(dir, "hand", {"--out", dir.file("mine")}).code == 0);
  CHECK(run_named(dir, "hand", {"--out", dir.file("thesis"), "--force"}).code == 0);
  CHECK(fs::exists(dir.path() / "thesis/summary.json"));
  CHECK_FALSE(fs::exists(dir.path() / "thesis/chapter1.tex"));
}

TEST_CASE("a validation file's name follows the same rule") {
  test::TempDir dir;
  const std::string validation = dir.write("v.json", R"({"kind": "validation", "name": "../x"})");
  auto r = test::run_cli({"validate", validation});
  CHECK(r.code == 2);
  CHECK(r.err == "zettasim: error: " + validation + ": /name: " + kRule + "a name starting with '.'\n");
}
